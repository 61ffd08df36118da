"""Issue 35: what a page costs the database, counted. A server started with `--count-statements` says in each
response how many SQL statements the request ran (`Saessak-Statements`, sign-in and transaction framing included) and,
for a read route, the budget declared beside the route (`Saessak-Statement-Budget`). Every page and API list route
is asked for by a small family (two entries) and a large one (a full page of entries, each with a photo, tags, a
place, comments and hearts, half written by another member so that news and "new" marks show): the count must be
the same for both — a count that grows with the entries on the page is an N+1 — and within the budget. Timing
tests are flaky on shared machines; counts are not. `make bench` keeps the times. The server takes snapshots, so an
owner's pages read their status as they would in a home set up as docs/backup.md advises."""
import re
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from conftest import Server, engine_environment, make_family, saessak
from images import image_bytes, multipart
from test_pages_without_script import form_data

# Which further passes of `make test` run this module: on PostgreSQL (engine).
pytestmark = [pytest.mark.engine]

# A full timeline page (30) and then some, on both sides of a month.
LARGE = 45
SMALL = 2


def fill(server, owner, editor, entries, comments):
    """A family's diary, made through the API: two children with measurements, a vaccination and a visit, a memo,
    an anniversary, `entries` entries (every other one by `editor`) each with a photo, two tags, a place and
    `comments` comments and a heart from each member, entries of today's date in earlier years, a share link, an
    invitation and a calendar feed. The ids the paths need."""

    def made(method, path, body, token=owner):
        response = server.request(method, path, body, token)
        assert response.status in (200, 201), (path, response.status, response.body)
        return response.json()

    child = made("POST", "/api/v1/children", {"name": "바다", "birthDate": "2025-03-14", "sex": "male"})
    made("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2023-01-29", "birthCalendar": "lunar", "sex": "female"})
    for kind, value, unit in (("weight", 11.2, "kg"), ("height", 84.5, "cm")):
        made("POST", f"/api/v1/children/{child['id']}/measurements", {"kind": kind, "value": value, "unit": unit, "date": "2026-11-01"})
    made("POST", f"/api/v1/children/{child['id']}/vaccinations", {"product": "bcg", "date": "2025-03-20"})
    event = made("POST", "/api/v1/events", {"childId": child["id"], "kind": "hospital", "title": "영유아 검진", "date": "2026-11-02"})
    memo = made("POST", "/api/v1/memos", {"title": "기저귀 사이즈", "body": "3단계로 바꾸기"})
    anniversary = made("POST", "/api/v1/anniversaries", {"name": "할머니 생신", "calendar": "lunar", "month": 3, "day": 2})
    folder = Path(tempfile.mkdtemp(prefix="saessak-counts-"))
    made_entries = []
    for number in range(entries):
        author = editor if number % 2 else owner
        content_type, body = multipart([(f"p{number}.jpg", image_bytes(folder, ".jpg", 64, 48))])
        uploaded = server.request("POST", "/api/v1/photos", token=author, raw=body, headers={"Content-Type": content_type})
        assert uploaded.status == 201, uploaded.body
        entry = made(
            "POST", "/api/v1/entries",
            {"title": f"산책 {number}", "body": "공원에서 걸음마 연습을 했다.", "date": f"2026-11-{1 + number % 28:02d}T{number % 24:02d}:15",
             "childIds": [child["id"]], "tags": ["산책", f"태그{number % 3}"], "place": {"name": "연남동 공원"},
             "photoIds": [uploaded.json()["items"][0]["id"]]},
            author)
        for index in range(comments):
            made("POST", f"/api/v1/entries/{entry['id']}/comments", {"text": f"예뻐라 {index}"}, editor if index % 2 else owner)
        for token in (owner, editor):
            made("PUT", f"/api/v1/entries/{entry['id']}/heart", None, token)
        made_entries.append(entry)
    # "On this day" finds something on the home page: an entry of today's date (Seoul) in each of the years before.
    today = datetime.now(timezone(timedelta(hours=9))).date()
    for back in range(1, 1 + max(1, entries // 15)):
        try:
            earlier = today.replace(year=today.year - back)
        except ValueError:  # 29 February: no such day that year
            continue
        made("POST", "/api/v1/entries", {"title": f"{back}년 전 오늘", "body": "", "date": f"{earlier.isoformat()}T08:00",
                                         "childIds": [child["id"]], "tags": ["산책"]})
    newest = max(made_entries, key=lambda e: e["date"])
    comment = server.request("GET", f"/api/v1/entries/{newest['id']}/comments", token=owner).json()["items"][0]
    share = made("POST", "/api/v1/share-links", {"entryIds": [e["id"] for e in made_entries[:30]], "label": "할머니께"})
    made("POST", "/api/v1/invitations", {"role": "viewer"})
    feed = made("POST", "/api/v1/feeds", {"label": "우리 가족 달력", "holidays": True})
    # A book of the year, for the books page and the API's list (how far it has got does not change what is read).
    book = server.request("POST", "/api/v1/books", {"childId": child["id"], "year": 2026}, owner)
    assert book.status == 202, book.body
    return {"book": book.json()["id"], "import": imported(server, owner, child["id"], folder, photos=1 + entries // 15), "child": child["id"], "entry": newest["id"], "photo": newest["photoIds"][0], "memo": memo["id"], "event": event["id"],
            "anniversary": anniversary["id"], "comment": comment["id"], "share": share["url"].rsplit("/", 1)[1],
            "feed": feed["url"].rsplit("/", 1)[1]}


def imported(server, owner, child, folder, photos):
    """The token of an import of `photos` photos made on the page 가져오기 (uploaded, confirmed, run in the
    background), once its status page shows the report."""
    files = [("file", f"old{n}.jpg", image_bytes(folder, ".jpg", 80 + n, 60)) for n in range(photos)]
    headers, body = form_data([("kind", "photos"), ("encoding", "auto"), ("childId", child)], files)
    preview = server.request("POST", "/settings/import", token=owner, raw=body, headers=headers)
    assert preview.status == 200, preview.body[:300]
    confirm = re.search(r'action="(/settings/import/([0-9a-f]{32})/confirm)"', preview.body.decode())
    days = [("day", day) for day in re.findall(r'name="day" value="([0-9-]+)"', preview.body.decode())]
    days += [(f"child-{day}", child) for _, day in days]
    form = "&".join(f"{name}={value}" for name, value in days).encode()
    started = server.request("POST", confirm.group(1), token=owner, raw=form,
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert started.status == 200, started.body[:300]  # the 303 to the status page, followed
    for _ in range(240):
        if "가져오기 완료" in server.request("GET", f"/settings/import/{confirm.group(2)}", token=owner).body.decode():
            return confirm.group(2)
        time.sleep(0.25)
    raise AssertionError("the import of photos did not finish in a minute")


# Every page and API list route a member reads, with the ids of the family asking.
PATHS = [
    "/", "/timeline", "/timeline?child={child}", "/timeline?tag=%EC%82%B0%EC%B1%85", "/timeline?q=%EC%82%B0%EC%B1%85",
    "/calendar/2026-11", "/calendar/2026-11-01", "/entries/{entry}", "/entries/{entry}/edit", "/entries/new",
    "/photos/{photo}?entry={entry}", "/album?child={child}", "/album?child={child}&month=2026-11", "/children",
    "/children/{child}/edit", "/children/{child}/growth.svg", "/health?child={child}", "/health/events/{event}/edit",
    "/memos", "/memos/{memo}", "/anniversaries", "/anniversaries/{anniversary}/edit", "/comments/{comment}/edit",
    "/settings", "/settings/import", "/settings/import/{import}", "/more", "/calculator", "/s/{share}", "/feeds/{feed}", "/children/new", "/memos/new",
    "/anniversaries/new", "/children/{child}/delete",
    "/trash", "/trash/empty", "/api/v1/trash", "/api/v1/trash/settings", "/entries/{entry}/versions",
    "/api/v1/entries/{entry}/versions", "/activity", "/activity?kind=entry&month=2026-11", "/api/v1/activity",
    "/api/v1/activity?kind=entry", "/api/v1/members", "/books", "/books?child={child}", "/api/v1/books", "/api/v1/books/{book}",
    "/api/v1/timeline?limit=50", "/api/v1/timeline?limit=50&child={child}", "/api/v1/entries", "/api/v1/entries?month=2026-11",
    "/api/v1/entries/{entry}", "/api/v1/on-this-day?date=2027-11-01", "/api/v1/search?q=%EC%82%B0%EC%B1%85",
    # Two whole-token terms (counted in SQL, ranked there) and a phrase of several tokens (ranked by the server).
    "/api/v1/search?q=%EC%82%B0%EC%B1%85%20%EA%B3%B5%EC%9B%90", "/api/v1/search?q=%EA%B1%B8%EC%9D%8C%EB%A7%88%20%EC%97%B0%EC%8A%B5",
    "/api/v1/children",
    "/api/v1/children/{child}", "/api/v1/children/{child}/growth", "/api/v1/children/{child}/vaccinations", "/api/v1/memos",
    "/api/v1/events", "/api/v1/anniversaries", "/api/v1/today", "/api/v1/news", "/api/v1/entries/{entry}/comments",
    "/api/v1/entries/{entry}/hearts", "/api/v1/entries/{entry}/photos", "/api/v1/photos/{photo}", "/api/v1/tokens",
    "/api/v1/share-links", "/api/v1/invitations", "/api/v1/feeds", "/api/v1/calendar.ics", "/api/v1/account",
    "/api/v1/account/mail", "/api/v1/family/weather", "/api/v1/family/sign-in", "/api/v1/anniversaries/{anniversary}", "/api/v1/memos/{memo}",
    "/api/v1/events/{event}", "/api/v1/comments/{comment}", "/api/v1/photos/{photo}/comments", "/api/v1/photos/{photo}/hearts",
    "/api/v1/children/{child}/resident-number",
]


@pytest.fixture(scope="module")
def families(tmp_path_factory):
    data = tmp_path_factory.mktemp("counts") / "saessak-data"
    tokens = {}
    for size, family in (("small", "작은집"), ("large", "큰집")):
        owner = make_family(data, f"{size}-mom", family)
        make_family(data, f"{size}-dad", f"{family} 아빠")
        saessak("admin", "add-member", "--username", f"{size}-dad", "--family", family, "--role", "editor", data=data)
        editor = saessak("admin", "create-token", "--username", f"{size}-dad", "--family", family, data=data).stdout.strip()
        tokens[size] = (owner, editor)
    # Snapshots on (a folder target): the owner's home and settings pages read the snapshot status too.
    running = Server(data, env=engine_environment(data) | {"SAESSAK_SNAPSHOT_PASSWORD": "숫자 세는 집의 암호"})
    running.extra_args = ["--count-statements", "--snapshots", str(data.parent / "snapshots")]
    running.start()
    running.ids = {size: fill(running, *tokens[size], entries=count, comments=count // 10 + 1)
                   for size, count in (("small", SMALL), ("large", LARGE))}
    running.tokens = {size: pair[0] for size, pair in tokens.items()}
    yield running
    running.stop()


def counted(server, size, path):
    """(statements, budget) of one GET by the family's owner, after a first one (a first visit may write once: an
    entry marked read, a search index warmed)."""
    url = path.format(**server.ids[size])
    for _ in range(2):
        response = server.request("GET", url, token=server.tokens[size])
        assert response.status == 200, (url, response.status, response.body[:300])
    statements = response.headers.get("Saessak-Statements")
    assert statements is not None, f"{url}: no statement count (is the server counting?)"
    budget = response.headers.get("Saessak-Statement-Budget")
    return int(statements), int(budget) if budget is not None else None


@pytest.mark.parametrize("path", PATHS)
def test_a_page_costs_the_same_for_two_entries_and_a_full_page_and_keeps_its_budget(families, path):
    small, budget = counted(families, "small", path)
    large, _ = counted(families, "large", path)
    if large != small:
        # Now and then (under the whole suite's load, about one run in three) SQLite reports one statement's start
        # twice — a re-prepared statement, as far as we can tell — and a page counts one more. A query per entry
        # differs by dozens, every time: counted again, the lesser count of each is the page's.
        small = min(small, counted(families, "small", path)[0])
        large = min(large, counted(families, "large", path)[0])
    assert budget is not None, f"{path}: the route declares no statement budget (SecureRoutes.get(_:_:statements:))"
    assert small > 0, f"{path}: no statement counted (every request signs in): the count is not reaching the engine"
    assert large == small, f"{path}: {small} statements for {SMALL} entries but {large} for {LARGE} (a query per entry?)"
    assert large <= budget, f"{path}: {large} statements, over its budget of {budget}"


def test_the_counts_are_off_unless_asked(tmp_path):
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    try:
        response = running.request("GET", "/api/v1/children", token=token)
        assert response.status == 200 and response.headers.get("Saessak-Statements") is None
    finally:
        running.stop()
