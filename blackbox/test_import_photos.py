"""`saessak import photos` (issue 40): a camera folder and ZIPs of photos become one entry a day — JPEG, HEIC, PNG and
an iPhone clip, with and without EXIF, a trip abroad, a copy of a photo in two places, a file that is no photo, a
file that is broken — with nothing stored twice, on a second run or for a photo already in the diary, and an import
killed with -9 goes on where it stopped."""
import datetime
import json
import os
import shutil
import signal
import subprocess
import time
import zipfile

import pytest

from clips import h264_mp4, hevc_mov
from conftest import BIN, ENGINE, PHOTOS, Server, engine_environment, family_with_children, get_once, saessak, stored_originals
from images import image, image_bytes, jpeg_with_exif, multipart, run
from takeout import album_metadata, sidecar, sidecar_name, write_parts

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

SEOUL = datetime.timezone(datetime.timedelta(hours=9))
# What reads names and sidecars and refuses arguments is the same on every engine and photo store: the SQLite pass runs it.
first_pass_only = pytest.mark.skipif(ENGINE != "sqlite" or PHOTOS != "folder", reason="the same on every engine and photo store")


@pytest.fixture()
def home(tmp_path):
    data = tmp_path / "saessak-data"
    return data, family_with_children(data, "하늘", "바다")


def taken(path, when, offset=None, gps=None):
    """Writes the capture time (and offset, and place) into a photo's EXIF."""
    args = ["exiftool", "-q", "-overwrite_original", f"-DateTimeOriginal={when}"]
    if offset:
        args.append(f"-OffsetTimeOriginal={offset}")
    if gps:
        args += [f"-GPSLatitude={gps[0]}", "-GPSLatitudeRef=N", f"-GPSLongitude={gps[1]}", "-GPSLongitudeRef=E"]
    run(*args, str(path))
    return path


def camera_folder(tmp_path):
    """DCIM as a phone leaves it, and a ZIP from a laptop. The days, in Seoul unless said:
    2023-12-25 a PNG with no EXIF, dated by its file; 2024-02-10 three (the clip, a JPEG with GPS at 09:30 and one at
    14:00), 2024-02-11 a HEIC; 2024-03-01 a photo in Bangkok (+07:00); 2024-04-05 a photo in the ZIP."""
    camera = tmp_path / "DCIM"
    (camera / "100APPLE").mkdir(parents=True)
    (camera / "backup").mkdir()
    morning = jpeg_with_exif(tmp_path)  # 2024-02-10 09:30:15 +09:00 at 37.5665, 126.978
    shutil.move(morning, camera / "100APPLE" / "IMG_0001.JPG")
    afternoon = taken(image(tmp_path, ".jpg", 300, 200), "2024:02:10 14:00:00")
    shutil.move(afternoon, camera / "100APPLE" / "IMG_0002.JPG")
    hevc_mov(camera / "100APPLE", name="IMG_0003.MOV", seconds=1, size="320x180", created="2024-02-10T08:15:00+0900")
    heic = taken(image(tmp_path, ".heic", 320, 240), "2024:02:11 07:45:00", "+09:00")
    shutil.move(heic, camera / "100APPLE" / "IMG_0004.HEIC")
    trip = taken(image(tmp_path, ".jpg", 200, 300), "2024:03:01 10:00:00", "+07:00", gps=(13.7563, 100.5018))
    shutil.move(trip, camera / "100APPLE" / "IMG_0005.JPG")
    plain = image(tmp_path, ".png", 240, 160)
    shutil.move(plain, camera / "christmas.png")
    christmas = datetime.datetime(2023, 12, 25, 18, 30, tzinfo=SEOUL).timestamp()
    os.utime(camera / "christmas.png", (christmas, christmas))
    shutil.copy(camera / "100APPLE" / "IMG_0001.JPG", camera / "backup" / "IMG_0001 copy.JPG")
    (camera / "100APPLE" / "notes.txt").write_text("not a photo")
    (camera / "100APPLE" / "IMG_0006.JPG").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG at all")
    laptop = tmp_path / "laptop.zip"
    spring = taken(image(tmp_path, ".jpg", 160, 120), "2024:04:05 11:20:00", "+09:00")
    with zipfile.ZipFile(laptop, "w") as archive:
        archive.write(spring, "사진/벚꽃.jpg")
        archive.writestr("사진/.DS_Store", b"\x00\x00")
    spring.unlink()
    return camera, laptop


