"""Issue 23 in a real browser (Debian's chromium through Selenium, phone size, as test_web_app.py): a grandparent
joins by the invitation, opens an entry on the phone, and answers — a heart and a comment, both within thumb reach —
while the entry itself stays the parents' to change."""
from selenium.webdriver.common.by import By

from conftest import Server, make_family
from openapi_contract import check
from test_web_app import PASSWORD, chrome, press, shot, url, wait  # noqa: F401 (chrome is a fixture)


def test_a_grandparent_hearts_and_comments_from_a_phone(chrome, tmp_path):  # noqa: F811
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        child = server.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-03-01"}, token).json()
        body = "\n\n".join(["공원에서 처음으로 세 걸음을 걸었다."] * 12)  # a long entry: the comment box must still be at hand
        entry = server.request("POST", "/api/v1/entries", {"title": "첫 걸음", "body": body, "date": "2026-11-22T10:00",
                                                            "childIds": [child["id"]]}, token).json()
        server.request("POST", f"/api/v1/entries/{entry['id']}/comments", {"text": "엄마가 먼저 남겨요"}, token)
        invitation = server.request("POST", "/api/v1/invitations", {"role": "viewer"}, token).json()["url"].split(str(server.port), 1)[1]
        chrome.delete_all_cookies()
        chrome.get(url(server, invitation))
        chrome.find_element(By.NAME, "username").send_keys("grandma")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
        wait(chrome, lambda d: d.current_url == url(server, "/"))

        # What mom writes after grandma joined is news to her, until she opens it (what came before is not).
        later = server.request("POST", "/api/v1/entries", {"title": "이유식 첫날", "body": "쌀미음", "date": "2026-11-23T09:00",
                                                            "childIds": [child["id"]]}, token).json()
        chrome.get(url(server, "/"))
        assert chrome.find_element(By.CSS_SELECTOR, ".news li").text == "mom(이)가 일기 1개를 올렸어요"
        chrome.get(url(server, "/timeline"))
        marked = [e.text for e in chrome.find_elements(By.CSS_SELECTOR, ".entry-card h3") if "새 글" in e.text]
        assert marked == ["새 글 이유식 첫날"], marked
        chrome.get(url(server, f"/entries/{later['id']}"))
        chrome.get(url(server, "/"))
        assert not chrome.find_elements(By.CSS_SELECTOR, ".news")
        for title in ("낮잠", "목욕"):
            server.request("POST", "/api/v1/entries", {"title": title, "body": "", "date": "2026-11-23T13:00", "childIds": [child["id"]]}, token)
        chrome.get(url(server, "/"))
        assert chrome.find_element(By.CSS_SELECTOR, ".news li").text == "mom(이)가 일기 2개를 올렸어요"
        press(chrome, chrome.find_element(By.CSS_SELECTOR, ".news button[type=submit]"))
        wait(chrome, lambda d: d.current_url == url(server, "/") and not d.find_elements(By.CSS_SELECTOR, ".news"))

        chrome.get(url(server, f"/entries/{entry['id']}"))
        assert not chrome.find_elements(By.CSS_SELECTOR, f"a[href='/entries/{entry['id']}/edit']")  # a viewer does not edit
        # The heart and the comment box sit just above the tab bar wherever the entry is scrolled: a thumb's reach.
        box = chrome.find_element(By.CSS_SELECTOR, ".comment-box textarea")
        for where in (0, 500, 100000):
            chrome.execute_script(f"window.scrollTo(0, {where})")
            for element in (box, chrome.find_element(By.CSS_SELECTOR, ".heart-form button")):
                top, bottom, height = chrome.execute_script(
                    "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, innerHeight];", element)
                assert height * 0.7 <= top and bottom <= height, (where, top, bottom, height)
        press(chrome, box)
        box.send_keys("우리 하늘이 최고! <할머니가>")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, ".comment-box button[type=submit]"))
        wait(chrome, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".comments li")) == 2)
        last = chrome.find_elements(By.CSS_SELECTOR, ".comments li")[-1]
        assert "grandma" in last.text and "우리 하늘이 최고! <할머니가>" in last.text
        assert last.find_elements(By.LINK_TEXT, "수정") and not chrome.find_elements(By.CSS_SELECTOR, ".comments li")[0].find_elements(By.LINK_TEXT, "수정")
        heart = chrome.find_element(By.CSS_SELECTOR, ".heart-form button")
        assert heart.get_attribute("aria-pressed") == "false"
        press(chrome, heart)
        heart = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, ".heart-form button[aria-pressed=true]"))
        assert "1" in heart.text and "grandma" in chrome.find_element(By.CSS_SELECTOR, ".reactions .hint").text
        chrome.execute_script("document.getElementById('comments').scrollIntoView()")
        shot(chrome, "entry-comments")
        answer = server.request("GET", f"/api/v1/entries/{entry['id']}/comments", token=token).json()["items"]
        assert [c["authorName"] for c in answer] == ["mom", "grandma"]
        assert server.request("GET", f"/api/v1/entries/{entry['id']}/hearts", token=token).json()["count"] == 1
    finally:
        server.stop()


