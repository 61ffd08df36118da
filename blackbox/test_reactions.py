"""Issue 23: comments and hearts on entries and single photos, by every member — a grandparent (viewer) answers —
through the API, the command line and backups; each member's own to change, an owner's to tidy up."""
import json
import zipfile

import pytest

from conftest import Server, join_family, make_family, new_child, new_entry, saessak
from images import image_bytes, multipart
from openapi_contract import call

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    data = tmp_path_factory.mktemp("reactions") / "saessak-data"
    owner = make_family(data, "mom", "우리집")
    viewer = join_family(data, "grandma", "우리집", "viewer", own_family="할머니")
    editor = join_family(data, "dad", "우리집", "editor", own_family="아빠")
    other = make_family(data, "lee", "이씨네")
    running = Server(data).start()
    running.owner, running.viewer, running.editor, running.other = owner, viewer, editor, other
    yield running
    running.stop()


def test_a_grandparent_comments_and_each_member_changes_only_their_own(home):
    child = new_child(home, home.owner)
    entry = new_entry(home, home.owner, [child["id"]], title="돌잔치")
    path = f"/entries/{entry['id']}/comments"
    grandma = call(home, "POST", path, {"text": "  아이고 우리 강아지 <b>예뻐라</b>  "}, home.viewer)
    assert grandma.status == 201 and grandma.json()["text"] == "아이고 우리 강아지 <b>예뻐라</b>" and grandma.json()["authorName"] == "grandma"
    mom = call(home, "POST", path, {"text": "고마워요 어머니"}, home.owner).json()
    listed = call(home, "GET", path, token=home.editor).json()["items"]
    assert [c["id"] for c in listed] == [grandma.json()["id"], mom["id"]]
    gid = grandma.json()["id"]
    # The viewer still may not edit the diary, only their own words.
    assert call(home, "PUT", f"/entries/{entry['id']}", {**entry, "title": "x"}, home.viewer).status == 403
    assert call(home, "PUT", f"/comments/{gid}", {"text": "정말 예뻐라"}, home.viewer).json()["text"] == "정말 예뻐라"
    assert call(home, "PUT", f"/comments/{gid}", {"text": "고침"}, home.owner).status == 403
    assert call(home, "DELETE", f"/comments/{mom['id']}", token=home.viewer).status == 403
    assert call(home, "DELETE", f"/comments/{mom['id']}", token=home.editor).status == 403
    # An owner tidies up anyone's.
    assert call(home, "DELETE", f"/comments/{gid}", token=home.owner).status == 204
    assert [c["id"] for c in call(home, "GET", path, token=home.owner).json()["items"]] == [mom["id"]]
    assert call(home, "GET", f"/comments/{mom['id']}", token=home.viewer).status == 200
    # Bad text is named; another family sees nothing.
    for bad in ({"text": ""}, {"text": "   "}, {"text": "가" * 2001}, {}):
        answer = call(home, "POST", path, bad, home.viewer)
        assert answer.status in (400, 422) and answer.json().get("field") == "text", (bad, answer.body)
    assert call(home, "GET", path, token=home.other).status == 404
    assert call(home, "POST", path, {"text": "남의 집"}, home.other).status == 404
    assert call(home, "GET", f"/comments/{mom['id']}", token=home.other).status == 404
    assert call(home, "DELETE", f"/comments/{mom['id']}", token=home.other).status == 404


def test_hearts_are_one_per_member_and_say_whose(home, tmp_path):
    child = new_child(home, home.owner)
    content_type, body = multipart([("a.jpg", image_bytes(tmp_path, ".jpg", 64, 48))])
    photo = home.request("POST", "/api/v1/photos", raw=body, token=home.owner, headers={"Content-Type": content_type}).json()["items"][0]
    entry = new_entry(home, home.owner, [child["id"]], photoIds=[photo["id"]])
    for target in (f"/entries/{entry['id']}", f"/photos/{photo['id']}"):
        for _ in range(2):
            given = call(home, "PUT", f"{target}/heart", token=home.viewer).json()
            assert given == {"count": 1, "mine": True, "members": [{"id": given["members"][0]["id"], "name": "grandma"}]}
        both = call(home, "PUT", f"{target}/heart", token=home.owner).json()
        assert both["count"] == 2 and [m["name"] for m in both["members"]] == ["grandma", "mom"]
        assert call(home, "GET", f"{target}/hearts", token=home.editor).json()["mine"] is False
        assert call(home, "DELETE", f"{target}/heart", token=home.viewer).json()["count"] == 1
        assert call(home, "GET", f"{target}/hearts", token=home.other).status == 404
        assert call(home, "PUT", f"{target}/heart", token=home.other).status == 404
    on_photo = call(home, "POST", f"/photos/{photo['id']}/comments", {"text": "이 사진 최고"}, home.viewer).json()
    assert on_photo["photoId"] == photo["id"] and "entryId" not in on_photo or on_photo.get("entryId") is None
    assert [c["text"] for c in call(home, "GET", f"/photos/{photo['id']}/comments", token=home.owner).json()["items"]] == ["이 사진 최고"]