def entries(data, token):
    return sorted(get_once(data, token, "/api/v1/entries?limit=200")["items"], key=lambda e: e["date"])


def read(data, token, *paths):
    """GETs API paths from one server started for them."""
    running = Server(data).start()
    try:
        return [running.request("GET", path, None, token).json() for path in paths]
    finally:
        running.stop()


def import_photos(data, *paths, check=True, extra=()):
    result = saessak("import", "photos", *map(str, paths), "--json", *extra, data=data, check=check)
    return json.loads(result.stdout) if result.returncode == 0 else result


def test_a_camera_folder_and_a_zip_become_a_day_each(home, tmp_path):
    data, token = home
    camera, laptop = camera_folder(tmp_path)

    dry = import_photos(data, camera, laptop, extra=["--dry-run"])
    assert [(d["date"], d["photos"], d["clips"]) for d in dry["days"]] == [
        ("2023-12-25", 1, 0), ("2024-02-10", 2, 1), ("2024-02-11", 1, 0), ("2024-03-01", 1, 0), ("2024-04-05", 1, 0)], dry
    assert dry["added"] == {"entries": 5, "photos": 7} and dry["duplicates"] == {"photos": 1}, dry
    assert any("IMG_0006.JPG" in line for line in dry["skipped"]), dry
    assert "1 file(s) the same as another of the import: each taken once" in dry["warnings"], dry
    assert any("1 file(s) left out that are no photo or clip by their name (.txt 1)" in line for line in dry["warnings"]), dry
    assert entries(data, token) == [] and stored_originals(data) == []
    text = saessak("import", "photos", str(camera), str(laptop), "--dry-run", data=data).stdout
    assert "days: 5, 2023-12-25 to 2024-04-05" in text and "2024-02-10: 2 photo(s), 1 clip(s)" in text, text

    report = import_photos(data, camera, laptop, extra=["--child", "하늘"])
    assert report["added"] == {"entries": 5, "photos": 7}, report
    made = entries(data, token)
    children = {c["name"]: c["id"] for c in get_once(data, token, "/api/v1/children")["items"]}
    assert [(e["date"], e["timeZone"], e["title"], len(e["photoIds"])) for e in made] == [
        ("2023-12-25T18:30", "Asia/Seoul", "사진 1장", 1),
        ("2024-02-10T08:15", "Asia/Seoul", "사진 2장 · 동영상 1개", 3),
        ("2024-02-11T07:45", "Asia/Seoul", "사진 1장", 1),
        ("2024-03-01T10:00", "Etc/GMT-7", "사진 1장", 1),
        ("2024-04-05T11:20", "Asia/Seoul", "사진 1장", 1),
    ]
    assert all(e["childIds"] == [children["하늘"]] and e["tags"] == ["가져옴"] for e in made)
    # The day's photos in the order they were taken: the clip at 08:15 (its place is the clip's own), then 09:30, then 14:00.
    day = made[1]
    photos = read(data, token, *[f"/api/v1/photos/{p}" for p in day["photoIds"]])
    assert [p["takenAt"][:16] for p in photos] == ["2024-02-10T08:15", "2024-02-10T09:30", "2024-02-10T14:00"]
    assert photos[0]["mimeType"] == "video/quicktime" and day["place"]["latitude"] == pytest.approx(37.5665, abs=1e-3)
    assert made[3]["place"]["latitude"] == pytest.approx(13.7563, abs=1e-4) and "place" not in made[2]
    assert len(stored_originals(data)) == 7

    # Again: nothing added, nothing stored twice.
    again = import_photos(data, camera, laptop)
    assert again["added"] == {} and again["duplicates"] == {"photos": 8} and again["days"] == [], again
    assert entries(data, token) == made and len(stored_originals(data)) == 7


