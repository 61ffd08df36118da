"""`saessak import iphotodiary`: the legacy iPhone app's Core Data store in its oldest and last model, with Korean
text, a lunar-born child, PNG photos, an orphan diary, 백일/첫돌 rows and AnnData.plist; broken stores change
nothing. Fixtures are built here (legacy_store.py)."""
import html
import json
import re
import shutil
import subprocess

import pytest
from korean_lunar_calendar import KoreanLunarCalendar

from conftest import BIN, Server, get_once, make_family, saessak, stored_originals
from images import image_bytes, size_of
from legacy_store import LAST, OLDEST, Store, ann_data, stamp

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]


@pytest.fixture()
def home(tmp_path):
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    return data, token



def last_store(tmp_path):
    """Three children (solar; lunar; solar hit by the app's first-save bug), diaries with photos, an orphan diary and
    an orphan photo, derived 백일/첫돌 events, a visit with a prescription photo and a vaccination."""
    store = Store(tmp_path / "NewIPhotoDiary.sqlite", LAST)
    sky = store.add("CHILDDATA", childname="김하늘", nickname="하늘이", birthday=stamp(2010, 3, 15, 14, 30), islunar=1,
                    birthdaySolar="2010. 3. 15.", birthdayLunar="2010. 1. 30.", gender=1, height=50.5, weight=3.2,
                    idnum="100315-4000000", location="서울", hospital="제일병원", doctor="김의사")
    store.add("IMAGE", childdata=sky, image=image_bytes(tmp_path, ".png", 300, 400))
    # Lunar-born: ZBIRTHDAY carries lunar 2011-04-08 as if it were a solar date; ISLUNAR 0 means lunar.
    sea = store.add("CHILDDATA", childname="김바다", birthday=stamp(2011, 4, 8, 9, 0), islunar=0,
                    birthdayLunar="2011. 4. 8.", birthdaySolar="2011. 5. 10.", gender=0, height=49.0, weight=3400)
    # A solar child whose first save converted the birthday as lunar anyway: ZBIRTHDAYSOLAR disagrees.
    cloud = store.add("CHILDDATA", childname="김구름", birthday=stamp(2012, 6, 1), islunar=1, birthdaySolar="2012. 7. 19.")

    walk = store.add("DIARYDATA", child=sky, tag="첫 걸음", content="오늘 처음으로 걸었다.\n똠방똠방", writedate=stamp(2011, 3, 20, 10, 15),
                     latitude=37.5665, longitude=126.978, reverseAddr="서울특별시 중구", weatherDesc="맑음  12℃",
                     weatherIcon="sunny.png", sectionDate="2011년 03월", conditionDate="2011. 3. 20.", thumbnailImage=image_bytes(tmp_path, ".png", 30, 20))
    store.add("DIARYIMAGE", pk=5, diary=walk, image=image_bytes(tmp_path, ".png", 200, 150), latitude="0", longitude="0")
    store.add("DIARYIMAGE", pk=3, diary=walk, image=image_bytes(tmp_path, ".png", 160, 120), latitude="37.5", longitude="127.0")
    store.add("DIARYDATA", child=None, tag="가족 소풍", content="모두 함께", writedate=stamp(2011, 5, 5, 12, 0))  # orphan
    store.add("DIARYDATA", child=sea, tag=None, content="바다의 첫 웃음\n까르르", writedate=stamp(2011, 6, 1, 8, 0),
              thumbnailImage=image_bytes(tmp_path, ".png", 64, 48))
    store.add("DIARYIMAGE", diary=None, image=image_bytes(tmp_path, ".png", 90, 90))  # a photo of no diary
    store.add("DIARYIMAGE", diary=walk, image=b"\x89PNG\r\n\x1a\nbroken")  # damaged

    store.add("EVENTDATA", child=sky, eventname="김하늘 백일", eventdate=stamp(2010, 6, 22), eventtype=0)
    store.add("EVENTDATA", child=sky, eventname="김하늘 첫돌", eventdate=stamp(2011, 3, 15), eventtype=0)
    store.add("EVENTDATA", child=sky, eventname="어린이집 입학", eventmemo="새 가방", eventdate=stamp(2012, 3, 2, 9, 30),
              location="해님 어린이집", eventtype=0)
    hospital = store.add("HOSPITALIMAGE", image=image_bytes(tmp_path, ".png", 120, 160))
    visit = store.add("TREATMENTDATA", child=sea, hospitalImage=hospital, treatmentSubject="감기", treatmentResult="인두염",
                      hospitalName="튼튼소아과", doctorName="박선생", treatmentDate=stamp(2011, 9, 1, 11, 0), prescription="해열제")
    store.db.execute("UPDATE ZHOSPITALIMAGE SET ZTREATMENT = ? WHERE Z_PK = ?", (visit, hospital))
    store.add("PRESCRIPTIONIMAGE", treatment=visit, image=image_bytes(tmp_path, ".png", 140, 200))
    store.add("VACCINATIONDATA", child=sky, vaccinName="BCG", vaccinationCount=1, completeDate=stamp(2010, 4, 1, 10, 0),
              vaccinationLoc="보건소")
    store.close()
    plist = ann_data(tmp_path / "AnnData.plist", [
        ("1. 1.", "신정", "OFF", "ON"), ("1. 1.", "설날", "ON", "ON"), ("5. 5.", " 어린이날", "OFF", "ON"),
        ("8. 15.", "추석", "ON", "ON"), ("12. 25.", "크리스마스", "OFF", "ON"), ("3. 15.", "김하늘 생일", "OFF", "1"),
        ("10. 3.", "결혼기념일", "OFF", "OFF"), ("7. 7.", "칠석", "ON", "OFF"), ("5. 8.", "어버이날", "OFF", "OFF"),
    ])
    return tmp_path / "NewIPhotoDiary.sqlite", plist


