"""Issue 36, the record of who did what: every kind of change a member makes through the API or the pages is a line
of the family's activity, with who, what and a few words — and never a password, a token or a resident number.
Owners see everyone's and filter by member, kind and month; the other members see their own. Owners change roles and
take members out (never the last owner). Lines older than a year go; the record travels in backups. Both engines."""
import re
import sqlite3
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from browser import Browser
from conftest import ENGINE, Server, execute_sql, join_family, make_family, new_child, new_entry, saessak
from openapi_contract import call

pytestmark = [pytest.mark.engine]

PASSWORD = "a long password"  # what make_family sets
RESIDENT_NUMBER = "250301-4123456"


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    data = tmp_path_factory.mktemp("activity") / "saessak-data"
    owner = make_family(data, "mom", "우리집")
    editor = join_family(data, "dad", "우리집", "editor", own_family="아빠")
    make_family(data, "lee", "이씨네")
    running = Server(data).start()
    running.owner, running.editor = owner, editor
    yield running
    running.stop()


def lines(server, token, query=""):
    answer = call(server, "GET", "/activity" + query, token=token)
    assert answer.status == 200, answer.body
    return answer.json()["items"]


def has(found, actor, action, kind, label=None, detail=None):
    return any(line.get("actor") == actor and line["action"] == action and line["kind"] == kind
               and (label is None or line["label"] == label) and (detail is None or line["detail"] == detail) for line in found)


def test_every_change_is_a_line_with_who_and_what(home):
    child = new_child(home, home.owner, name="하늘", residentNumber=RESIDENT_NUMBER)
    entry = new_entry(home, home.editor, [child["id"]], title="첫 걸음마", body="거실에서 세 걸음")
    edited = {key: entry[key] for key in ("title", "date", "childIds", "tags", "photoIds")}
    assert call(home, "PUT", f"/entries/{entry['id']}", {**edited, "body": "거실에서 네 걸음"}, home.editor).status == 200
    assert call(home, "POST", f"/entries/{entry['id']}/versions/1/restore", token=home.editor).status == 200
    comment = call(home, "POST", f"/entries/{entry['id']}/comments", {"text": "장하다 우리 아기"}, home.owner).json()
    memo = call(home, "POST", "/memos", {"title": "기저귀 3단계", "body": "다음 주"}, home.owner).json()
    deleted = call(home, "DELETE", f"/memos/{memo['id']}", token=home.owner)
    assert deleted.status == 204
    trash_item = deleted.headers["Trash-Item"]
    assert call(home, "POST", f"/trash/{trash_item}/restore", token=home.editor).status == 200
    again = call(home, "DELETE", f"/memos/{memo['id']}", token=home.owner).headers["Trash-Item"]
    assert call(home, "DELETE", f"/trash/{again}", token=home.owner).status == 204
    assert call(home, "DELETE", f"/comments/{comment['id']}", token=home.owner).status == 204
    assert call(home, "DELETE", "/trash", token=home.owner).status == 204
    made = call(home, "POST", "/tokens", {"name": "거실 액자", "role": "viewer"}, home.owner).json()
    link = call(home, "POST", "/share-links", {"entryIds": [entry["id"]], "label": "할머니께"}, home.editor).json()
    assert call(home, "DELETE", f"/share-links/{link['id']}", token=home.editor).status == 204
    invitation = call(home, "POST", "/invitations", {"role": "viewer"}, home.owner).json()

    found = lines(home, home.owner)
    for actor, action, kind, label in [
        ("mom", "created", "child", "하늘"), ("dad", "created", "entry", "첫 걸음마"), ("dad", "edited", "entry", "첫 걸음마"),
        ("mom", "created", "comment", "장하다 우리 아기"), ("mom", "created", "memo", "기저귀 3단계"),
        ("mom", "deleted", "memo", "기저귀 3단계"), ("dad", "restored", "memo", "기저귀 3단계"),
        ("mom", "purged", "memo", "기저귀 3단계"), ("mom", "deleted", "comment", "장하다 우리 아기"), ("mom", "purged", "trash", ""),
        ("mom", "created", "token", "거실 액자"), ("dad", "created", "shareLink", "할머니께"), ("dad", "revoked", "shareLink", ""),
        ("mom", "invited", "invitation", "viewer"),
    ]:
        assert has(found, actor, action, kind, label), (actor, action, kind, label, found)
    assert has(found, "dad", "restored", "entry", "첫 걸음마", "version 1")
    assert has(found, "mom", "created", "token", detail="viewer")
    # Newest first, each with its subject.
    times = [line["at"] for line in found]
    assert times == sorted(times, reverse=True)
    assert next(line for line in found if line["action"] == "created" and line["kind"] == "entry")["subjectId"] == entry["id"]
    # Never a secret: not the token made, not the invitation's or the link's secret, not the resident number.
    text = str(found)
    for secret in (made["token"], invitation["url"].rsplit("/", 1)[1], link["url"].rsplit("/", 1)[1], RESIDENT_NUMBER, "4123456",
                   PASSWORD, home.owner):
        assert secret not in text
    assert not any(secret in dump for dump in table_dump(home.data) for secret in (made["token"], RESIDENT_NUMBER, PASSWORD))


