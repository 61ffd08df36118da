"""Issue 36: nothing a family member deletes is lost at once. A delete moves the thing to the family's trash with what
went with it; a restore puts it back exactly (compared field by field through the API); owners purge; the files stay
until nothing uses them. On both engines and both photo stores."""
import json
import re
import time

import pytest

from conftest import Server, join_family, make_family, new_child, new_entry, saessak, stored_originals
from images import image_bytes, multipart
from openapi_contract import call

pytestmark = [pytest.mark.engine, pytest.mark.photos]


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    data = tmp_path_factory.mktemp("trash") / "saessak-data"
    owner = make_family(data, "mom", "우리집")
    viewer = join_family(data, "grandma", "우리집", "viewer", own_family="할머니")
    editor = join_family(data, "dad", "우리집", "editor", own_family="아빠")
    other = make_family(data, "lee", "이씨네")
    running = Server(data).start()
    running.owner, running.viewer, running.editor, running.other = owner, viewer, editor, other
    yield running
    running.stop()


def upload(server, tmp_path, *sizes):
    files = [(f"p{i}.jpg", image_bytes(tmp_path, ".jpg", width, height)) for i, (width, height) in enumerate(sizes)]
    content_type, body = multipart(files)
    answer = server.request("POST", "/api/v1/photos", raw=body, token=server.owner, headers={"Content-Type": content_type})
    assert answer.status == 201, answer.body
    return [photo["id"] for photo in answer.json()["items"]]


def thumbnails_made(server, entry_id):
    """Waits for the worker's thumbnails, which change what the API says of a photo."""
    deadline = time.time() + 30
    while time.time() < deadline:
        items = call(server, "GET", f"/entries/{entry_id}/photos", token=server.owner).json()["items"]
        if all(photo["thumbnailsReady"] for photo in items):
            return
        time.sleep(0.1)
    raise AssertionError("thumbnails were not made within 30 s")


def everything_about(server, entry_id):
    """What the API shows of an entry and what hangs on it."""
    return {
        "entry": call(server, "GET", f"/entries/{entry_id}", token=server.owner).json(),
        "photos": call(server, "GET", f"/entries/{entry_id}/photos", token=server.owner).json(),
        "comments": call(server, "GET", f"/entries/{entry_id}/comments", token=server.owner).json(),
        "hearts": call(server, "GET", f"/entries/{entry_id}/hearts", token=server.owner).json(),
    }


def search(server, text):
    return [hit["id"] for hit in call(server, "GET", f"/search?q={text}", token=server.owner).json()["items"]]


def test_a_deleted_entry_leaves_every_list_and_comes_back_exactly(home, tmp_path):
    child = new_child(home, home.owner)
    photos = upload(home, tmp_path, (64, 48), (48, 64), (40, 40))
    entry = new_entry(home, home.owner, [child["id"]], title="휴지통 나들이", body="공원 산책을 했다", tags=["산책", "가을"], photoIds=photos)
    call(home, "POST", f"/entries/{entry['id']}/comments", {"text": "예쁘다"}, home.viewer)
    call(home, "PUT", f"/entries/{entry['id']}/heart", token=home.viewer)
    thumbnails_made(home, entry["id"])
    before = everything_about(home, entry["id"])
    files = stored_originals(home.data)

    deleted = call(home, "DELETE", f"/entries/{entry['id']}", token=home.editor)
    assert deleted.status == 204
    item_id = deleted.headers["Trash-Item"]
    assert call(home, "GET", f"/entries/{entry['id']}", token=home.owner).status == 404
    assert entry["id"] not in [e["id"] for e in call(home, "GET", "/entries", token=home.owner).json()["items"]]
    assert entry["id"] not in search(home, "휴지통")
    assert stored_originals(home.data) == files  # the trash keeps the files

    # The editor and the owner see it; the grandparent, who did not delete it, does not; nor another family.
    item = call(home, "GET", f"/trash/{item_id}", token=home.owner).json()
    assert item["kind"] == "entry" and item["itemId"] == entry["id"] and item["label"] == "휴지통 나들이"
    assert item["photoIds"] == photos and item["daysLeft"] == 30
    assert item_id in [i["id"] for i in call(home, "GET", "/trash", token=home.editor).json()["items"]]
    assert item_id not in [i["id"] for i in call(home, "GET", "/trash", token=home.viewer).json()["items"]]
    assert call(home, "GET", f"/trash/{item_id}", token=home.viewer).status == 404
    assert call(home, "GET", f"/trash/{item_id}", token=home.other).status == 404
    assert call(home, "POST", f"/trash/{item_id}/restore", token=home.viewer).status == 404
    assert call(home, "POST", f"/trash/{item_id}/restore", token=home.other).status == 404
    assert call(home, "POST", f"/trash/{item_id}/restore?withParent=maybe", token=home.editor).status == 400

    restored = call(home, "POST", f"/trash/{item_id}/restore", token=home.editor).json()
    assert [r["id"] for r in restored["restored"]] == [item_id] and restored["leftOut"] == [] and restored["shareLinks"] == 0
    after = everything_about(home, entry["id"])
    for name in before:
        assert after[name] == before[name], (name, json.dumps(before[name], ensure_ascii=False), json.dumps(after[name], ensure_ascii=False))
    assert entry["id"] in search(home, "휴지통")
    assert call(home, "GET", f"/trash/{item_id}", token=home.owner).status == 404
    assert call(home, "POST", f"/trash/{item_id}/restore", token=home.editor).status == 404