def snapshot(data, token):
    """Everything an import could have touched, as the API and the photo folder show it."""
    running = Server(data).start()
    try:
        seen = {}
        for path in ("/api/v1/children", "/api/v1/entries", "/api/v1/events", "/api/v1/anniversaries"):
            response = running.request("GET", path + "?limit=200", None, token)
            assert response.status == 200, response.body
            seen[path] = response.json()["items"]
        seen["files"] = stored_originals(data)
        return seen
    finally:
        running.stop()


def test_the_last_model_imports_everything_once(home, tmp_path):
    data, token = home
    store, plist = last_store(tmp_path)
    before = snapshot(data, token)

    dry = json.loads(saessak("import", "iphotodiary", str(store), "--anniversaries", str(plist), "--dry-run", "--json", data=data).stdout)
    assert dry["dryRun"] is True and dry["files"] == 2
    assert dry["added"] == {"children": 3, "entries": 3, "events": 3, "anniversaries": 3, "photos": 6, "measurements": 4}, dry
    assert snapshot(data, token) == before

    report = json.loads(saessak("import", "iphotodiary", str(store), "--anniversaries", str(plist), "--json", data=data).stdout)
    assert report["added"] == dry["added"]
    skipped = "\n".join(report["skipped"])
    assert "'김하늘 백일' is a milestone" in skipped and "'김하늘 첫돌' is a milestone" in skipped
    assert "ZDIARYIMAGE Z_PK=6: a photo of no diary (orphan)" in skipped
    assert "김하늘 생일" in skipped and "already a public holiday in Saessak (기독탄신일)" in skipped
    assert "already a public holiday in Saessak (어린이날)" in skipped and "(설날)" in skipped and "(신정)" in skipped
    warnings = "\n".join(report["warnings"])
    assert "ZDIARYDATA Z_PK=2: diary '가족 소풍' (2011-05-05) belongs to no child (orphan)" in warnings
    assert "ZCHILDDATA Z_PK=3 (김구름): ZBIRTHDAYSOLAR says 2012-7-19 but ZBIRTHDAY is 2012-06-01" in warnings
    assert "ZDIARYIMAGE Z_PK=7: the photo cannot be read" in warnings
    assert "100315" not in json.dumps(report)  # the resident number never reaches a report

    seen = snapshot(data, token)
    children = {c["name"]: c for c in seen["/api/v1/children"]}
    assert set(children) == {"김하늘", "김바다", "김구름"}
    sky, sea = children["김하늘"], children["김바다"]
    assert (sky["birthDate"], sky["birthCalendar"], sky["birthTime"], sky["sex"]) == ("2010-03-15", "solar", "14:30", "female")
    assert sky["nickname"] == "하늘이" and sky["birthplace"] == "서울" and sky["hospital"] == "제일병원" and sky["photoId"]
    assert (sea["birthDate"], sea["birthCalendar"], sea["isLeapMonth"], sea["sex"]) == ("2011-04-08", "lunar", False, "male")
    oracle = KoreanLunarCalendar()
    oracle.setLunarDate(2011, 4, 8, False)
    assert sea["derived"]["solarBirthDate"] == oracle.SolarIsoFormat() == "2011-05-10"
    assert children["김구름"]["birthDate"] == "2012-06-01"

    entries = {e["title"]: e for e in seen["/api/v1/entries"]}
    assert set(entries) == {"첫 걸음", "가족 소풍", "바다의 첫 웃음"}
    walk = entries["첫 걸음"]
    assert walk["date"] == "2011-03-20T10:15" and walk["timeZone"] == "Asia/Seoul" and walk["body"] == "오늘 처음으로 걸었다.\n똠방똠방"
    assert walk["childIds"] == [sky["id"]] and walk["weather"] == "맑음 12℃"
    assert walk["place"]["region"]["korean"]["eupmyeondong"] == "태평로1가"  # found from the coordinates (issue 24)
    assert {k: v for k, v in walk["place"].items() if k != "region"} == {"name": "서울특별시 중구", "latitude": 37.5665, "longitude": 126.978}
    # Photos in Z_PK order (3 before 5), the diary's thumbnail not a photo of its own.
    running = Server(data).start()
    try:
        sizes = [size_of(running.request("GET", f"/api/v1/photos/{p}/original", None, token).body)[:2] for p in walk["photoIds"]]
        # Where the app said each photo was taken ("0" = unknown).
        places = [running.request("GET", f"/api/v1/photos/{p}", None, token).json() for p in walk["photoIds"]]
        assert [(p.get("latitude"), p.get("longitude")) for p in places] == [(37.5, 127.0), (None, None)]
    finally:
        running.stop()
    assert sizes == [(160, 120), (200, 150)]
    assert sorted(entries["가족 소풍"]["childIds"]) == sorted(c["id"] for c in children.values())
    assert entries["바다의 첫 웃음"]["body"] == "바다의 첫 웃음\n까르르" and len(entries["바다의 첫 웃음"]["photoIds"]) == 1

    events = {e["title"]: e for e in seen["/api/v1/events"]}
    assert set(events) == {"어린이집 입학", "감기", "예방접종: BCG 1차"}
    assert events["어린이집 입학"]["time"] == "09:30" and events["어린이집 입학"]["notes"] == "새 가방\n장소: 해님 어린이집"
    cold = events["감기"]
    assert (cold["kind"], cold["hospital"], cold["doctor"], cold["diagnosis"]) == ("hospital", "튼튼소아과", "박선생", "인두염")
    assert cold["childId"] == sea["id"] and len(cold["photoIds"]) == 2
    anniversaries = {(a["name"], a["calendar"], a["month"], a["day"]) for a in seen["/api/v1/anniversaries"]}
    assert anniversaries == {("결혼기념일", "solar", 10, 3), ("칠석", "lunar", 7, 7), ("어버이날", "solar", 5, 8)}
    growth = get_once(data, token, f"/api/v1/children/{sea['id']}/growth")
    assert sorted((m["kind"], m["value"]) for m in growth["items"]) == [("height", 49.0), ("weight", 3.4)]

    # Again: nothing twice, and no stray files.
    again = json.loads(saessak("import", "iphotodiary", str(store), "--anniversaries", str(plist), "--json", data=data).stdout)
    assert again["added"] == {} and again["duplicates"] == {"children": 3, "entries": 3, "events": 3, "anniversaries": 3}
    assert snapshot(data, token) == seen