def test_a_photo_already_in_the_diary_is_not_stored_again_and_a_day_with_an_entry_can_take_the_rest(home, tmp_path):
    data, token = home
    photo = taken(image(tmp_path, ".jpg", 200, 150), "2024:05:05 10:00:00", "+09:00")
    other = taken(image(tmp_path, ".jpg", 200, 150), "2024:05:05 16:00:00", "+09:00")
    running = Server(data).start()
    try:
        kind, body = multipart([("upload.jpg", photo.read_bytes())])
        uploaded = running.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": kind})
        assert uploaded.status == 201, uploaded.body
        child = running.request("GET", "/api/v1/children", None, token).json()["items"][0]["id"]
        written = running.request("POST", "/api/v1/entries", {"title": "어린이날", "body": "", "date": "2024-05-05T09:00",
                                                               "childIds": [child], "photoIds": [uploaded.json()["items"][0]["id"]]}, token)
        assert written.status == 201, written.body
    finally:
        running.stop()
    folder = tmp_path / "phone"
    folder.mkdir()
    shutil.copy(photo, folder / "a.jpg")
    shutil.copy(other, folder / "b.jpg")
    dry = import_photos(data, folder, extra=["--dry-run"])
    assert dry["days"] == [{"date": "2024-05-05", "photos": 1, "clips": 0, "entriesThatDay": 1}], dry
    assert dry["duplicates"] == {"photos": 1} and dry["added"] == {"entries": 1, "photos": 1}
    text = saessak("import", "photos", str(folder), "--dry-run", data=data).stdout
    assert "2024-05-05: 1 photo(s), 0 clip(s) (the diary has 1 entry that day; --add-to-existing puts the photos into it)" in text, text
    # Asked to, the day's photo goes into the entry the diary has that day.
    joined = import_photos(data, folder, extra=["--dry-run", "--add-to-existing"])
    assert joined["days"][0]["intoEntry"] is True and joined["added"] == {"photos": 1}, joined
    report = import_photos(data, folder, extra=["--add-to-existing"])
    assert report["added"] == {"photos": 1}, report
    made = entries(data, token)
    assert [(e["title"], len(e["photoIds"])) for e in made] == [("어린이날", 2)] and len(stored_originals(data)) == 2
    assert import_photos(data, folder, extra=["--add-to-existing"])["added"] == {}


@first_pass_only
@pytest.mark.parametrize("arguments, message", [
    (["/nowhere/DCIM"], "/nowhere/DCIM: no such file or folder"),
    (["--child", "구름", "{folder}"], "--child: no child named '구름'"),
    (["--language", "fr", "{folder}"], "--language"),
])
def test_what_cannot_be_imported_is_named_and_changes_nothing(home, tmp_path, arguments, message):
    data, token = home
    folder = tmp_path / "phone"
    folder.mkdir()
    taken(image(tmp_path, ".jpg", 100, 100), "2024:01:01 10:00:00").rename(folder / "a.jpg")
    result = saessak("import", "photos", *[a.replace("{folder}", str(folder)) for a in arguments], data=data, check=False)
    assert result.returncode != 0 and message in result.stderr, result.stderr
    assert entries(data, token) == [] and stored_originals(data) == []