def test_a_photo_comes_back_to_its_place_and_its_entry_first_when_asked(home, tmp_path):
    child = new_child(home, home.owner)
    photos = upload(home, tmp_path, (30, 20), (20, 30), (25, 25))
    entry = new_entry(home, home.owner, [child["id"]], title="사진 셋", photoIds=photos)
    taken = call(home, "DELETE", f"/entries/{entry['id']}/photos/{photos[1]}", token=home.editor)
    assert taken.status == 204
    photo_item = taken.headers["Trash-Item"]
    assert [p["id"] for p in call(home, "GET", f"/entries/{entry['id']}/photos", token=home.owner).json()["items"]] == [photos[0], photos[2]]
    entry_item = call(home, "DELETE", f"/entries/{entry['id']}", token=home.owner).headers["Trash-Item"]
    refused = call(home, "POST", f"/trash/{photo_item}/restore", token=home.owner)
    assert refused.status == 409 and refused.json()["field"] == "parent"
    both = call(home, "POST", f"/trash/{photo_item}/restore?withParent=true", token=home.owner).json()
    assert [r["id"] for r in both["restored"]] == [entry_item, photo_item]
    assert [p["id"] for p in call(home, "GET", f"/entries/{entry['id']}/photos", token=home.owner).json()["items"]] == photos


def test_a_member_undoes_their_own_comment_and_memos_come_back(home):
    child = new_child(home, home.owner)
    entry = new_entry(home, home.owner, [child["id"]], title="댓글")
    comment = call(home, "POST", f"/entries/{entry['id']}/comments", {"text": "할머니가 왔다 감"}, home.viewer).json()
    gone = call(home, "DELETE", f"/comments/{comment['id']}", token=home.viewer)
    item_id = gone.headers["Trash-Item"]
    assert [i["id"] for i in call(home, "GET", "/trash", token=home.viewer).json()["items"]] == [item_id]
    assert call(home, "POST", f"/trash/{item_id}/restore", token=home.viewer).status == 200
    assert call(home, "GET", f"/entries/{entry['id']}/comments", token=home.owner).json()["items"] == [comment]

    memo = call(home, "POST", "/memos", {"title": "장보기", "body": "분유"}, home.editor).json()
    memo_item = call(home, "DELETE", f"/memos/{memo['id']}", token=home.editor).headers["Trash-Item"]
    assert call(home, "GET", f"/memos/{memo['id']}", token=home.owner).status == 404
    call(home, "POST", f"/trash/{memo_item}/restore", token=home.owner)
    assert call(home, "GET", f"/memos/{memo['id']}", token=home.owner).json() == memo


def test_a_share_link_stays_without_the_restored_entry_and_the_restore_says_so(home):
    child = new_child(home, home.owner)
    entry = new_entry(home, home.owner, [child["id"]], title="링크에 있던 날")
    link = call(home, "POST", "/share-links", {"entryIds": [entry["id"]]}, home.owner).json()
    item_id = call(home, "DELETE", f"/entries/{entry['id']}", token=home.owner).headers["Trash-Item"]
    assert call(home, "GET", f"/trash/{item_id}", token=home.owner).json()["shareLinks"] == 1
    assert call(home, "POST", f"/trash/{item_id}/restore", token=home.owner).json()["shareLinks"] == 1
    page = home.request("GET", re.sub(r"^http://[^/]+", "", link["url"]))
    assert page.status in (200, 404) and "링크에 있던 날" not in page.body.decode()


