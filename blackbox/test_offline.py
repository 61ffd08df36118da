"""Issue 22 in a real browser (Debian's chromium through Selenium, as test_web_app.py): entries written and photos
picked with the server out of reach are kept on the device, survive a reload, and arrive exactly once and in order
when it answers again; a large upload whose connection is cut goes on from where the server's copy stops; an edit
of an entry changed elsewhere meanwhile shows both versions instead of overwriting."""
import hashlib
import http.client
import os
import re
import socket
import subprocess
import threading
import time

from selenium.webdriver.common.by import By

from conftest import Server, make_family
from images import image, jpeg_with_exif
from test_web_app import PASSWORD, chrome, press, url, wait  # noqa: F401 (chrome is a fixture)


def sign_in(driver, server):
    driver.get(url(server, "/login"))
    driver.find_element(By.NAME, "username").send_keys("mom")
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(driver, lambda d: d.current_url == url(server, "/"))
    assert driver.execute_async_script("const done = arguments[0]; navigator.serviceWorker.ready.then(() => done(true), () => done(false));")


def write(driver, title, body, files):
    driver.find_element(By.NAME, "title").send_keys(title)
    driver.find_element(By.NAME, "body").send_keys(body)
    press(driver, driver.find_element(By.CSS_SELECTOR, "input[name=child]"))
    driver.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys("\n".join(str(p) for p in files))
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-photos] [data-upload]")) == len(files))


def sha(data):
    return hashlib.sha256(data).hexdigest()


def family(tmp_path):
    """A data folder with one family (token `mom`) and its child 하늘, and a running server on it."""
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    server = Server(data).start()
    child = server.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-03-01"}, token).json()
    return data, token, server, child


def test_entries_written_offline_arrive_once_and_in_order(chrome, tmp_path):  # noqa: F811
    data, token, server, child = family(tmp_path)
    try:
        sign_in(chrome, server)
        for path in ("/entries/new", "/timeline", "/entries/new"):  # viewed once the worker controls the page: kept
            chrome.get(url(server, path))
        wait(chrome, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"))
    finally:
        server.stop()

    # Out of reach: two entries, three photos, kept on the device.
    files = [jpeg_with_exif(tmp_path), image(tmp_path, ".png", 500, 300), image(tmp_path, ".jpg", 300, 500)]
    chrome.get(url(server, "/entries/new"))
    write(chrome, "오프라인 일기 하나", "지하철에서", files[:2])
    wait(chrome, lambda d: "2장 대기 중" in d.find_element(By.CSS_SELECTOR, "[data-queue]").text)
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
    wait(chrome, lambda d: "연결되면 보냅니다" in d.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text)
    chrome.get(url(server, "/entries/new"))
    assert chrome.find_element(By.NAME, "title").get_attribute("value") == ""  # the queued draft is not opened again
    write(chrome, "오프라인 일기 둘", "할머니 댁에서", files[2:])
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
    wait(chrome, lambda d: "연결되면 보냅니다" in d.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text)
    chrome.get(url(server, "/timeline"))  # a reload: everything is still on the device
    banner = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "p.outbox").text)
    assert "보낼 일기 2개" in banner and "3장 대기 중" in banner, banner

    # The server answers again: the page sends everything by itself.
    server.start()
    try:
        wait(chrome, lambda d: "보냈습니다" in d.find_element(By.CSS_SELECTOR, "p.outbox").text, timeout=60)
        wait(chrome, lambda d: not d.execute_async_script(
            "const done = arguments[0]; Outbox.pending().then((p) => done(p.uploads.length + p.drafts.length));"), timeout=30)
        for _ in range(2):  # reloading and waiting sends nothing again
            chrome.get(url(server, "/timeline"))
        time.sleep(6)
        entries = server.request("GET", "/api/v1/entries?limit=50", token=token).json()["items"]
        assert sorted(e["title"] for e in entries) == ["오프라인 일기 둘", "오프라인 일기 하나"], entries
        first = next(e for e in entries if e["title"] == "오프라인 일기 하나")
        second = next(e for e in entries if e["title"] == "오프라인 일기 둘")
        versions = [int(server.request("GET", f"/api/v1/entries/{e['id']}", token=token).headers["ETag"].strip('"')) for e in (first, second)]
        assert versions[0] < versions[1]  # made in the order written (the ETag is the last change, in milliseconds)
        assert first["date"].startswith("2024-02-10T09:30")  # the first photo's EXIF date, filled on the device
        for entry, expected in ((first, files[:2]), (second, files[2:])):
            photos = server.request("GET", f"/api/v1/entries/{entry['id']}/photos", token=token).json()["items"]
            sent = [sha(server.request("GET", f"/api/v1/photos/{p['id']}/original", token=token).body) for p in photos]
            assert sent == [sha(p.read_bytes()) for p in expected]
        assert child["id"] in first["childIds"]
        originals = list((data / "photos" / "originals").rglob("*.*"))
        assert len(originals) == 3, originals
    finally:
        server.stop()