def test_the_oldest_model(home, tmp_path):
    data, token = home
    store = Store(tmp_path / "seed.sqlite", OLDEST)
    photo = store.add("IMAGE", image=image_bytes(tmp_path, ".png", 100, 80))
    child = store.add("CHILDDATA", childname="박새싹", birthday=stamp(2009, 12, 24, 23, 50), image=photo, height=51, weight=3,
                      gender=0, idnum="091224-3000000")
    store.db.execute("UPDATE ZIMAGE SET ZCHILDDATA = ? WHERE Z_PK = ?", (child, photo))
    diary = store.add("DIARYDATA", child=child, writedate=stamp(2010, 1, 1, 0, 5), tag="새해", content="첫 새해")
    store.add("DIARYIMAGE", diary=diary, image=image_bytes(tmp_path, ".png", 64, 64))
    store.add("EVENTDATA", child=child, eventname="박새싹 백일", eventdate=stamp(2010, 4, 2), eventtype=0)
    store.add("ANNIVERSARYDATA", anniversaryName="할머니 생신", anniversaryDate=stamp(2010, 9, 9), holidayFlag=0)
    store.close()

    report = json.loads(saessak("import", "iphotodiary", str(tmp_path / "seed.sqlite"), "--json", data=data).stdout)
    assert report["added"] == {"children": 1, "entries": 1, "anniversaries": 1, "photos": 2, "measurements": 2}, report
    seen = snapshot(data, token)
    [child] = seen["/api/v1/children"]
    assert (child["name"], child["birthDate"], child["birthCalendar"], child["birthTime"]) == ("박새싹", "2009-12-24", "solar", "23:50")
    [entry] = seen["/api/v1/entries"]
    assert entry["date"] == "2010-01-01T00:05" and entry["title"] == "새해" and len(entry["photoIds"]) == 1
    assert seen["/api/v1/events"] == []
    assert [(a["name"], a["month"], a["day"]) for a in seen["/api/v1/anniversaries"]] == [("할머니 생신", 9, 9)]


