"""A token of one family can neither see nor change another family's objects: always 404, never a hint."""
import pytest

from conftest import new_child, new_entry

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


@pytest.fixture(scope="module")
def lee_objects(server):
    child = new_child(server, server.lee, name="이바다")
    entry = new_entry(server, server.lee, [child["id"]])
    memo = server.request("POST", "/api/v1/memos", {"title": "이씨네 메모"}, server.lee).json()
    event = server.request("POST", "/api/v1/events", {"childId": child["id"], "title": "검진", "date": "2026-01-02"}, server.lee).json()
    anniversary = server.request("POST", "/api/v1/anniversaries", {"name": "제사", "calendar": "lunar", "month": 9, "day": 9}, server.lee).json()
    return {"children": child, "entries": entry, "memos": memo, "events": event, "anniversaries": anniversary}


PAYLOADS = {
    "children": {"name": "가로채기", "birthDate": "2020-01-01"},
    "memos": {"title": "가로채기"},
    "anniversaries": {"name": "가로채기", "month": 1, "day": 1},
}


@pytest.mark.parametrize("collection", ["children", "entries", "memos", "events", "anniversaries"])
def test_other_family_objects_are_not_found(server, lee_objects, collection):
    target = lee_objects[collection]
    path = f"/api/v1/{collection}/{target['id']}"
    assert server.request("GET", path, token=server.kim).status == 404
    listed = server.request("GET", f"/api/v1/{collection}?limit=200", token=server.kim).json()["items"]
    assert target["id"] not in {item["id"] for item in listed}
    kim_child = new_child(server, server.kim)
    payload = PAYLOADS.get(collection) or (
        {"title": "가로채기", "date": "2026-01-01T00:00", "childIds": [kim_child["id"]]} if collection == "entries"
        else {"title": "가로채기", "date": "2026-01-01", "childId": kim_child["id"]})
    assert server.request("PUT", path, payload, server.kim).status == 404
    assert server.request("DELETE", path, token=server.kim).status == 404
    # Still there, unchanged, for its own family.
    assert server.request("GET", path, token=server.lee).json() == target


def test_cannot_link_another_familys_child(server, lee_objects):
    lee_child = lee_objects["children"]["id"]
    entry = server.request("POST", "/api/v1/entries", {"title": "x", "date": "2026-01-01T00:00", "childIds": [lee_child]}, server.kim)
    assert entry.status == 422 and entry.json()["field"] == "childIds"
    event = server.request("POST", "/api/v1/events", {"childId": lee_child, "title": "x", "date": "2026-01-01"}, server.kim)
    assert event.status == 422 and event.json()["field"] == "childId"
    anniversary = server.request("POST", "/api/v1/anniversaries", {"name": "x", "month": 1, "day": 1, "childId": lee_child}, server.kim)
    assert anniversary.status == 422
    assert server.request("GET", f"/api/v1/entries?child={lee_child}", token=server.kim).json()["items"] == []


def test_unknown_and_malformed_tokens_are_401(server):
    for header in ["Bearer ssk_nope", "Basic a2ltOnB3", "Bearer", "bearer  " + server.kim + "x"]:
        response = server.request("GET", "/api/v1/children", headers={"Authorization": header})
        assert response.status == 401, header
        assert response.content_type == "application/problem+json"
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