def random_png(folder, width, height):
    """A PNG of random pixels: as large as its pixels (nothing in it compresses), about 9.6 MB at 2000×1600."""
    raw = folder / "random.ppm"
    raw.write_bytes(f"P6 {width} {height} 255\n".encode() + os.urandom(width * height * 3))
    out = folder / "random.png"
    subprocess.run(["vips", "copy", str(raw), str(out)], check=True, capture_output=True)
    raw.unlink()
    return out


class CuttingProxy:
    """A loopback TCP proxy between the browser and the server that counts the bytes it passes to the server,
    slows them to `rate` bytes a second (so that a cut lands mid-upload), and can cut every connection and refuse
    new ones for a while: the network going away and coming back."""

    def __init__(self, target_port, rate=3_000_000):
        self.target_port, self.rate = target_port, rate
        self.to_server = 0
        self.down = False
        self.sockets = set()
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.sockets |= {client, upstream}
            threading.Thread(target=self.pump, args=(client, upstream, True), daemon=True).start()
            threading.Thread(target=self.pump, args=(upstream, client, False), daemon=True).start()

    def pump(self, source, sink, counted):
        try:
            while True:
                chunk = source.recv(16384)
                if not chunk:
                    break
                if counted:
                    with self.lock:
                        self.to_server += len(chunk)
                    time.sleep(len(chunk) / self.rate)
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def cut(self, seconds):
        self.down = True
        with self.lock:
            for end in self.sockets:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                    end.close()
                except OSError:
                    pass
            self.sockets.clear()
        time.sleep(seconds)
        self.down = False

    def close(self):
        self.listener.close()


def test_a_large_upload_cut_off_goes_on_from_where_it_stopped(chrome, tmp_path):  # noqa: F811
    data, token, server, _ = family(tmp_path)
    proxy = CuttingProxy(server.port)
    try:
        big = random_png(tmp_path, 2000, 1600)
        size = big.stat().st_size
        assert size > 8_000_000
        site = type("Site", (), {"port": proxy.port})()
        sign_in(chrome, site)
        chrome.get(url(site, "/entries/new"))
        before = proxy.to_server
        chrome.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(big))
        deadline = time.time() + 60
        while proxy.to_server - before < size * 0.4 and time.time() < deadline:
            time.sleep(0.05)
        at_cut = proxy.to_server - before
        assert at_cut < size  # cut mid-way
        proxy.cut(3)
        item = "[data-photos] input[name=photo]"
        wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, item), timeout=90)
        sent = proxy.to_server - before
        assert sent < 1.5 * size, f"{sent} bytes went to the server for a file of {size}"
        photo = chrome.find_element(By.CSS_SELECTOR, item).get_attribute("value")
        assert server.request("GET", f"/api/v1/photos/{photo}/original", token=token).body == big.read_bytes()
        log = (data.parent / f"server-{server.port}.log").read_text()
        assert len(re.findall(r"PATCH /api/v1/uploads/\S+ 409", log)) <= 1
    finally:
        proxy.close()
        server.stop()


def test_an_edit_of_an_entry_changed_meanwhile_shows_both_versions(chrome, tmp_path):  # noqa: F811
    _, token, server, child = family(tmp_path)
    try:
        entry = server.request("POST", "/api/v1/entries", {"title": "처음 제목", "body": "처음", "date": "2026-11-22T10:00",
                                                            "childIds": [child["id"]]}, token).json()
        sign_in(chrome, server)
        chrome.get(url(server, f"/entries/{entry['id']}/edit"))
        # Meanwhile, on another phone:
        changed = server.request("PUT", f"/api/v1/entries/{entry['id']}", {"title": "아빠가 고친 제목", "body": "아빠 폰에서",
                                 "date": "2026-11-22T10:00", "childIds": [child["id"]]}, token)
        assert changed.status == 200
        title = chrome.find_element(By.NAME, "title")
        title.clear()
        title.send_keys("엄마가 고친 제목")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
        versions = wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, ".versions .version"))
        assert "엄마가 고친 제목" in versions[0].text and "아빠가 고친 제목" in versions[1].text
        assert server.request("GET", f"/api/v1/entries/{entry['id']}", token=token).json()["title"] == "아빠가 고친 제목"
        press(chrome, chrome.find_element(By.XPATH, "//button[contains(., '이 기기의 내용으로 저장')]"))
        wait(chrome, lambda d: d.current_url == url(server, f"/entries/{entry['id']}"))
        assert server.request("GET", f"/api/v1/entries/{entry['id']}", token=token).json()["title"] == "엄마가 고친 제목"
    finally:
        server.stop()


