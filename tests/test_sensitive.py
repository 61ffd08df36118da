"""The resident registration number: encrypted at rest, masked everywhere, revealed to owners only, never logged."""
from conftest import Server, make_family, saessak
from test_api_contract import call

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