def table_dump(data):
    """Every value of the activity table as text."""
    if ENGINE == "postgres":
        from conftest import _psql
        _, out = _psql(data, "SELECT id, actorId, at, action, kind, subjectId, label, detail FROM activity")
        return [out]
    with sqlite3.connect(Path(data) / "saessak.sqlite") as db:
        return [" ".join(str(value) for value in row) for row in db.execute("SELECT * FROM activity")]


def test_filters_and_who_sees_what(home):
    entry = new_entry(home, home.editor, [new_child(home, home.owner)["id"]], title="필터 시험")
    assert all(line["kind"] == "entry" for line in lines(home, home.owner, "?kind=entry"))
    assert all(line.get("actor") == "dad" for line in lines(home, home.owner, "?member=DAD"))
    assert has(lines(home, home.owner, "?member=dad&kind=entry"), "dad", "created", "entry", "필터 시험")
    now = datetime.now(timezone(timedelta(hours=9)))
    assert has(lines(home, home.owner, f"?month={now:%Y-%m}"), "dad", "created", "entry", "필터 시험")
    assert lines(home, home.owner, f"?month={now.year - 3}-01") == []
    # An editor sees their own lines only, and may not ask for another member's.
    own = lines(home, home.editor)
    assert own and all(line.get("actor") == "dad" for line in own)
    assert call(home, "GET", "/activity?member=mom", token=home.editor).status == 403
    # Another family sees none of it.
    lee = saessak("admin", "create-token", "--username", "lee", data=home.data).stdout.strip()
    assert all(line.get("actor") == "lee" for line in lines(home, lee))
    assert not any(line.get("subjectId") == entry["id"] for line in lines(home, lee))
    for bad, field in (("?kind=everything", "kind"), ("?month=2026-13", "month"), ("?month=november", "month"),
                       ("?limit=0", "limit"), ("?cursor=nonsense", "cursor")):
        answer = call(home, "GET", "/activity" + bad, token=home.owner)
        assert answer.status == 400 and field in answer.body.decode(), (bad, answer.body)


def test_pages_of_the_record_follow_one_another(home):
    child = new_child(home, home.owner)
    for number in range(5):
        new_entry(home, home.owner, [child["id"]], title=f"쪽 {number}")
    first = call(home, "GET", "/activity?limit=3&kind=entry", token=home.owner).json()
    second = call(home, "GET", f"/activity?limit=3&kind=entry&cursor={first['next']}", token=home.owner).json()
    assert len(first["items"]) == 3 and second["items"]
    assert not {line["id"] for line in first["items"]} & {line["id"] for line in second["items"]}
    assert first["items"][-1]["at"] >= second["items"][0]["at"]


