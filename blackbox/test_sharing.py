"""Invitations into a family and read-only share links, through the real server."""
import re

import pytest

from browser import Browser
from conftest import Server, execute_sql, make_family, saessak
from images import image
from test_api_contract import call
from test_photos import upload

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

PASSWORD = "a long password"


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    data = tmp_path_factory.mktemp("sharing") / "data"
    owner = make_family(data, "mom", "우리집")
    make_family(data, "dad", "dad")
    make_family(data, "aunt", "이모네")
    saessak("admin", "add-member", "--username", "dad", "--family", "우리집", "--role", "editor", data=data)
    editor = saessak("admin", "create-token", "--username", "dad", "--family", "우리집", data=data).stdout.strip()
    running = Server(data).start()
    running.owner, running.editor = owner, editor
    yield running
    running.stop()


def expire(server, table, item_id):
    execute_sql(server.data, f"UPDATE {table} SET expiresAt = '2000-01-01 00:00:00.000' WHERE id = ?", item_id)


def test_an_invitation_adds_one_person_once(family):
    assert call(family, "POST", "/invitations", {"role": "viewer"}, family.editor).status == 403
    made = call(family, "POST", "/invitations", {"role": "viewer", "expiresInDays": 3}, family.owner)
    assert made.status == 201
    invitation = made.json()
    path = re.sub(r"^http://[^/]+", "", invitation["url"])
    assert path.startswith("/invite/ssk_") and invitation["role"] == "viewer"
    grandma = Browser(family)
    page = grandma.request("GET", path)
    assert page.status == 200 and "우리집" in page.text
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    assert grandma.request("POST", path, form={"username": "grandma", "password": PASSWORD}).status == 403
    short = grandma.request("POST", path, form={"_csrf": csrf, "username": "grandma", "password": "short"})
    assert short.status == 422
    joined = grandma.request("POST", path, form={"_csrf": csrf, "username": "grandma", "password": PASSWORD})
    assert joined.status == 303 and "saessak_session" in grandma.cookies
    assert grandma.request("GET", "/api/v1/children").status == 200
    token = grandma.csrf("/settings")
    assert grandma.request("POST", "/api/v1/memos", body={"title": "x"}, headers={"X-CSRF-Token": token}).status == 403
    # Used: gone for everybody.
    assert Browser(family).request("GET", path).status == 404
    listed = call(family, "GET", "/invitations", token=family.owner).json()["items"]
    assert "acceptedAt" in next(i for i in listed if i["id"] == invitation["id"])


def test_a_signed_in_user_joins_a_second_family_and_switches_to_it(family):
    invitation = call(family, "POST", "/invitations", {"role": "editor"}, family.owner).json()
    path = re.sub(r"^http://[^/]+", "", invitation["url"])
    aunt = Browser(family)
    aunt.sign_in("aunt", PASSWORD)
    page = aunt.request("GET", path)
    assert 'name="password"' not in page.text
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    assert aunt.request("POST", path, form={"_csrf": csrf}).status == 303
    import json
    account = json.loads(aunt.request("GET", "/api/v1/account").text)
    assert account["role"] == "editor" and len(account["families"]) == 2


def test_expired_and_revoked_invitations_do_not_open(family):
    expired = call(family, "POST", "/invitations", {"role": "viewer"}, family.owner).json()
    expire(family, "invitations", expired["id"])
    assert Browser(family).request("GET", re.sub(r"^http://[^/]+", "", expired["url"])).status == 404
    revoked = call(family, "POST", "/invitations", {"role": "viewer"}, family.owner).json()
    assert call(family, "DELETE", f"/invitations/{revoked['id']}", token=family.owner).status == 204
    assert Browser(family).request("GET", re.sub(r"^http://[^/]+", "", revoked["url"])).status == 404
    assert call(family, "POST", "/invitations", {"role": "viewer", "expiresInDays": 31}, family.owner).status == 422
    assert call(family, "POST", "/invitations", {"role": "admin"}, family.owner).status in (400, 422)


