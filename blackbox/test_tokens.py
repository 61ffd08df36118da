"""API tokens: made and revoked by their user through the API and the CLI, limited to a role, stopped at once."""
from conftest import Server, make_family, saessak
from test_api_contract import call
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def test_tokens_are_made_listed_limited_and_revoked_at_once(server):
    made = call(server, "POST", "/tokens", {"name": "액자", "role": "viewer"}, server.kim)
    assert made.status == 201
    frame = made.json()
    assert frame["token"].startswith("ssk_") and frame["role"] == "viewer" and frame["name"] == "액자"
    listed = call(server, "GET", "/tokens", token=server.kim).json()["items"]
    assert frame["id"] in [t["id"] for t in listed] and all("token" not in t for t in listed)
    # The photo frame reads, but a token limited to viewer cannot write even for an owner.
    assert call(server, "GET", "/children", token=frame["token"]).status == 200
    assert call(server, "POST", "/memos", {"title": "x"}, frame["token"]).status == 403
    # A viewer token cannot make itself an owner token, not by asking for the role, nor by leaving it out (issue 17:
    # a token without a role acted as the user's whole role, and could read resident numbers and download backups).
    assert call(server, "POST", "/tokens", {"name": "up", "role": "owner"}, frame["token"]).status == 422
    minted = call(server, "POST", "/tokens", {"name": "up"}, frame["token"])
    assert minted.status == 201 and minted.json()["role"] == "viewer"
    assert call(server, "POST", "/memos", {"title": "x"}, minted.json()["token"]).status == 403
    assert server.request("GET", "/settings/backup.zip", token=minted.json()["token"]).status in (401, 403)
    editor = call(server, "POST", "/tokens", {"name": "editor", "role": "editor"}, server.kim).json()
    assert call(server, "POST", "/tokens", {"name": "e2"}, editor["token"]).json()["role"] == "editor"
    assert call(server, "POST", "/tokens", {"name": "o"}, server.kim).json()["role"] == "owner"
    # Another family cannot revoke it; revoking it stops it on the very next request.
    assert call(server, "DELETE", f"/tokens/{frame['id']}", token=server.lee).status == 404
    assert call(server, "DELETE", f"/tokens/{frame['id']}", token=server.kim).status == 204
    assert call(server, "GET", "/children", token=frame["token"]).status == 401
    assert call(server, "DELETE", f"/tokens/{frame['id']}", token=server.kim).status == 404


def test_token_payloads_are_checked(server):
    assert call(server, "POST", "/tokens", {"name": " "}, server.kim).status == 422
    assert call(server, "POST", "/tokens", {"name": "x", "role": "admin"}, server.kim).status in (400, 422)
    assert call(server, "POST", "/tokens", {"role": "viewer"}, server.kim).status in (400, 422)


def test_cli_revocation_stops_a_token_while_the_server_runs(tmp_path):
    data = tmp_path / "data"
    make_family(data, "mina")
    token = saessak("admin", "create-token", "--username", "mina", "--name", "phone", "--role", "viewer", data=data).stdout.strip()
    running = Server(data).start()
    try:
        assert running.request("GET", "/api/v1/children", token=token).status == 200
        assert running.request("POST", "/api/v1/memos", {"title": "x"}, token).status == 403
        out = saessak("admin", "revoke-token", "--username", "mina", "--name", "phone", data=data)
        assert out.stdout.strip() == "revoked 1 token named 'phone'"
        assert running.request("GET", "/api/v1/children", token=token).status == 401
    finally:
        running.stop()
    again = saessak("admin", "revoke-token", "--username", "mina", "--name", "phone", data=data, check=False)
    assert again.returncode != 0 and "no token named 'phone'" in again.stderr