def test_only_owners_purge_and_files_go_when_nothing_uses_them(home, tmp_path):
    child = new_child(home, home.owner)
    photos = upload(home, tmp_path, (33, 17))
    entry = new_entry(home, home.owner, [child["id"]], title="지울 것", photoIds=photos)
    files = set(stored_originals(home.data))
    item_id = call(home, "DELETE", f"/entries/{entry['id']}", token=home.owner).headers["Trash-Item"]
    assert call(home, "DELETE", f"/trash/{item_id}", token=home.editor).status == 403
    assert call(home, "DELETE", "/trash", token=home.editor).status == 403
    assert call(home, "DELETE", f"/trash/{item_id}", token=home.other).status == 404
    assert call(home, "DELETE", f"/trash/{item_id}", token=home.owner).status == 204
    assert len(files - set(stored_originals(home.data))) == 1
    assert call(home, "GET", f"/trash/{item_id}", token=home.owner).status == 404

    memo = call(home, "POST", "/memos", {"title": "비울 것"}, home.owner).json()
    call(home, "DELETE", f"/memos/{memo['id']}", token=home.owner)
    assert call(home, "DELETE", "/trash", token=home.owner).status == 204
    assert call(home, "GET", "/trash", token=home.owner).json()["items"] == []


def test_owners_choose_how_long_the_trash_keeps_things(home):
    assert call(home, "GET", "/trash/settings", token=home.viewer).json() == {"days": 30}
    assert call(home, "PUT", "/trash/settings", {"days": 7}, home.editor).status == 403
    for bad in ({"days": 6}, {"days": 366}):
        refused = call(home, "PUT", "/trash/settings", bad, home.owner)
        assert refused.status == 422 and refused.json()["field"] == "days"
    assert call(home, "PUT", "/trash/settings", {"days": 7}, home.owner).json() == {"days": 7}
    memo = call(home, "POST", "/memos", {"title": "한 주"}, home.owner).json()
    item_id = call(home, "DELETE", f"/memos/{memo['id']}", token=home.owner).headers["Trash-Item"]
    assert call(home, "GET", f"/trash/{item_id}", token=home.owner).json()["daysLeft"] == 7
    assert call(home, "PUT", "/trash/settings", {"days": 30}, home.owner).json() == {"days": 30}


def test_the_command_line_lists_restores_and_empties_the_trash(home):
    memo = call(home, "POST", "/memos", {"title": "명령줄 메모"}, home.owner).json()
    moved = saessak("memos", "rm", memo["id"], "--family", "우리집", data=home.data).stdout
    item_id = moved.strip().split()[-1]
    listed = json.loads(saessak("trash", "list", "--family", "우리집", "--json", data=home.data).stdout)["items"]
    assert [i["label"] for i in listed if i["id"] == item_id] == ["명령줄 메모"]
    assert "restored memo" in saessak("trash", "restore", item_id, "--family", "우리집", data=home.data).stdout
    assert call(home, "GET", f"/memos/{memo['id']}", token=home.owner).json()["title"] == "명령줄 메모"
    refused = saessak("trash", "restore", "not-an-id", "--family", "우리집", data=home.data, check=False)
    assert refused.returncode != 0 and "is not a trash item id" in refused.stderr
    saessak("memos", "rm", memo["id"], "--family", "우리집", data=home.data)
    saessak("trash", "empty", "--family", "우리집", data=home.data)
    assert json.loads(saessak("trash", "list", "--family", "우리집", "--json", data=home.data).stdout)["items"] == []