def test_the_command_line_lists_and_backups_keep_them(tmp_path):
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    try:
        child = new_child(running, token)
        entry = new_entry(running, token, [child["id"]], title="첫 걸음")
        call(running, "POST", f"/entries/{entry['id']}/comments", {"text": "드디어 걸었다!"}, token)
        call(running, "PUT", f"/entries/{entry['id']}/heart", token=token)
    finally:
        running.stop()
    listing = saessak("comments", "list", "--entry", entry["id"], data=data).stdout
    assert "mom: 드디어 걸었다!" in listing and "♥ 1  mom" in listing
    shown = json.loads(saessak("comments", "list", "--entry", entry["id"], "--json", data=data).stdout)
    assert [c["text"] for c in shown["comments"]] == ["드디어 걸었다!"] and shown["hearts"]["count"] == 1
    for args, words in ((["--entry", "nope"], "not an id"), ([], "--entry or --photo"),
                        (["--entry", "00000000-0000-0000-0000-000000000000"], "no entry")):
        result = saessak("comments", "list", *args, data=data, check=False)
        assert result.returncode != 0 and words in result.stderr, result.stderr
    archive = tmp_path / "backup.zip"
    saessak("backup", str(archive), data=data)
    with zipfile.ZipFile(archive) as zipped:
        assert len(json.loads(zipped.read("data/comments.json"))) == 1 and len(json.loads(zipped.read("data/hearts.json"))) == 1
    restored = tmp_path / "restored" / "saessak-data"
    saessak("restore", str(archive), data=restored)
    again = saessak("comments", "list", "--entry", entry["id"], data=restored).stdout
    assert again == listing


def test_what_is_new_is_what_others_wrote_until_it_is_opened(home, tmp_path):
    child = new_child(home, home.owner)
    # Whatever is new to grandma from earlier tests goes first.
    assert call(home, "POST", "/news/read", {}, home.viewer).status == 204
    content_type, body = multipart([(f"{n}.jpg", image_bytes(tmp_path, ".jpg", 40 + n, 30)) for n in range(3)])
    photos = home.request("POST", "/api/v1/photos", raw=body, token=home.owner, headers={"Content-Type": content_type}).json()["items"]
    first = new_entry(home, home.owner, [child["id"]], title="첫 소식", photoIds=[p["id"] for p in photos])
    second = new_entry(home, home.owner, [child["id"]], title="둘째 소식")
    third = new_entry(home, home.editor, [child["id"]], title="아빠 소식")
    assert first["authorId"] and first["authorId"] != third["authorId"]
    news = call(home, "GET", "/news", token=home.viewer).json()["items"]
    assert [(n["authorName"], n["entries"], n["photos"]) for n in news] == [("mom", 2, 3), ("dad", 1, 0)]
    # One's own entries are never news to oneself.
    assert [n["authorName"] for n in call(home, "GET", "/news", token=home.owner).json()["items"]] == ["dad"]
    assert call(home, "POST", "/news/read", {"entryIds": [first["id"], second["id"]]}, home.viewer).status == 204
    assert [n["authorName"] for n in call(home, "GET", "/news", token=home.viewer).json()["items"]] == ["dad"]
    assert call(home, "POST", "/news/read", {"entryIds": ["nope"]}, home.viewer).status == 422
    assert call(home, "POST", "/news/read", {}, home.viewer).status == 204
    assert call(home, "GET", "/news", token=home.viewer).json()["items"] == []
    assert call(home, "GET", "/news", token=home.other).json()["items"] == []
    assert call(home, "GET", f"/entries/{third['id']}", token=home.owner).json()["authorId"] == third["authorId"]