def test_owners_change_roles_and_take_members_out_never_the_last_owner(tmp_path):
    data = tmp_path / "members"
    owner = make_family(data, "mom", "우리집")
    aunt = join_family(data, "aunt", "우리집", "viewer", own_family="이모네")
    server = Server(data).start()
    try:
        members = call(server, "GET", "/members", token=owner).json()["items"]
        assert {(m["username"], m["role"]) for m in members} == {("mom", "owner"), ("aunt", "viewer")}
        assert call(server, "PUT", "/members/aunt", {"role": "editor"}, aunt).status == 403
        changed = call(server, "PUT", "/members/Aunt", {"role": "editor"}, owner)
        assert changed.status == 200 and changed.json() == {"username": "aunt", "role": "editor"}
        assert call(server, "POST", "/memos", {"title": "이모가 씀"}, aunt).status == 201
        assert call(server, "PUT", "/members/mom", {"role": "viewer"}, owner).status == 409
        assert call(server, "DELETE", "/members/mom", token=owner).status == 409
        assert call(server, "PUT", "/members/nobody", {"role": "viewer"}, owner).status == 404
        assert call(server, "PUT", "/members/aunt", {"role": "king"}, owner).status == 422
        assert call(server, "DELETE", "/members/aunt", token=owner).status == 204
        # Out at once: the token of the family stops, the memo stays the family's.
        assert server.request("GET", "/api/v1/memos", token=aunt).status in (401, 403)
        assert any(memo["title"] == "이모가 씀" for memo in call(server, "GET", "/memos", token=owner).json()["items"])
        found = lines(server, owner)
        assert has(found, "mom", "roleChanged", "member", "aunt", "viewer>editor")
        assert has(found, "mom", "removed", "member", "aunt")
        # The lines she made stay; her name does too while her account exists.
        assert has(found, "aunt", "created", "memo", "이모가 씀")
        # A family backup leaves her account out: her lines come back without a name, and restore cleanly.
        backup = tmp_path / "family.zip"
        saessak("backup", "--family", "우리집", str(backup), data=data)
    finally:
        server.stop()
    restored = tmp_path / "restored"
    saessak("restore", str(backup), data=restored)
    token = saessak("admin", "create-token", "--username", "mom", data=restored).stdout.strip()
    again = Server(restored).start()
    try:
        after = lines(again, token)
        assert [(l["id"], l["action"], l["kind"], l["label"]) for l in after] == [(l["id"], l["action"], l["kind"], l["label"]) for l in found]
        assert next(l for l in after if l["kind"] == "memo").get("actor") is None
    finally:
        again.stop()


