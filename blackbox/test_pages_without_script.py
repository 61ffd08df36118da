"""The pages work without JavaScript: the entry editor posts its photos with the text (multipart), a form sent
back with a mistake keeps what was typed and uploaded, and the calculator takes one form post per key."""
import html
import re
import uuid

import pytest

from browser import Browser
from conftest import Server, make_family, new_child
from images import image

PASSWORD = "a long password"


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    data = tmp_path_factory.mktemp("noscript") / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    running.token = token
    yield running
    running.stop()


def form_data(pairs, files):
    """A multipart body from (name, value) pairs (names may repeat) and (name, filename, bytes) files."""
    boundary = f"saessak-{uuid.uuid4().hex}"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{n}"\r\n\r\n{v}\r\n'.encode() for n, v in pairs]
    for name, filename, data in files:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     f"Content-Type: image/jpeg\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, b"".join(parts)


def editor_action(browser, path):
    page = browser.request("GET", path)
    assert page.status == 200
    return html.unescape(re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1))


def test_an_entry_with_photos_in_one_post(family, tmp_path):
    child = new_child(family, family.token)
    browser = Browser(family)
    assert browser.sign_in("mom", PASSWORD).status == 303
    action = editor_action(browser, "/entries/new")
    assert "_csrf=" in action
    photos = [("files", f"{w}.jpg", image(tmp_path, ".jpg", w, 300).read_bytes()) for w in (501, 502)]
    fields = [("title", "공원 나들이"), ("body", "낙엽을 밟았다"), ("date", "2026-11-21T14:05"), ("child", child["id"]),
              ("tags", "공원, 가을"), ("place", "올림픽공원"), ("weather", "맑음")]

    # A mistake (no title) comes back as the form, with what was typed and the photos already taken in.
    headers, body = form_data([("title", "")] + fields[1:], photos)
    again = browser.request("POST", action, raw=body, headers=headers)
    assert again.status == 422 and "제목: 비어 있습니다" in again.text and "낙엽을 밟았다" in again.text
    kept = re.findall(r'name="photo" value="([0-9a-f-]{36})" checked', again.text)
    assert len(kept) == 2

    # Sent again with the title: the entry has both photos, in order.
    headers, body = form_data(fields + [("photo", p) for p in kept], [])
    made = browser.request("POST", editor_action(browser, "/entries/new"), raw=body, headers=headers)
    assert made.status == 303
    entry = made.getheader("Location")
    page = browser.request("GET", entry).text
    assert "공원 나들이" in page and "2026년 11월 21일 토요일" in page and page.count("<figure") == 2
    stored = family.request("GET", "/api/v1/entries/" + entry.rsplit("/", 1)[1], token=family.token).json()
    assert stored["photoIds"] == kept and stored["tags"] == ["공원", "가을"] and stored["place"]["name"] == "올림픽공원"

    # A form from another site (no token in the address) changes nothing.
    headers, body = form_data(fields, [])
    assert browser.request("POST", "/entries/new", raw=body, headers=headers).status == 403


def test_a_mistake_is_named_in_the_pages_language(family, tmp_path):
    """The editor's mistakes come back in the words of the page: which field, by its label, and what is wrong —
    in Korean first, in English when the person chose it; the API keeps its English `field: message`."""
    child = new_child(family, family.token)
    browser = Browser(family)
    browser.sign_in("mom", PASSWORD)
    fields = [("title", "첫눈"), ("body", ""), ("date", "2026-11-22T09:00")]

    # No child ticked (a group of boxes cannot be `required`): the form says so in Korean, nothing saved.
    headers, body = form_data(fields, [])
    again = browser.request("POST", editor_action(browser, "/entries/new"), raw=body, headers=headers)
    assert again.status == 422 and "아이들: 아이를 한 명 이상 골라 주세요." in again.text, again.text
    assert "must name" not in again.text and "childIds" not in again.text
    titles = [item["title"] for item in family.request("GET", "/api/v1/entries?limit=100", token=family.token).json()["items"]]
    assert "첫눈" not in titles

    # A file that is no photo, sent with the entry: refused in Korean, what was typed kept.
    headers, body = form_data(fields + [("child", child["id"])], [("files", "영수증.jpg", b"%PDF-1.7 not a photo at all")])
    refused = browser.request("POST", editor_action(browser, "/entries/new"), raw=body, headers=headers)
    assert refused.status == 422 and "사진이나 동영상으로 올릴 수 없는 파일입니다" in refused.text and "첫눈" in refused.text
    assert "is not a supported" not in refused.text

    # An anniversary on a day its month lacks, and a lunar leap month the year has not.
    csrf = browser.csrf("/anniversaries/new")
    day = browser.request("POST", "/anniversaries/new", form={"_csrf": csrf, "name": "기념일", "calendar": "solar", "month": "2", "day": "30"})
    assert day.status == 422 and "일: 양력 2월은 29일까지입니다." in day.text, day.text
    month = browser.request("POST", "/anniversaries/new", form={"_csrf": csrf, "name": "기념일", "calendar": "solar", "month": "열두", "day": "1"})
    assert month.status == 422 and "월: 숫자가 아닙니다." in month.text

    # A comment of nothing but spaces: named, on the entry's words, not an English error.
    entry = family.request("POST", "/api/v1/entries", {"title": "산책", "body": "", "date": "2026-11-22T10:00", "childIds": [child["id"]]},
                           token=family.token).json()
    csrf = browser.csrf(f"/entries/{entry['id']}")
    blank = browser.request("POST", f"/entries/{entry['id']}/comments", form={"_csrf": csrf, "text": "   "})
    assert blank.status == 422 and "댓글: 비어 있습니다" in blank.text and "must not" not in blank.text

    # The same mistakes in English for someone who chose it; the API's words are unchanged.
    english = Browser(family, headers={"Accept-Language": "en"})
    english.sign_in("mom", PASSWORD)
    headers, body = form_data(fields, [])
    again = english.request("POST", editor_action(english, "/entries/new"), raw=body, headers=headers)
    assert again.status == 422 and "Children: choose at least one child." in again.text
    headers, body = form_data(fields + [("child", child["id"])], [("files", "receipt.jpg", b"%PDF-1.7 not a photo at all")])
    refused = english.request("POST", editor_action(english, "/entries/new"), raw=body, headers=headers)
    assert refused.status in (413, 415, 422) and "is not a supported photo or video format" in refused.text
    csrf = english.csrf("/anniversaries/new")
    day = english.request("POST", "/anniversaries/new", form={"_csrf": csrf, "name": "Day", "calendar": "lunar", "month": "1", "day": "31"})
    assert day.status == 422 and "Day: Lunar month 1 has at most 30 days." in day.text
    api = family.request("POST", "/api/v1/entries", {"title": "첫눈", "body": "", "date": "2026-11-22T09:00", "childIds": []}, token=family.token)
    assert api.status == 422 and "childIds: must name at least one child" in api.json()["detail"]


def test_the_calculator_by_form_posts(family):
    browser = Browser(family)
    browser.sign_in("mom", PASSWORD)
    page = browser.request("GET", "/calculator").text
    for key in ("7", "×", "6", "="):
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
        state = html.unescape(re.search(r'name="state" value="([^"]*)"', page).group(1))
        answer = browser.request("POST", "/calculator", form={"_csrf": csrf, "state": state, "key": key})
        assert answer.status == 200
        page = answer.text
    assert re.search(r"<output[^>]*>42</output>", page)
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
    assert browser.request("POST", "/calculator", form={"_csrf": csrf, "state": "{", "key": "1"}).status == 400
