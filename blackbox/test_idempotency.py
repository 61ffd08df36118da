"""Issue 22's server half of offline drafts: a new entry sent with an Idempotency-Key is made once, whatever number of
times it is sent again (an answer lost on a bad connection); the key is the family's, for a day."""
import uuid

from conftest import new_child
from openapi_contract import check
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def post(server, token, body, key=None):
    headers = {"Idempotency-Key": key} if key is not None else None
    response = server.request("POST", "/api/v1/entries", body, token, headers=headers)
    check("POST", "/api/v1/entries", response)
    return response


def test_a_draft_sent_again_is_made_once(server):
    t = server.kim
    child = new_child(server, t)
    body = {"title": "지하철에서 쓴 일기", "body": "신호가 약했다", "date": "2026-11-22T08:10", "childIds": [child["id"]]}
    key = str(uuid.uuid4())
    first = post(server, t, body, key)
    assert first.status == 201 and "Idempotent-Replayed" not in first.headers
    for _ in range(3):
        again = post(server, t, {**body, "title": "바뀐 제목"}, key)
        assert again.status == 201 and again.headers["Idempotent-Replayed"] == "true"
        assert again.json()["id"] == first.json()["id"] and again.json()["title"] == "지하철에서 쓴 일기"
    titles = [e["title"] for e in server.request("GET", "/api/v1/entries?limit=200", token=t).json()["items"]]
    assert titles.count("지하철에서 쓴 일기") == 1 and "바뀐 제목" not in titles
    # Without a key, each request is a new entry, as before.
    assert post(server, t, body).json()["id"] != post(server, t, body).json()["id"]
    # Another family's identical key makes its own entry.
    other = new_child(server, server.lee, name="바다")
    theirs = post(server, server.lee, {**body, "childIds": [other["id"]]}, key)
    assert theirs.status == 201 and theirs.json()["id"] != first.json()["id"]


def test_a_key_whose_entry_was_deleted_is_a_conflict_and_a_bad_key_is_named(server):
    t = server.kim
    child = new_child(server, t)
    body = {"title": "지운 일기", "body": "", "date": "2026-11-22T08:10", "childIds": [child["id"]]}
    key = str(uuid.uuid4())
    made = post(server, t, body, key).json()
    assert server.request("DELETE", f"/api/v1/entries/{made['id']}", token=t).status == 204
    conflict = post(server, t, body, key)
    assert conflict.status == 409 and "deleted since" in conflict.json()["detail"]
    for bad in ("", "x" * 201, "clé", "two words"):
        refused = server.request("POST", "/api/v1/entries", body, t, headers={"Idempotency-Key": bad})
        assert refused.status == 400 and refused.json()["field"] == "Idempotency-Key", (bad, refused.body)


def test_an_edit_of_an_older_version_is_refused_and_nothing_is_overwritten(server):
    t = server.kim
    child = new_child(server, t)
    body = {"title": "처음", "body": "", "date": "2026-11-22T08:10", "childIds": [child["id"]]}
    made = post(server, t, body)
    path = f"/api/v1/entries/{made.json()['id']}"
    read = server.request("GET", path, token=t)
    check("GET", path, read)
    assert read.headers["ETag"] == made.headers["ETag"]
    # Two devices edit the version they read; the first wins, the second is told, and nothing it sent is written.
    home = server.request("PUT", path, {**body, "title": "집에서"}, t, headers={"If-Match": read.headers["ETag"]})
    check("PUT", path, home)
    assert home.status == 200 and home.headers["ETag"] != read.headers["ETag"]
    subway = server.request("PUT", path, {**body, "title": "지하철에서"}, t, headers={"If-Match": read.headers["ETag"]})
    check("PUT", path, subway)
    assert subway.status == 412 and subway.json()["field"] == "If-Match"
    assert server.request("GET", path, token=t).json()["title"] == "집에서"
    # Chosen knowingly, against the version it now is: written.
    chosen = server.request("PUT", path, {**body, "title": "지하철에서"}, t, headers={"If-Match": home.headers["ETag"]})
    assert chosen.status == 200 and chosen.json()["title"] == "지하철에서"
    for bad in ("*", "W/\"1\"", "1764000000123", "\"abc\"", "\"1\", \"2\""):
        refused = server.request("PUT", path, {**body, "title": "x"}, t, headers={"If-Match": bad})
        assert refused.status == 400 and refused.json()["field"] == "If-Match", (bad, refused.body)
    assert server.request("GET", path, token=t).json()["title"] == "지하철에서"