def test_every_photo_says_how_old_the_child_was_and_the_album_shows_a_month(chrome, tmp_path):  # noqa: F811
    from images import image_bytes, jpeg_with_exif, multipart
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        child = server.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-03-01"}, token).json()
        files = [("plain.jpg", image_bytes(tmp_path, ".jpg", 320, 240)), ("old.jpg", jpeg_with_exif(tmp_path).read_bytes())]
        content_type, body = multipart(files)
        photos = server.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": content_type}).json()["items"]
        # 백일 is 2025-06-08; the second photo's EXIF says 2024-02-10, before the birth: no age for it, never a negative one.
        entry = server.request("POST", "/api/v1/entries", {"title": "백일 잔치", "body": "", "date": "2025-06-08T12:00",
                                                            "childIds": [child["id"]], "photoIds": [p["id"] for p in photos]}, token).json()
        # The API says the same: the entry's age, and each photo's at its capture day in the entry's photo list.
        assert entry["ages"] == [{"childId": child["id"], "korean": "백일", "english": "100th day"}]
        listed = server.request("GET", f"/api/v1/entries/{entry['id']}/photos", token=token)
        check("GET", f"/api/v1/entries/{entry['id']}/photos", listed)
        assert [p.get("ages") for p in listed.json()["items"]] == [entry["ages"], None]
        assert "ages" not in server.request("GET", f"/api/v1/photos/{photos[0]['id']}", token=token).json()
        chrome.delete_all_cookies()
        chrome.get(url(server, "/login"))
        chrome.find_element(By.NAME, "username").send_keys("mom")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        chrome.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait(chrome, lambda d: d.current_url == url(server, "/"))
        chrome.get(url(server, f"/entries/{entry['id']}"))
        assert "하늘 · 백일" in chrome.find_element(By.CSS_SELECTOR, "a.tag").text
        captions = [f.get_attribute("textContent") for f in chrome.find_elements(By.CSS_SELECTOR, ".slides figcaption")]
        assert captions == ["하늘 백일", "하늘"], captions
        chrome.get(url(server, "/timeline"))
        assert "하늘 백일" in chrome.find_element(By.CSS_SELECTOR, "main").text
        chrome.get(url(server, f"/album?child={child['id']}&month=2025-06"))
        items = chrome.find_elements(By.CSS_SELECTOR, ".album li")
        assert len(items) == 2 and items[0].text.startswith("백일")
        assert not items[1].find_elements(By.TAG_NAME, "strong")  # taken before the birth: no age at all
        assert items[0].find_element(By.TAG_NAME, "a").get_attribute("href").endswith(f"/entries/{entry['id']}#photo-1")
        shot(chrome, "album")
        # A single photo's own page: its age, the way back to its entry, and its comments.
        chrome.get(url(server, f"/entries/{entry['id']}"))
        press(chrome, chrome.find_elements(By.CSS_SELECTOR, ".photo-comments")[0])
        wait(chrome, lambda d: "/photos/" in d.current_url)
        assert "하늘 백일" in chrome.find_element(By.CSS_SELECTOR, "main .meta").text
        box = chrome.find_element(By.CSS_SELECTOR, ".comment-box textarea")
        box.send_keys("이 사진 액자에 넣자")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, ".comment-box button[type=submit]"))
        wait(chrome, lambda d: "이 사진 액자에 넣자" in d.find_element(By.CSS_SELECTOR, ".comments").text)
        assert f"entry={entry['id']}" in chrome.current_url
        assert [c["text"] for c in server.request("GET", f"/api/v1/photos/{photos[0]['id']}/comments", token=token).json()["items"]] == ["이 사진 액자에 넣자"]
        chrome.get(url(server, f"/entries/{entry['id']}"))
        assert chrome.find_elements(By.CSS_SELECTOR, ".photo-comments")[0].text == "💬 1"
        # The editor: a date before the birth gets a gentle word.
        chrome.get(url(server, f"/entries/{entry['id']}/edit"))
        date = chrome.find_element(By.NAME, "date")
        chrome.execute_script("arguments[0].value = '2024-12-01T10:00'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", date)
        wait(chrome, lambda d: "태어나기 전" in d.find_element(By.CSS_SELECTOR, "[data-unborn]").text)
    finally:
        server.stop()
