"""Runs last (pytest collects test files in name order): every documented success was seen by some test. With
pytest-xdist (`make test` runs two workers) no test runs after all the others, so the controlling process does the
same check when every worker is done (conftest.pytest_sessionfinish) and this test stands aside."""
import pytest

from openapi_contract import SEEN, missing_successes


def test_every_documented_success_was_exercised(request):
    if hasattr(request.config, "workerinput"):
        pytest.skip("with workers, the controlling process checks this when all of them are done")
    missing = missing_successes(SEEN)
    assert not missing, f"documented but never checked: {sorted(missing)}"
