"""The resident registration number: encrypted at rest, masked everywhere, revealed to owners only, never logged."""
from conftest import Server, make_family, saessak
from test_api_contract import call
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]

NUMBER = "240229-4123456"


def test_resident_number_is_revealed_only_to_owners_and_never_stored_or_logged_in_plaintext(tmp_path):
    data = tmp_path / "data"
    owner = make_family(data, "mom", "우리집")
    make_family(data, "dad", "dad")
    make_family(data, "grandma", "grandma")
    make_family(data, "neighbour", "옆집")
    saessak("admin", "add-member", "--username", "dad", "--family", "우리집", "--role", "editor", data=data)
    saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "viewer", data=data)
    editor = saessak("admin", "create-token", "--username", "dad", "--family", "우리집", data=data).stdout.strip()
    viewer = saessak("admin", "create-token", "--username", "grandma", "--family", "우리집", data=data).stdout.strip()
    stranger = saessak("admin", "create-token", "--username", "neighbour", data=data).stdout.strip()
    running = Server(data).start()
    try:
        child = call(running, "POST", "/children", {"name": "하늘", "birthDate": "2024-02-29", "residentNumber": NUMBER}, owner).json()
        assert child["residentNumber"] == "240229-4******"
        path = f"/children/{child['id']}/resident-number"
        revealed = call(running, "GET", path, token=owner)
        assert revealed.json() == {"residentNumber": NUMBER} and revealed.headers["Cache-Control"] == "no-store"
        assert call(running, "GET", path, token=editor).status == 403
        assert call(running, "GET", path, token=viewer).status == 403
        assert call(running, "GET", path, token=stranger).status == 404
        assert call(running, "GET", path).status == 401
        bare = call(running, "POST", "/children", {"name": "바다", "birthDate": "2025-01-01"}, owner).json()
        assert call(running, "GET", f"/children/{bare['id']}/resident-number", token=owner).json() == {"residentNumber": None}
        # A bad number is refused without echoing it whole.
        refused = call(running, "POST", "/children", {"name": "x", "birthDate": "2025-01-01", "residentNumber": "240229-412345"}, owner)
        assert refused.status == 422 and "240229-412345" not in refused.body.decode()
    finally:
        running.stop()
    for secret in (NUMBER, NUMBER.replace("-", ""), "4123456"):
        for file in list(data.glob("saessak.sqlite*")) + list(data.parent.glob("server-*.log")):
            assert secret.encode() not in file.read_bytes(), f"{secret} in {file.name}"


def reveal(data, owner):
    running = Server(data).start()
    try:
        child = call(running, "GET", "/children", token=owner).json()["items"][0]
        return call(running, "GET", f"/children/{child['id']}/resident-number", token=owner).json()["residentNumber"]
    finally:
        running.stop()


def test_rotating_the_key_keeps_the_numbers(tmp_path):
    data = tmp_path / "data"
    owner = make_family(data, "mom", "우리집")
    running = Server(data).start()
    try:
        call(running, "POST", "/children", {"name": "하늘", "birthDate": "2024-02-29", "residentNumber": NUMBER}, owner)
        # A child in the trash keeps their number sealed too, and it is re-encrypted with the rest (issue 36).
        trashed = call(running, "POST", "/children", {"name": "바다", "birthDate": "2025-01-01", "residentNumber": "250101-3123456"}, owner)
        item = call(running, "DELETE", f"/children/{trashed.json()['id']}", token=owner).headers["Trash-Item"]
    finally:
        running.stop()
    before = (data / "secret.key").read_bytes()
    out = saessak("admin", "rotate-key", data=data)
    assert out.stdout.strip() == "re-encrypted 2 values with a new key in secret.key"
    running = Server(data).start()
    try:
        assert call(running, "POST", f"/trash/{item}/restore", token=owner).status == 200
        revealed = call(running, "GET", f"/children/{trashed.json()['id']}/resident-number", token=owner).json()
        assert revealed == {"residentNumber": "250101-3123456"}
        call(running, "DELETE", f"/children/{trashed.json()['id']}", token=owner)
    finally:
        running.stop()
    after = (data / "secret.key").read_bytes()
    assert after != before and len(after) == 32 and (data / "secret.key").stat().st_mode & 0o777 == 0o600
    assert reveal(data, owner) == NUMBER
    # An interrupted rotation stops the server from starting until rotate-key finishes it.
    (data / "secret.key.next").write_bytes(bytes(range(32)))
    refused = saessak("children", "list", data=data, check=False)
    assert refused.returncode != 0 and "rotate-key" in refused.stderr
    assert saessak("admin", "rotate-key", data=data).returncode == 0
    assert not (data / "secret.key.next").exists()
    assert reveal(data, owner) == NUMBER


def test_rotating_a_key_from_the_environment_prints_the_new_one(tmp_path, monkeypatch):
    import base64
    import os

    key = base64.b64encode(os.urandom(32)).decode()
    monkeypatch.setenv("SAESSAK_SECRET_KEY", key)
    data = tmp_path / "data"
    owner = make_family(data, "mom", "우리집")
    running = Server(data).start()
    try:
        call(running, "POST", "/children", {"name": "하늘", "birthDate": "2024-02-29", "residentNumber": NUMBER}, owner)
    finally:
        running.stop()
    assert not (data / "secret.key").exists()
    out = saessak("admin", "rotate-key", data=data)
    new_key = out.stdout.strip().splitlines()[-1]
    assert new_key != key and len(base64.b64decode(new_key)) == 32
    monkeypatch.setenv("SAESSAK_SECRET_KEY", new_key)
    assert reveal(data, owner) == NUMBER