def broken(tmp_path, kind):
    path = tmp_path / f"{kind}.sqlite"
    if kind == "truncated":
        good, _ = last_store(tmp_path)
        path.write_bytes(good.read_bytes()[:3000])
    elif kind == "not-sqlite":
        path.write_bytes(b"bplist00" + b"\x00" * 100)
    elif kind == "wrong-schema":
        import sqlite3
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        db.commit()
        db.close()
    elif kind == "bad-lunar-date":
        store = Store(path, LAST)
        store.add("CHILDDATA", childname="달", birthday=stamp(2011, 4, 30), islunar=0)  # lunar 2011-04-30 exists
        store.add("CHILDDATA", childname="별", birthday=stamp(2011, 5, 1), islunar=1)
        store.add("CHILDDATA", childname="해", birthday=stamp(2013, 5, 30), islunar=0)  # lunar 2013-05-30 does not
        store.close()
    elif kind == "bad-write-date":
        store = Store(path, LAST)
        child = store.add("CHILDDATA", childname="달", birthday=stamp(2011, 1, 1), islunar=1)
        store.add("DIARYDATA", child=child, tag="좋은 날", writedate=stamp(2011, 2, 1))
        store.add("DIARYDATA", child=child, tag="이상한 날", writedate=1e13)
        store.close()
    return path


@pytest.mark.parametrize("kind, message", [
    ("truncated", "truncated.sqlite: "),
    ("not-sqlite", "not-sqlite.sqlite: not a SQLite database"),
    ("wrong-schema", "wrong-schema.sqlite: not an iPhotoDiary store: it has no ZCHILDDATA table"),
    ("bad-lunar-date", "ZCHILDDATA Z_PK=3 (해), ZBIRTHDAY: lunar 2013-5-30 is not a date of the lunar calendar"),
    ("bad-write-date", "ZDIARYDATA Z_PK=2, ZWRITEDATE: 10000000000000.0 is not a date between 1900 and 2100"),
])
def test_broken_stores_change_nothing(home, tmp_path, kind, message):
    data, token = home
    # Something already there, which must stay as it is.
    saessak("import", "text", str(write_day(tmp_path)), data=data, check=False)
    before = snapshot(data, token)
    result = saessak("import", "iphotodiary", str(broken(tmp_path, kind)), data=data, check=False)
    assert result.returncode != 0 and message in result.stderr, result.stderr
    assert snapshot(data, token) == before


def write_day(tmp_path):
    path = tmp_path / "2010-01-01.txt"
    path.write_text("새해", encoding="utf-8")
    return path


