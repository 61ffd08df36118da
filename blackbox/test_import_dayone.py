"""`saessak import dayone`: a Day One JSON export with two journals, photos found by their MD5 through the
`dayone-moment://` references, tags, starred, location, weather and time zones; broken exports change nothing."""
import json
import struct
import time
import zipfile
from pathlib import Path

import pytest

from conftest import Server, family_with_children, get_once, saessak, stored_originals
from dayone_export import entry, export
from images import image_bytes, size_of

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]


@pytest.fixture()
def home(tmp_path):
    data = tmp_path / "saessak-data"
    return data, family_with_children(data, "하늘", "바다")



def sample(tmp_path):
    big, small = image_bytes(tmp_path, ".jpg", 320, 240), image_bytes(tmp_path, ".jpg", 200, 100)
    return export(tmp_path / "export.zip", {
        "Journal.json": [
            entry("A1", "2020-05-05T03:12:00Z", "# 어린이날\n동물원에 갔다\\. 기린이 컸다\\!", photos=[("P-BIG", big, "jpeg"), ("P-SMALL", small, "jpeg")],
                  tags=["나들이", "동물원"], starred=True,
                  location={"placeName": "서울대공원", "localityName": "과천시", "administrativeArea": "경기도", "country": "대한민국",
                            "latitude": 37.4276, "longitude": 127.0169},
                  weather={"conditionsDescription": "맑음", "temperatureCelsius": 21.6}),
            entry("A2", "2020-12-31T15:30:00Z", "새해 첫 눈", time_zone="America/Los_Angeles"),
        ],
        "가족 여행.json": [
            entry("B1", "2021-08-01T23:00:00.000Z", "제주 바다\n\n파도가 높았다", photos=[("P-SMALL", small, "jpeg")]),
        ],
    })


def state(data, token):
    return get_once(data, token, "/api/v1/entries?limit=200")["items"], stored_originals(data)


def test_a_day_one_export(home, tmp_path):
    data, token = home
    path = sample(tmp_path)
    dry = json.loads(saessak("import", "dayone", str(path), "--dry-run", "--json", data=data).stdout)
    assert dry["added"] == {"entries": 3, "photos": 2} and dry["files"] == 2 and dry["dryRun"] is True, dry
    assert state(data, token) == ([], [])

    report = json.loads(saessak("import", "dayone", str(path), "--child", "하늘", "--json", data=data).stdout)
    assert report["added"] == {"entries": 3, "photos": 2}, report
    entries = {e["title"]: e for e in get_once(data, token, "/api/v1/entries?limit=200")["items"]}
    assert set(entries) == {"어린이날", "새해 첫 눈", "제주 바다"}
    zoo = entries["어린이날"]
    assert zoo["date"] == "2020-05-05T12:12" and zoo["timeZone"] == "Asia/Seoul" and zoo["body"] == "동물원에 갔다. 기린이 컸다!"
    assert zoo["tags"] == ["나들이", "동물원", "즐겨찾기"] and zoo["weather"] == "맑음 22℃"
    # Day One's place is kept as it was; the Korean place of its coordinates comes beside it (issue 24).
    region = zoo["place"]["region"]
    assert {k: v for k, v in zoo["place"].items() if k != "region"} == {"name": "서울대공원, 과천시", "latitude": 37.4276, "longitude": 127.0169}
    assert region["korean"] == {"sido": "경기도", "sigungu": "과천시", "eupmyeondong": "막계동"}
    children = {c["name"]: c["id"] for c in get_once(data, token, "/api/v1/children")["items"]}
    assert zoo["childIds"] == [children["하늘"]]
    running = Server(data).start()
    try:
        sizes = [size_of(running.request("GET", f"/api/v1/photos/{p}/original", None, token).body)[:2] for p in zoo["photoIds"]]
    finally:
        running.stop()
    assert sizes == [(320, 240), (200, 100)]
    # The same photo in two entries is one photo.
    assert entries["제주 바다"]["photoIds"] == [zoo["photoIds"][1]] and entries["제주 바다"]["body"] == "파도가 높았다"
    snow = entries["새해 첫 눈"]
    assert snow["date"] == "2020-12-31T07:30" and snow["timeZone"] == "America/Los_Angeles" and snow["body"] == ""

    before = state(data, token)
    again = json.loads(saessak("import", "dayone", str(path), "--json", data=data).stdout)
    assert again["added"] == {} and again["duplicates"] == {"entries": 3}
    assert state(data, token) == before


def test_a_missing_photo_is_reported(home, tmp_path):
    data, token = home
    photo = image_bytes(tmp_path, ".jpg", 100, 100)
    one, _ = entry("C1", "2022-01-01T00:00:00Z", "사진이 없어진 날", photos=[("GONE", photo, "jpeg")])
    path = export(tmp_path / "missing.zip", {"Journal.json": [(one, {})]})
    report = json.loads(saessak("import", "dayone", str(path), "--json", data=data).stdout)
    assert report["added"] == {"entries": 1}
    assert any("photo GONE is not in the export's photos folder" in w for w in report["warnings"]), report