def test_joining_signing_in_on_a_new_device_and_downloading_a_backup_are_lines(home):
    invitation = call(home, "POST", "/invitations", {"role": "viewer"}, home.owner).json()
    path = re.sub(r"^http://[^/]+", "", invitation["url"])
    grandma = Browser(home, headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"})
    page = grandma.request("GET", path)
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    assert grandma.request("POST", path, form={"_csrf": csrf, "username": "grandma", "password": PASSWORD}).status == 303
    assert has(lines(home, home.owner), "grandma", "joined", "member", "grandma", "viewer")
    # Her phone signs in: new. Again, with its device cookie: not new. Another browser: new.
    grandma.request("POST", "/logout", form={"_csrf": grandma.csrf("/settings")})
    assert grandma.sign_in("grandma", PASSWORD).status == 303
    assert "saessak_device" in grandma.cookies
    grandma.request("POST", "/logout", form={"_csrf": grandma.csrf("/settings")})
    assert grandma.sign_in("grandma", PASSWORD).status == 303
    laptop = Browser(home, headers={"User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"})
    assert laptop.sign_in("grandma", PASSWORD).status == 303
    signed_in = [line for line in lines(home, home.owner, "?member=grandma&kind=device")]
    assert [line["label"] for line in signed_in] == ["Firefox · Windows", "Chrome · Android"]
    # Her own lines are what she sees.
    own = Browser(home)
    own.cookies = dict(laptop.cookies)
    mine = own.request("GET", "/api/v1/activity")
    assert mine.status == 200 and all(line.get("actor") == "grandma" for line in __import__("json").loads(mine.text)["items"])
    # The owner downloads a backup with resident numbers: said so.
    mom = Browser(home)
    assert mom.sign_in("mom", PASSWORD).status == 303
    assert mom.request("GET", "/settings/backup.zip?sensitive=true").status == 200
    assert has(lines(home, home.owner, "?kind=backup"), "mom", "downloaded", "backup", detail="sensitive")


def test_the_activity_page_in_korean_and_english_and_the_members_forms(home):
    mom = Browser(home)
    assert mom.sign_in("mom", PASSWORD).status == 303
    korean = mom.request("GET", "/activity?lang=ko")
    assert korean.status == 200 and "활동 기록" in korean.text and "첫 걸음마" in korean.text and "만듦" in korean.text
    english = mom.request("GET", "/activity?kind=entry&lang=en")
    assert english.status == 200 and "Activity" in english.text and "created" in english.text
    assert "기저귀" not in english.text  # only entries
    assert mom.request("GET", "/activity?kind=everything").status == 400
    settings = mom.request("GET", "/settings")
    assert 'action="/settings/members/dad/role"' in settings.text
    csrf = mom.csrf("/settings")
    assert mom.request("POST", "/settings/members/dad/role", form={"_csrf": csrf, "role": "viewer"}).status == 303
    assert call(home, "POST", "/memos", {"title": "x"}, home.editor).status == 403
    assert mom.request("POST", "/settings/members/dad/role", form={"_csrf": csrf, "role": "editor"}).status == 303
    confirm = mom.request("GET", "/settings/members/grandma/remove")
    assert confirm.status == 200 and "grandma" in confirm.text
    assert mom.request("POST", "/settings/members/grandma/remove", form={"_csrf": csrf}).status == 303
    assert not any(m["username"] == "grandma" for m in call(home, "GET", "/members", token=home.owner).json()["items"])
    # A member who is not an owner sees only their own, with no member filter.
    dad = Browser(home)
    assert dad.sign_in("dad", PASSWORD).status == 303
    family = call(home, "GET", "/account", token=home.owner).json()["familyId"]
    assert dad.request("POST", "/account/family", form={"_csrf": dad.csrf("/settings"), "familyId": family}).status == 303
    page = dad.request("GET", "/activity")
    assert page.status == 200 and 'name="member"' not in page.text and "첫 걸음마" in page.text and "하늘" not in page.text
    assert dad.request("POST", "/settings/members/mom/role", form={"_csrf": dad.csrf("/settings"), "role": "viewer"}).status == 403


def test_lines_older_than_a_year_go(home):
    old = (datetime.now(timezone.utc) - timedelta(days=366)).strftime("%Y-%m-%d %H:%M:%S.000")
    recent = (datetime.now(timezone.utc) - timedelta(days=364)).strftime("%Y-%m-%d %H:%M:%S.000")
    family = call(home, "GET", "/account", token=home.owner).json()["familyId"]
    for line_id, at in (("00000000-0000-4000-8000-000000000001", old), ("00000000-0000-4000-8000-000000000002", recent)):
        execute_sql(home.data, "INSERT INTO activity (id, familyId, actorId, at, action, kind, subjectId, label, detail) "
                    "VALUES (?, ?, NULL, ?, 'created', 'memo', NULL, ?, '')", line_id, family, at, "오래된 " + line_id[-1])
    home.stop()
    home.start()  # the sweep runs at start, beside the server answering: wait for it a while
    deadline = time.monotonic() + 20
    while True:
        labels = [line["label"] for line in lines(home, home.owner, "?kind=memo&limit=200")]
        if "오래된 1" not in labels or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert "오래된 2" in labels and "오래된 1" not in labels