def test_a_share_link_shows_only_what_was_shared(family, tmp_path):
    child = call(family, "POST", "/children", {"name": "비밀이름", "birthDate": "2025-01-01", "residentNumber": "250101-3123456"}, family.owner).json()
    photo_a, photo_b = (upload(family, family.owner, [(f"{n}.jpg", image(tmp_path, ".jpg", width=w).read_bytes())]).json()["items"][0]["id"]
                        for n, w in (("a", 640), ("b", 320)))
    assert photo_a != photo_b
    shared = call(family, "POST", "/entries", {"title": "<script>alert(1)</script> 첫 걸음", "body": "아기가 걸었어요",
                                               "date": "2026-11-22T09:30", "childIds": [child["id"]], "photoIds": [photo_a]}, family.owner).json()
    private = call(family, "POST", "/entries", {"title": "비공개 일기", "body": "x", "date": "2026-11-21T09:30",
                                                "childIds": [child["id"]], "photoIds": [photo_b]}, family.owner).json()
    assert call(family, "POST", "/share-links", {"entryIds": [shared["id"]]}, family.editor).status == 201
    made = call(family, "POST", "/share-links", {"entryIds": [shared["id"]], "label": "할머니께", "expiresInDays": 7}, family.owner)
    link = made.json()
    path = re.sub(r"^http://[^/]+", "", link["url"])
    visitor = Browser(family)
    page = visitor.request("GET", path)
    assert page.status == 200
    assert "&lt;script&gt;alert(1)&lt;/script&gt; 첫 걸음" in page.text and "<script>alert" not in page.text
    assert "2026년 11월 22일 일요일" in page.text and "할머니께" in page.text
    assert "비공개 일기" not in page.text and "비밀이름" not in page.text and "250101" not in page.text
    assert visitor.request("GET", f"{path}/photos/{photo_a}").status == 200
    assert visitor.request("GET", f"{path}/photos/{photo_b}").status == 404
    # The link opens nothing else: the API and the family's pages still want a sign-in.
    assert visitor.request("GET", f"/api/v1/entries/{private['id']}").status == 401
    assert visitor.request("GET", f"/api/v1/photos/{photo_a}/thumbnail").status == 401
    # The log has the visits, never the link's secret.
    secret = path.split("/")[-1]
    log = b"".join(f.read_bytes() for f in family.data.parent.glob("server-*.log"))
    assert b"GET /s/\xe2\x80\xa6 200" in log and secret.encode() not in log
    # Revoked: gone at once, photos too.
    assert call(family, "DELETE", f"/share-links/{link['id']}", token=family.editor).status == 204
    assert visitor.request("GET", path).status == 404
    assert visitor.request("GET", f"{path}/photos/{photo_a}").status == 404


def test_share_links_are_checked_and_expire(family):
    entry = call(family, "POST", "/entries", {"title": "e", "body": "", "date": "2026-11-22T09:30", "childIds": []}, family.owner)
    if entry.status != 201:
        child = call(family, "POST", "/children", {"name": "c", "birthDate": "2025-01-01"}, family.owner).json()
        entry = call(family, "POST", "/entries", {"title": "e", "date": "2026-11-22T09:30", "childIds": [child["id"]]}, family.owner)
    entry = entry.json()
    assert call(family, "POST", "/share-links", {"entryIds": []}, family.owner).status == 422
    assert call(family, "POST", "/share-links", {"entryIds": ["00000000-0000-4000-8000-000000000000"]}, family.owner).status == 422
    assert call(family, "POST", "/share-links", {"entryIds": [entry["id"]], "expiresInDays": 0}, family.owner).status == 422
    link = call(family, "POST", "/share-links", {"entryIds": [entry["id"]]}, family.owner).json()
    assert link["id"] in [l["id"] for l in call(family, "GET", "/share-links", token=family.owner).json()["items"]]
    expire(family, "shareLinks", link["id"])
    gone = Browser(family).request("GET", re.sub(r"^http://[^/]+", "", link["url"]))
    # A person sees a page in their language, not JSON.
    assert gone.status == 404 and gone.getheader("Content-Type").startswith("text/html")
    assert "이 링크는 만료되었거나 더 이상 쓸 수 없습니다" in gone.text
    english = Browser(family, headers={"Accept-Language": "en"}).request("GET", re.sub(r"^http://[^/]+", "", link["url"]))
    assert "Not found" in english.text and "This link has expired" in english.text
    # Deleting the entry empties the link; another family's link ID is 404.
    other = make_family(family.data, "stranger", "남의집")
    assert call(family, "DELETE", f"/share-links/{link['id']}", token=other).status == 404