OUTBOX_DRAFTS = "const done = arguments[0]; Outbox.all('drafts').then((d) => done(d.map((x) => x.fields.title)));"


def test_the_same_member_signing_in_again_keeps_unsent_drafts_and_another_member_finds_nothing(chrome, tmp_path):  # noqa: F811
    data, token, server, child = family(tmp_path)
    make_family(data, "dad", "아빠네")
    try:
        sign_in(chrome, server)
        chrome.get(url(server, "/timeline"))
        chrome.get(url(server, "/entries/new"))
        chrome.find_element(By.NAME, "title").send_keys("보내지 못한 일기")
        wait(chrome, lambda d: d.execute_async_script(OUTBOX_DRAFTS) == ["보내지 못한 일기"])
        # The session runs out (the cookie is gone) and the same member signs in again: the draft is still there.
        chrome.delete_all_cookies()
        sign_in(chrome, server)
        assert chrome.execute_async_script(OUTBOX_DRAFTS) == ["보내지 못한 일기"]
        # Another member signs in on the same device: nothing of the last one is left to see.
        chrome.delete_all_cookies()
        chrome.get(url(server, "/login"))
        chrome.find_element(By.NAME, "username").send_keys("dad")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait(chrome, lambda d: d.current_url == url(server, "/"))
        wait(chrome, lambda d: d.execute_async_script(OUTBOX_DRAFTS) == [])
        kept = chrome.execute_async_script(
            "const done = arguments[0]; (async () => { const urls = []; for (const name of await caches.keys()) "
            "for (const r of await (await caches.open(name)).keys()) urls.push(r.url); done(urls); })();")
        assert not [u for u in kept if u.endswith("/timeline")], kept
    finally:
        server.stop()


def test_a_file_the_server_refuses_leaves_the_queue_with_its_reason_and_the_others_go_on(chrome, tmp_path):  # noqa: F811
    data, token, server, child = family(tmp_path)
    try:
        sign_in(chrome, server)
        fake = tmp_path / "notes.jpg"
        fake.write_bytes(b"this is a shopping list, not a photo\n" * 50)
        good = image(tmp_path, ".jpg", 320, 240)
        chrome.get(url(server, "/entries/new"))
        chrome.find_element(By.NAME, "title").send_keys("사진 한 장만")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "input[name=child]"))
        chrome.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(f"{fake}\n{good}")
        alert = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "[data-photos] [role=alert]"))
        assert "notes.jpg" in alert.text and "not a supported" in alert.text
        wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")) == 1)
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
        wait(chrome, lambda d: re.search(r"/entries/[0-9a-f-]{36}$", d.current_url))
        entry_id = chrome.current_url.rsplit("/", 1)[1]
        photos = server.request("GET", f"/api/v1/entries/{entry_id}/photos", token=token).json()["items"]
        assert len(photos) == 1
        assert server.request("GET", f"/api/v1/photos/{photos[0]['id']}/original", token=token).body == good.read_bytes()
    finally:
        server.stop()


def share_from_the_gallery(driver, server, files):
    """What Android does when photos are shared to the installed app: a navigation that POSTs them to the manifest's
    share target as multipart/form-data, under the name the manifest gives (`photos`)."""
    driver.execute_script("""
        const form = Object.assign(document.createElement("form"), { method: "post", action: "/share", enctype: "multipart/form-data" });
        form.append(Object.assign(document.createElement("input"), { type: "file", name: "photos", multiple: true }));
        form.dataset.gallery = "";
        document.body.append(form);""")
    driver.find_element(By.CSS_SELECTOR, "form[data-gallery] input").send_keys("\n".join(str(p) for p in files))
    driver.execute_script("document.querySelector('form[data-gallery]').submit()")


def keep_shared(driver):
    """The member's "넣기" for photos shared to the app: nothing is uploaded before it."""
    wait(driver, lambda d: any(b.text == "넣기" for b in d.find_elements(By.CSS_SELECTOR, "[data-draft-notice] button")), timeout=60)
    press(driver, next(b for b in driver.find_elements(By.CSS_SELECTOR, "[data-draft-notice] button") if b.text == "넣기"))


def stored_photos(data):
    from conftest import query_sql
    return query_sql(data, "SELECT count(*) FROM photos")[0][0]