def test_a_child_goes_with_what_was_only_theirs_and_comes_back_even_from_a_backup(home, tmp_path):
    """A child (resident number, an entry only about them, a visit with a photo, a measurement, a dose, an anniversary)
    to the trash; a backup carries it there (the number sealed again under the new folder's key, or left out); the
    restored folder puts the child back whole."""
    number = "240229-4123456"
    child = call(home, "POST", "/children", {"name": "휴지통 아이", "birthDate": "2024-02-29", "residentNumber": number}, home.owner).json()
    sibling = new_child(home, home.owner, name="형")
    photo = upload(home, tmp_path, (31, 19))[0]
    alone = new_entry(home, home.owner, [child["id"]], title="혼자 쓴 날", tags=["혼자"])
    shared = new_entry(home, home.owner, [child["id"], sibling["id"]], title="둘이 쓴 날")
    visit = call(home, "POST", "/events", {"childId": child["id"], "kind": "hospital", "title": "영유아 검진", "date": "2025-03-01",
                                           "photoIds": [photo]}, home.owner).json()
    weight = call(home, "POST", f"/children/{child['id']}/measurements", {"kind": "weight", "value": 9.5, "unit": "kg", "date": "2025-03-01"},
                  home.owner).json()
    dose = call(home, "POST", f"/children/{child['id']}/vaccinations", {"product": "bcg", "date": "2024-03-20"}, home.owner).json()
    day = call(home, "POST", "/anniversaries", {"name": "아이 기념일", "calendar": "solar", "month": 5, "day": 5, "childId": child["id"]},
               home.owner).json()
    before = {path: call(home, "GET", path, token=home.owner).json() for path in (
        f"/children/{child['id']}", f"/entries/{alone['id']}", f"/entries/{shared['id']}", f"/events/{visit['id']}",
        f"/anniversaries/{day['id']}", f"/children/{child['id']}/growth", f"/children/{child['id']}/vaccinations")}

    # Each of the child's things alone goes to the trash and back.
    for path, parent in ((f"/events/{visit['id']}", None), (f"/anniversaries/{day['id']}", None),
                         (f"/children/{child['id']}/measurements/{weight['id']}", None), (f"/children/{child['id']}/vaccinations/{dose['id']}", None)):
        item = call(home, "DELETE", path, token=home.editor).headers["Trash-Item"]
        assert call(home, "GET", f"/trash/{item}", token=home.owner).json()["parent"] == {"kind": "child", "id": child["id"]}
        assert call(home, "POST", f"/trash/{item}/restore", token=home.editor).status == 200

    item = call(home, "DELETE", f"/children/{child['id']}", token=home.owner).headers["Trash-Item"]
    listed = call(home, "GET", f"/trash/{item}", token=home.owner).json()
    assert listed["kind"] == "child" and listed["label"] == "휴지통 아이" and listed["photoIds"] == [photo]
    assert call(home, "GET", f"/children/{child['id']}", token=home.owner).status == 404
    assert call(home, "GET", f"/entries/{alone['id']}", token=home.owner).status == 404
    assert call(home, "GET", f"/entries/{shared['id']}", token=home.owner).json()["childIds"] == [sibling["id"]]
    assert call(home, "GET", f"/events/{visit['id']}", token=home.owner).status == 404

    for sensitive, expected in ((True, number), (False, None)):
        archive = tmp_path / f"with-{sensitive}.zip"
        saessak("backup", str(archive), *(["--include-sensitive"] if sensitive else []), data=home.data)
        elsewhere = tmp_path / f"elsewhere-{sensitive}" / "saessak-data"
        saessak("restore", str(archive), data=elsewhere)
        token = saessak("admin", "create-token", "--username", "mom", "--family", "우리집", data=elsewhere).stdout.strip()
        there = Server(elsewhere).start()
        try:
            restored = there.request("POST", f"/api/v1/trash/{item}/restore", token=token)
            assert restored.status == 200, restored.body
            for path, answer in before.items():
                if "/children/" in path and path.count("/") == 2 and not expected:
                    answer = {key: value for key, value in answer.items() if key != "residentNumber"}  # left out of the backup
                assert there.request("GET", "/api/v1" + path, token=token).json() == answer, path
            revealed = there.request("GET", f"/api/v1/children/{child['id']}/resident-number", token=token).json()
            assert revealed == {"residentNumber": expected}
        finally:
            there.stop()

    restored = call(home, "POST", f"/trash/{item}/restore", token=home.owner).json()
    assert [r["kind"] for r in restored["restored"]] == ["child"] and restored["leftOut"] == []
    for path, answer in before.items():
        assert call(home, "GET", path, token=home.owner).json() == answer, path
    assert call(home, "GET", f"/children/{child['id']}/resident-number", token=home.owner).json() == {"residentNumber": number}
    assert alone["id"] in search(home, "혼자")