def broken(tmp_path, kind):
    path = tmp_path / f"{kind}.zip"
    if kind == "truncated":
        path.write_bytes(sample(tmp_path).read_bytes()[:2000])
    elif kind == "no-journal":
        export(path, {})
    elif kind == "bad-date":
        good, files = entry("D1", "2020-01-01T00:00:00Z", "좋은 날")
        bad, _ = entry("D2", "2020-13-45T00:00:00Z", "이상한 날")
        export(path, {"Journal.json": [(good, files), (bad, {})]})
    elif kind == "not-json":
        import zipfile
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("Journal.json", "{\"entries\": [ {\"uuid\": 3}")
    return path


@pytest.mark.parametrize("kind, message", [
    ("truncated", "truncated.zip: not a ZIP archive, or it is cut short"),
    ("no-journal", "no-journal.zip: no journal in the export"),
    ("bad-date", "Journal.json: entry 2 (D2), creationDate: '2020-13-45T00:00:00Z' is not an ISO 8601 date"),
    ("not-json", "Journal.json: "),
])
def test_broken_exports_change_nothing(home, tmp_path, kind, message):
    data, token = home
    saessak("import", "dayone", str(sample(tmp_path)), data=data)
    before = state(data, token)
    result = saessak("import", "dayone", str(broken(tmp_path, kind)), data=data, check=False)
    assert result.returncode != 0 and message in result.stderr, result.stderr
    assert state(data, token) == before


def test_a_temperature_no_weather_has_is_left_out_not_a_crash(home, tmp_path):
    """Found while fuzzing (issue 16): 1e300 ℃ trapped the Int conversion, which in a web import kills the server."""
    data, token = home
    one, _ = entry("T1", "2022-07-01T00:00:00Z", "더운 날", weather={"conditionsDescription": "맑음", "temperatureCelsius": 1e300})
    two, _ = entry("T2", "2022-07-02T00:00:00Z", "추운 날", weather={"temperatureCelsius": -1e300})
    path = export(tmp_path / "hot.zip", {"Journal.json": [(one, {}), (two, {})]})
    assert json.loads(saessak("import", "dayone", str(path), "--json", data=data).stdout)["added"] == {"entries": 2}
    weathers = {e["title"]: e.get("weather") for e in state(data, token)[0]}
    assert weathers == {"더운 날": "맑음", "추운 날": None}


def test_a_deflate_stream_cut_short_fails_at_once(home):
    """Found by `make fuzz` (issue 16): on this 1.4 KB export ZIPFoundation read on at end of file for ever — in a web
    import, a server thread spinning until restart. Our reader stops at the end of the member's bytes."""
    data, _ = home
    fixture = Path(__file__).resolve().parent / "fixtures" / "zips" / "dayone-deflate-cut-short.zip"
    started = time.monotonic()
    result = saessak("import", "dayone", str(fixture), "--dry-run", data=data, check=False)
    assert result.returncode != 0 and "cut short" in result.stderr and time.monotonic() - started < 10


def lying(path, name, content, declared):
    """A ZIP whose one member declares `declared` bytes but inflates to all of `content` (both headers patched)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    raw = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = raw.index(signature)
        raw[at + offset:at + offset + 4] = struct.pack("<I", declared)
    path.write_bytes(bytes(raw))
    return path


def test_import_bombs_are_refused_by_the_bytes_that_come_out(home, tmp_path):
    """Issue 17: a 1 MB export whose Journal.json was 1 GiB of spaces took the server to 1.3 GB, and a member that
    declared 1,000 bytes for 700 MiB passed the size cap. Now a journal stops at 128 MB and a member at what it says."""
    data, _ = home
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Journal.json", b" " * (129 << 20))
    assert bomb.stat().st_size < 1 << 20
    result = saessak("import", "dayone", str(bomb), "--dry-run", data=data, check=False)
    assert result.returncode != 0 and "larger than 128 MB" in result.stderr, result.stderr
    liar = lying(tmp_path / "liar.zip", "Journal.json", b'{"entries": []}' + b" " * 50_000, 1000)
    result = saessak("import", "dayone", str(liar), "--dry-run", data=data, check=False)
    assert result.returncode != 0 and "more than the 1000 bytes it declares" in result.stderr, result.stderr
    text = lying(tmp_path / "diaries.zip", "2020.txt", "2020-01-01\n일기\n".encode() + b" " * 50_000, 1000)
    result = saessak("import", "text", str(text), "--dry-run", data=data, check=False)
    assert result.returncode != 0 and "more than the 1000 bytes it declares" in result.stderr, result.stderr