def test_an_import_killed_with_9_goes_on_where_it_stopped(home, tmp_path):
    data, token = home
    folder = tmp_path / "years"
    folder.mkdir()
    days = 40
    # One picture, copied, each copy made its own by the time exiftool writes into it (one exiftool for them all).
    picture = image(tmp_path, ".jpg", 400, 300)
    arguments = tmp_path / "exiftool.args"
    lines = []
    for number in range(days):
        day = datetime.date(2022, 1, 1) + datetime.timedelta(days=number * 3)
        for hour in (9, 15):
            copy = folder / f"{day}-{hour}.jpg"
            shutil.copy(picture, copy)
            lines += ["-q", "-overwrite_original", f"-DateTimeOriginal={day:%Y:%m:%d} {hour:02d}:00:00", "-OffsetTimeOriginal=+09:00",
                      str(copy), "-execute"]
    arguments.write_text("\n".join(lines) + "\n")
    run("exiftool", "-@", str(arguments))
    job = subprocess.Popen([BIN, "import", "photos", str(folder), "--data", str(data)], env=engine_environment(data),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # Killed once some days are stored and before the last (or at whatever point it reached on a fast machine).
    deadline = time.time() + 60
    while time.time() < deadline and len(stored_originals(data)) < 6 and job.poll() is None:
        time.sleep(0.05)
    job.send_signal(signal.SIGKILL)
    job.wait()
    partial = entries(data, token)
    assert len(partial) < days and all(len(e["photoIds"]) == 2 for e in partial)  # cut short; each day whole or not there
    report = import_photos(data, folder)
    assert report["added"].get("entries", 0) == days - len(partial), report
    made = entries(data, token)
    assert len(made) == days and all(len(e["photoIds"]) == 2 for e in made)
    assert len({p for e in made for p in e["photoIds"]}) == 2 * days
    # What the killed day had stored without its rows is stored by content: the run that went on took the same files.
    assert len(stored_originals(data)) == 2 * days


def utc(*when):
    """Seconds since 1970 of a UTC date and time, as Takeout's timestamps count."""
    return int(datetime.datetime(*when, tzinfo=datetime.timezone.utc).timestamp())


def takeout(tmp_path):
    """Two parts of a Takeout (see takeout.py for the format): old and 2024 sidecars, a name cut short, a second photo of
    the same name, an edited copy, a Live Photo, a photo without a sidecar, albums whose copies are in both parts, and
    a photo whose sidecar is in the other part."""
    def jpeg(width):
        return image_bytes(tmp_path, ".jpg", width, 100)
    one, two, three, three_again, four, four_edited = (jpeg(w) for w in (120, 130, 140, 150, 160, 170))
    cut = jpeg(180)
    heic = image_bytes(tmp_path, ".heic", 200, 100)
    clip = h264_mp4(tmp_path, name="live.mp4", seconds=1, size="160x90").read_bytes()
    screenshot = image_bytes(tmp_path, ".png", 100, 200)
    year = "Photos from 2021/"
    long_name = "20210506_놀이터에서_미끄럼틀을_처음_혼자_탄_날_기념사진.jpg"
    first = {
        year + "IMG_0001.JPG": one,
        year + sidecar_name("IMG_0001.JPG", "old"): sidecar(utc(2021, 5, 5, 1, 0), 37.5, 127.0, "어린이날 놀이공원"),
        year + "IMG_0002.JPG": two,
        year + long_name: cut,
        year + sidecar_name(long_name): sidecar(utc(2021, 5, 6, 0, 0)),
        year + "IMG_0003.JPG": three,
        year + sidecar_name("IMG_0003.JPG", "old"): sidecar(utc(2021, 5, 7, 3, 0)),
        year + "IMG_0003(1).JPG": three_again,
        year + sidecar_name("IMG_0003.JPG", "old", copy=1): sidecar(utc(2021, 6, 1, 3, 0)),
        year + "IMG_0004.JPG": four,
        year + "IMG_0004-edited.JPG": four_edited,
        year + sidecar_name("IMG_0004.JPG"): sidecar(utc(2021, 5, 7, 6, 0)),
        "제주 여행/metadata.json": album_metadata("제주 여행"),
        "제주 여행/IMG_0001.JPG": one,
        "제주 여행/" + sidecar_name("IMG_0001.JPG"): sidecar(utc(2021, 5, 5, 1, 0), 37.5, 127.0, "어린이날 놀이공원"),
    }
    second = {
        year + sidecar_name("IMG_0002.JPG"): sidecar(utc(2021, 5, 5, 5, 30)),
        year + "IMG_0005.HEIC": heic,
        year + "IMG_0005.MP4": clip,
        year + sidecar_name("IMG_0005.HEIC"): sidecar(utc(2021, 6, 1, 0, 0)),
        year + "Screenshot_20210602.png": (screenshot, (2021, 6, 2, 20, 0, 0)),
        "가족/metadata.json": album_metadata("가족"),
        "가족/IMG_0005.HEIC": heic,
        "가족/" + sidecar_name("IMG_0005.HEIC"): sidecar(utc(2021, 6, 1, 0, 0)),
        "print-subscriptions.json": "[]",
    }
    assert sidecar_name(long_name).endswith(".json") and len(sidecar_name(long_name)) == 51  # cut short, as Google cuts
    return write_parts(tmp_path, [first, second])


@first_pass_only
def test_a_google_photos_takeout(home, tmp_path):
    data, token = home
    parts = takeout(tmp_path)
    dry = import_photos(data, *parts, extra=["--dry-run"])
    assert [(d["date"], d["photos"], d["clips"]) for d in dry["days"]] == [
        ("2021-05-05", 2, 0), ("2021-05-06", 1, 0), ("2021-05-07", 2, 0), ("2021-06-01", 2, 1), ("2021-06-02", 1, 0)], dry
    assert "1 edited copy left out beside the original (--with-edited brings them)" in dry["warnings"], dry
    assert dry["duplicates"] == {"photos": 2} and dry["skipped"] == [], dry

    report = import_photos(data, *parts, extra=["--child", "바다"])
    assert report["added"] == {"entries": 5, "photos": 9}, report
    made = entries(data, token)
    assert [(e["date"], e["title"], e["tags"], e["body"]) for e in made] == [
        ("2021-05-05T10:00", "사진 2장", ["가져옴", "제주 여행"], "어린이날 놀이공원"),
        ("2021-05-06T09:00", "사진 1장", ["가져옴"], ""),
        ("2021-05-07T12:00", "사진 2장", ["가져옴"], ""),
        ("2021-06-01T09:00", "사진 2장 · 동영상 1개", ["가져옴", "가족"], ""),
        ("2021-06-02T20:00", "사진 1장", ["가져옴"], ""),
    ]
    assert made[0]["place"]["latitude"] == 37.5 and made[0]["place"]["longitude"] == 127.0 and "place" not in made[1]
    # The Live Photo's clip right after its still, then the second IMG_0003 (noon by its own sidecar).
    june = read(data, token, *[f"/api/v1/photos/{p}" for p in made[3]["photoIds"]])
    assert [(p["mimeType"], p["width"]) for p in june] == [("image/heic", 200), ("video/mp4", 160), ("image/jpeg", 150)]

    # Again, now with the edited copy: only it is new, in an entry of its own on its day.
    again = import_photos(data, *parts, extra=["--with-edited"])
    assert again["added"] == {"entries": 1, "photos": 1} and again["days"] == [
        {"date": "2021-05-07", "photos": 1, "clips": 0, "entriesThatDay": 1}], again
    assert len(entries(data, token)) == 6 and len(stored_originals(data)) == 10


@first_pass_only
def test_a_camera_whose_clock_was_never_set_is_named_before_anything_is_written(home, tmp_path):
    """A camera reset to its factory clock files its photos on 2000-01-01, years before the child was born (2019):
    the dry run says so, for the person to check (on the page, to leave that day unticked)."""
    data, token = home
    folder = tmp_path / "old camera"
    folder.mkdir()
    taken(image(tmp_path, ".jpg", 120, 90), "2000:01:01 00:03:00").rename(folder / "DSC00001.JPG")
    taken(image(tmp_path, ".jpg", 120, 90), "2024:01:01 10:00:00").rename(folder / "DSC00002.JPG")
    dry = import_photos(data, folder, extra=["--dry-run"])
    assert "1 day(s) before the children were born (a camera's clock not set?): 2000-01-01" in dry["warnings"], dry
    assert [d["date"] for d in dry["days"]] == ["2000-01-01", "2024-01-01"] and entries(data, token) == []