def test_every_edit_keeps_the_version_it_replaced_and_one_comes_back(home, tmp_path):
    child = new_child(home, home.owner)
    photos = upload(home, tmp_path, (44, 22), (22, 44))
    entry = new_entry(home, home.owner, [child["id"]], title="처음 제목", body="할머니가 쓴 문단", photoIds=photos)
    assert call(home, "GET", f"/entries/{entry['id']}/versions", token=home.editor).json()["items"] == []
    edited = call(home, "PUT", f"/entries/{entry['id']}", {"title": "고친 제목", "body": "덮어쓴 문단", "date": entry["date"],
                                                          "childIds": [child["id"]]}, home.editor).json()
    assert edited["title"] == "고친 제목" and edited["photoIds"] == photos
    call(home, "PUT", f"/entries/{entry['id']}/photos", {"photoIds": [photos[1]]}, home.editor)
    versions = call(home, "GET", f"/entries/{entry['id']}/versions", token=home.editor).json()["items"]
    assert [v["number"] for v in versions] == [2, 1]
    # Versions are the editors' and owners': what an edit took out (a resident number in the text) is not a
    # viewer's to read (issue 66).
    assert call(home, "GET", f"/entries/{entry['id']}/versions", token=home.viewer).status == 403
    assert versions[1]["title"] == "처음 제목" and versions[1]["body"] == "할머니가 쓴 문단" and versions[1]["photoIds"] == photos
    assert versions[0]["title"] == "고친 제목" and versions[0]["photoIds"] == photos and versions[0]["savedByName"] == "dad"
    # Only editors and owners put one back; another family sees nothing; a number that is not one is 404.
    assert call(home, "POST", f"/entries/{entry['id']}/versions/1/restore", token=home.viewer).status == 403
    assert call(home, "GET", f"/entries/{entry['id']}/versions", token=home.other).status == 404
    assert call(home, "POST", f"/entries/{entry['id']}/versions/1/restore", token=home.other).status == 404
    for bad in ("0", "9", "x"):
        assert call(home, "POST", f"/entries/{entry['id']}/versions/{bad}/restore", token=home.owner).status == 404
    back = call(home, "POST", f"/entries/{entry['id']}/versions/1/restore", token=home.owner).json()
    assert back["title"] == "처음 제목" and back["body"] == "할머니가 쓴 문단" and back["photoIds"] == photos
    assert [v["number"] for v in call(home, "GET", f"/entries/{entry['id']}/versions", token=home.owner).json()["items"]] == [3, 2, 1]
    listed = json.loads(saessak("entries", "versions", entry["id"], "--family", "우리집", "--json", data=home.data).stdout)["items"]
    assert [v["title"] for v in listed] == ["고친 제목", "고친 제목", "처음 제목"]
    assert "not an entry id" in saessak("entries", "versions", "nope", "--family", "우리집", data=home.data, check=False).stderr
    # An owner deletes one for good (what an edit took out is then nowhere, issue 66); editors and others may not.
    assert call(home, "DELETE", f"/entries/{entry['id']}/versions/2", token=home.editor).status == 403
    assert call(home, "DELETE", f"/entries/{entry['id']}/versions/2", token=home.other).status == 404
    assert call(home, "DELETE", f"/entries/{entry['id']}/versions/9", token=home.owner).status == 404
    assert call(home, "DELETE", f"/entries/{entry['id']}/versions/2", token=home.owner).status == 204
    left = call(home, "GET", f"/entries/{entry['id']}/versions", token=home.owner).json()["items"]
    assert [v["number"] for v in left] == [3, 1]
    # The same from the version's page, for owners only.
    from browser import Browser
    mom = Browser(home)
    assert mom.sign_in("mom", "a long password").status == 303
    page = mom.request("GET", f"/entries/{entry['id']}/versions/1")
    assert "이 판을 영구히 지우기" in page.text
    purged = mom.request("POST", f"/entries/{entry['id']}/versions/1/purge", form={"_csrf": mom.csrf(f"/entries/{entry['id']}/versions/1")})
    assert purged.status == 303 and purged.getheader("Location") == f"/entries/{entry['id']}/versions"
    assert [v["number"] for v in call(home, "GET", f"/entries/{entry['id']}/versions", token=home.owner).json()["items"]] == [3]
