"""The command-line tool: account setup, tokens, listings for scripts, and clear failures."""
import json

import pytest

from conftest import Server, new_child, new_entry, saessak


def test_create_user_and_token(tmp_path):
    data = tmp_path / "data"
    out = saessak("admin", "create-user", "--username", "mina", "--password-stdin", data=data, stdin="long enough\n")
    assert "mina" in out.stdout
    token = saessak("admin", "create-token", "--username", "mina", data=data).stdout
    assert token.count("\n") == 1 and token.startswith("ssk_") and len(token.strip()) > 40
    assert (data / "secret.key").stat().st_mode & 0o777 == 0o600
    assert (data.stat().st_mode & 0o777) == 0o700


def test_named_family_and_conflicts(tmp_path):
    data = tmp_path / "data"
    saessak("admin", "create-user", "--username", "a", "--password-stdin", "--family", "우리집", data=data, stdin="long enough\n")
    again = saessak("admin", "create-user", "--username", "b", "--password-stdin", "--family", "우리집", data=data,
                    stdin="long enough\n", check=False)
    assert again.returncode != 0 and "우리집" in again.stderr and "already exists" in again.stderr
    same_user = saessak("admin", "create-user", "--username", "A", "--password-stdin", data=data, stdin="long enough\n", check=False)
    assert same_user.returncode != 0 and "already exists" in same_user.stderr
    # Nothing half-made: user b was not created, so no token for b.
    assert saessak("admin", "create-token", "--username", "b", data=data, check=False).returncode != 0


@pytest.mark.parametrize("args, stdin, message", [
    (["admin", "create-user", "--username", "x"], "long enough\n", "--password-stdin"),
    (["admin", "create-user", "--username", "x", "--password-stdin"], "short\n", "at least 8"),
    (["admin", "create-user", "--username", "x", "--password-stdin"], "", "no password"),
    (["admin", "create-user", "--username", "no spaces", "--password-stdin"], "long enough\n", "username"),
    (["admin", "create-token"], None, "--username"),
    (["serve", "--port", "70000"], None, "--port"),
    (["entries", "list", "--limit", "0"], None, "--limit"),
    (["entries", "list", "--month", "2026-13"], None, "--month"),
    (["frobnicate"], None, "Usage"),
])
def test_wrong_arguments_fail_clearly(tmp_path, args, stdin, message):
    result = saessak(*args, data=tmp_path / "data", stdin=stdin, check=False)
    assert result.returncode != 0
    assert message.lower() in (result.stderr + result.stdout).lower()


def test_listing_needs_an_existing_data_folder(tmp_path):
    result = saessak("children", "list", data=tmp_path / "missing", check=False)
    assert result.returncode != 0 and "no Saessak data" in result.stderr
    assert not (tmp_path / "missing").exists()


def test_children_and_entries_list_for_scripts(tmp_path):
    data = tmp_path / "data"
    saessak("admin", "create-user", "--username", "kim", "--password-stdin", data=data, stdin="long enough\n")
    token = saessak("admin", "create-token", "--username", "kim", data=data).stdout.strip()
    server = Server(data).start()
    try:
        child = new_child(server, token, name="김하늘", residentNumber="250301-4123456")
        entry = new_entry(server, token, [child["id"]], tags=["산책"])
    finally:
        server.stop()
    children = json.loads(saessak("children", "list", "--json", data=data).stdout)
    assert children["items"][0]["id"] == child["id"]
    assert children["items"][0]["residentNumber"] == "250301-4******"
    text = saessak("children", "list", data=data).stdout
    assert "김하늘" in text and "4123456" not in text
    entries = json.loads(saessak("entries", "list", "--json", "--child", child["id"], "--tag", "산책", data=data).stdout)
    assert [e["id"] for e in entries["items"]] == [entry["id"]]
    assert json.loads(saessak("entries", "list", "--json", "--month", "2020-01", data=data).stdout)["items"] == []
    assert entry["id"] in saessak("entries", "list", "--family", "kim", data=data).stdout
    unknown = saessak("entries", "list", "--family", "nobody", data=data, check=False)
    assert unknown.returncode != 0 and "nobody" in unknown.stderr
