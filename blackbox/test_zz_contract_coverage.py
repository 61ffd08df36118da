"""Runs last (pytest collects test files in name order): every documented success was seen by some test."""
from openapi_contract import SEEN, documented_successes


def test_every_documented_success_was_exercised():
    missing = set(documented_successes()) - SEEN - {("GET", "/openapi.json", "200")}
    assert not missing, f"documented but never checked: {sorted(missing)}"