def test_the_installed_app_writes_offline_at_once_and_takes_photos_shared_from_the_gallery(chrome, tmp_path):  # noqa: F811
    """Issue 40: a fresh install, signed in, the editor never opened: offline, 쓰기 opens the editor (kept ready at the
    sign-in) and the entry arrives once. Photos shared from the gallery land in the editor's queue, signed in or after
    signing in again; a browser without the service worker is told they did not arrive."""
    data, token, server, child = family(tmp_path)
    try:
        sign_in(chrome, server)
        manifest = chrome.execute_cdp_cmd("Page.getAppManifest", {})
        assert manifest.get("errors") == [] and '"share_target"' in manifest["data"], manifest  # Chromium's own parser
        wait(chrome, lambda d: d.execute_async_script(
            "const done = arguments[0]; caches.open('saessak-pages').then((c) => c.match(location.origin + '/entries/new')).then((r) => done(!!r));"))
    finally:
        server.stop()

    chrome.get(url(server, "/entries/new"))
    wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-editor]"))
    chrome.find_element(By.NAME, "title").send_keys("처음부터 오프라인")
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "input[name=child]"))
    press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
    wait(chrome, lambda d: "연결되면 보냅니다" in d.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text)

    server.start()
    try:
        wait(chrome, lambda d: [e["title"] for e in server.request("GET", "/api/v1/entries", token=token).json()["items"]]
             == ["처음부터 오프라인"], timeout=60)

        # Shared from the gallery while signed in: the editor opens with the photos in its queue, and they go.
        photos = [jpeg_with_exif(tmp_path), image(tmp_path, ".png", 300, 200)]
        chrome.get(url(server, "/"))
        share_from_the_gallery(chrome, server, photos)
        wait(chrome, lambda d: "/entries/new?shared=2" in d.current_url)
        keep_shared(chrome)
        wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")) == 2, timeout=60)
        assert "공유한 사진 2장을 넣었습니다" in chrome.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text
        chrome.find_element(By.NAME, "title").send_keys("갤러리에서")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "input[name=child]"))
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-editor] button[type=submit]"))
        wait(chrome, lambda d: re.search(r"/entries/[0-9a-f-]{36}$", d.current_url), timeout=60)
        entry = next(e for e in server.request("GET", "/api/v1/entries", token=token).json()["items"] if e["title"] == "갤러리에서")
        sent = [sha(server.request("GET", f"/api/v1/photos/{p}/original", token=token).body) for p in entry["photoIds"]]
        assert sent == [sha(p.read_bytes()) for p in photos]

        # The session ran out on the phone: the photo waits on the device through the sign-in page.
        chrome.delete_cookie("saessak_session")
        clip = image(tmp_path, ".jpg", 200, 300)
        chrome.get(url(server, "/offline"))
        share_from_the_gallery(chrome, server, [clip])
        wait(chrome, lambda d: "/login" in d.current_url)
        chrome.find_element(By.NAME, "username").send_keys("mom")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        keep_shared(chrome)
        wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-photos] input[name=photo]")) == 1, timeout=60)
        assert "/entries/new" in chrome.current_url

        # A page of another site posts a share (a form is all it takes): the photo waits on the device, shown, and
        # nothing is uploaded unless the member keeps it; discarded, it is gone.
        before = stored_photos(data)
        planted = image(tmp_path, ".png", 120, 80)
        chrome.get("data:text/html,<form method=post enctype=multipart/form-data action=" + url(server, "/share")
                   + "><input type=file name=photos></form>")
        chrome.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(planted))
        chrome.execute_script("document.forms[0].submit()")
        wait(chrome, lambda d: "/entries/new?shared=1" in d.current_url)
        wait(chrome, lambda d: "이 일기에 넣을까요" in d.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text)
        time.sleep(3)  # what an upload would take on loopback, several times over
        assert stored_photos(data) == before and not list((data / "uploads").glob("*.part"))
        press(chrome, next(b for b in chrome.find_elements(By.CSS_SELECTOR, "[data-draft-notice] button") if b.text == "버리기"))
        wait(chrome, lambda d: "버렸습니다" in d.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text)
        chrome.get(url(server, "/entries/new"))
        wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, "form[data-editor]"))
        assert "공유한 사진" not in chrome.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text
        assert stored_photos(data) == before

        # Without the service worker the POST reaches the server, which keeps nothing and says so.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("POST", "/share", body=b"--x--\r\n", headers={"Content-Type": "multipart/form-data; boundary=x"})
        answer = connection.getresponse()
        assert answer.status == 303 and answer.getheader("Location") == "/entries/new?shared=lost"
        connection.close()
        chrome.get(url(server, "/entries/new?shared=lost"))
        wait(chrome, lambda d: "공유한 사진을 받지 못했습니다" in d.find_element(By.CSS_SELECTOR, "[data-draft-notice]").text)
    finally:
        server.stop()