def test_bad_plist_is_named(home, tmp_path):
    data, token = home
    store, _ = last_store(tmp_path)
    plist = tmp_path / "AnnData.plist"
    plist.write_text("<plist><dict><key>5. 5.</key>", encoding="utf-8")
    before = snapshot(data, token)
    result = saessak("import", "iphotodiary", str(store), "--anniversaries", str(plist), data=data, check=False)
    assert result.returncode != 0 and "AnnData.plist: not a property list" in result.stderr, result.stderr
    assert snapshot(data, token) == before


def hostile_store(tmp_path, kind):
    """Stores that make SQLite do work their bytes do not show (issue 33): a 16 KB file whose generated column is
    100 MB a row, a view or a trigger where a table should be."""
    import sqlite3
    path = tmp_path / f"{kind}.sqlite"
    store = Store(path, LAST)
    child = store.add("CHILDDATA", childname="달", birthday=stamp(2011, 1, 1), islunar=1)
    for day in range(1, 31):
        store.add("DIARYDATA", child=child, tag=f"{day}일", writedate=stamp(2011, 2, day % 28 + 1))
    store.close()
    db = sqlite3.connect(path)
    if kind == "generated-column":
        db.execute("ALTER TABLE ZDIARYDATA ADD COLUMN ZBOMB AS (zeroblob(100000000)) VIRTUAL")
    elif kind == "view":
        db.execute("DROP TABLE ZEVENTDATA")
        db.execute("CREATE VIEW ZEVENTDATA AS SELECT zeroblob(100000000) AS ZEVENTNAME FROM ZDIARYDATA")
    elif kind == "trigger":
        db.execute("CREATE TRIGGER bomb AFTER INSERT ON ZDIARYDATA BEGIN SELECT zeroblob(100000000); END")
    db.commit()
    db.close()
    assert path.stat().st_size < 64 << 10
    return path


def peak_memory(pid):
    status = open(f"/proc/{pid}/status").read()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) << 10


@pytest.mark.parametrize("kind, message", [
    ("generated-column", "ZDIARYDATA.ZBOMB is a generated column"),
    ("view", "it holds a view (ZEVENTDATA)"),
    ("trigger", "it holds a trigger (bomb)"),
])
def test_a_hostile_store_is_refused_by_a_process_of_its_own(home, tmp_path, kind, message):
    data, token = home
    path = hostile_store(tmp_path, kind)
    before = snapshot(data, token)
    result = saessak("import", "iphotodiary", str(path), data=data, check=False)
    assert result.returncode != 0 and message in result.stderr, result.stderr
    assert snapshot(data, token) == before
    # The child the server runs says the same, with its own exit status.
    copy = tmp_path / "copy.sqlite"
    child = subprocess.run([BIN, "read-untrusted", "iphotodiary", "--name", path.name, "--", str(path), str(copy)],
                           capture_output=True, text=True)
    assert child.returncode == 3 and message in child.stderr and not copy.exists()


def test_the_servers_memory_is_not_the_uploads_to_take(home, tmp_path):
    """The dry run of the web import read the generated column of every row into the server: 123 MB → 1 GB."""
    from browser import Browser
    from test_import_pages import upload
    from test_pages_without_script import PASSWORD
    data, token = home
    server = Server(data).start()
    try:
        browser = Browser(server)
        assert browser.sign_in("mom", PASSWORD).status == 303
        # The good store first: the child's copy is what the server reads, and it reads all of it.
        store, _ = last_store(tmp_path)
        preview = upload(browser, "iphotodiary", "NewIPhotoDiary.sqlite", store.read_bytes())
        assert preview.status == 200 and re.search(r'data-count="found">3</td>', preview.text), preview.text
        baseline = peak_memory(server.process.pid)
        bomb = upload(browser, "iphotodiary", "NewIPhotoDiary.sqlite", hostile_store(tmp_path, "generated-column").read_bytes())
        assert "ZDIARYDATA.ZBOMB은(는) 계산된 열입니다" in html.unescape(bomb.text), bomb.text
        assert peak_memory(server.process.pid) - baseline < 64 << 20
        assert server.request("GET", "/healthz").status == 200
    finally:
        server.stop()
