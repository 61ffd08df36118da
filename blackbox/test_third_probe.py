"""Regressions of the third outside probe (issue 33), each as the probe did it, through the real server: forged log
lines, feeds and share links that outlived "sign out everywhere", API answers a browser may keep on disk, text cut at
a NUL, limits counted in grapheme clusters, look-alike names, duplicate JSON keys. (Files that make our tools read
what they should not are test_media_tricks.py and test_import_iphotodiary.py; the setup link's race test_sessions.py.)"""
import socket

import pytest

from browser import Browser
from conftest import Server, make_family, new_child, new_entry, saessak

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]

PASSWORD = "a long password"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    data = tmp_path_factory.mktemp("third") / "data"
    owner = make_family(data, "mom", "우리집")
    running = Server(data).start()
    running.owner = owner
    running.data = data
    yield running
    running.stop()


def raw_request(server, target):
    """Sends a request line as given (no client library re-encodes it) and returns the status line."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        return connection.recv(4096).split(b"\r\n", 1)[0]


def test_a_request_cannot_write_a_line_of_its_own_into_the_log(site):
    """`%0d%0a` in a path started a fake line in the request log; `%1b[31m` wrote a terminal escape."""
    log = site.data.parent / f"server-{site.port}.log"
    before = log.read_bytes()
    assert b"404" in raw_request(site, "/x%0d%0a2026-11-25T00:00:00+0000%20info%20saessak%20:%20GET%20/admin%20200")
    assert b"404" in raw_request(site, "/y%1b%5b31mred%1b%5b0m%e2%80%ae%c2%85")
    written = log.read_bytes()[len(before):]
    lines = written.decode().splitlines()
    assert not any(line.startswith("2026-11-25T00:00:00") for line in lines), written
    assert b"\x1b" not in written and "\u202e" not in written.decode() and "\x85" not in written.decode()
    assert any("/x\\u{D}\\u{A}2026-11-25T00:00:00+0000 info saessak : GET /admin 200 404" in line for line in lines), written
    assert any("/y\\u{1B}[31mred\\u{1B}[0m\\u{202E}\\u{85} 404" in line for line in lines), written


def path_of(url):
    return "/" + url.split("/", 3)[3]


def test_signing_out_everywhere_ends_the_members_feeds_and_offers_to_end_their_share_links(tmp_path):
    """A stolen session kept the children's birthdays and vaccinations through the calendar feeds it made, and its
    share links, after "sign out everywhere" and a password reset."""
    data = tmp_path / "data"
    token = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        child = new_child(server, token)
        entry = new_entry(server, token, [child["id"]])
        browser = Browser(server)
        assert browser.sign_in("mom", PASSWORD).status == 303
        feed = path_of(server.request("POST", "/api/v1/feeds", {"label": "달력"}, token).json()["url"])
        link = path_of(server.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]]}, token).json()["url"])
        assert server.request("GET", feed).status == 200 and server.request("GET", link).status == 200

        out = browser.request("POST", "/logout/everywhere", form={"_csrf": browser.csrf("/settings")})
        assert out.status == 303
        assert server.request("GET", feed).status == 404
        # The share link is the family's to keep or end: the settings page names the member's and ends them at once.
        assert server.request("GET", link).status == 200
        again = Browser(server)
        assert again.sign_in("mom", PASSWORD).status == 303
        settings = again.request("GET", "/settings")
        assert "내가 만든 공유 링크 중 아직 열려 있는 것: 1개" in settings.text
        revoked = again.request("POST", "/settings/my-share-links/revoke", form={"_csrf": again.csrf("/settings")})
        assert revoked.status == 200 and "내가 만든 공유 링크를 모두 해제했습니다." in revoked.text
        assert "아직 열려 있는 것" not in revoked.text
        assert server.request("GET", link).status == 404
        # The English page says it too.
        assert server.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]]}, fresh_token(data)).status == 201
        assert "Share links you made that are still open: 1" in again.request("GET", "/settings?lang=en").text

        # A password reset from the command line ends feeds too.
        second = path_of(server.request("POST", "/api/v1/feeds", {}, fresh_token(data)).json()["url"])
        saessak("admin", "reset-password", "--username", "mom", "--password-stdin", data=data, stdin="another long password\n")
        assert server.request("GET", second).status == 404
    finally:
        server.stop()


def fresh_token(data):
    return saessak("admin", "create-token", "--username", "mom", data=data).stdout.strip()


@pytest.mark.parametrize("body, key", [
    ('{"title": "첫 걸음", "title": "<b>다른 제목</b>", "date": "2026-11-22T09:00", "childIds": []}', "title"),
    ('{"title": "t", "\\u0074itle": "u", "date": "2026-11-22T09:00", "childIds": []}', "title"),
    ('{"title": "t", "place": {"name": "a", "name": "b"}, "date": "2026-11-22T09:00", "childIds": []}', "name"),
])
def test_a_key_twice_in_one_object_is_refused(site, body, key):
    """Foundation read duplicate keys first-wins: a proxy reading last-wins would see another entry."""
    answer = site.request("POST", "/api/v1/entries", raw=body.encode(), token=site.owner, headers={"Content-Type": "application/json"})
    assert answer.status == 400 and answer.json()["field"] == key and "twice" in answer.json()["detail"], answer.body


@pytest.mark.parametrize("username, words", [
    ("mom\u3164", "invisible or formatting character (U+3164)"),
    ("m\u043em", "one alphabet"),
    ("\u217fom", "looks like a username already taken"),
    ("\uff4d\uff4f\uff4d", "looks like a username already taken"),
    ("MOM", "already exists"),
])
def test_a_username_that_passes_for_another_is_refused(site, username, words):
    """`mom` + U+3164 (an invisible Hangul filler) and `mоm` with a Cyrillic о were accepted beside `mom`."""
    made = saessak("admin", "create-user", "--username", username, "--password-stdin", data=site.data, stdin=PASSWORD + "\n",
                   check=False)
    assert made.returncode != 0 and words in made.stderr, made.stderr
    # The same through an invitation, on the page a new member fills in.
    invitation = site.request("POST", "/api/v1/invitations", {"role": "viewer"}, site.owner).json()
    path = "/" + invitation["url"].split("/", 3)[3]
    browser = Browser(site)
    page = browser.request("GET", path)
    csrf = page.text.split('name="_csrf" value="', 1)[1].split('"', 1)[0]
    joined = browser.request("POST", path, form={"_csrf": csrf, "username": username, "password": PASSWORD})
    assert joined.status in (409, 422), (joined.status, joined.text[:500])
    assert "saessak_session" not in browser.cookies


@pytest.mark.parametrize("field, path, body", [
    ("name", "/api/v1/children", {"name": "하늘\u3164", "birthDate": "2025-03-01"}),
    ("nickname", "/api/v1/children", {"name": "하늘", "nickname": "\u202e늘하", "birthDate": "2025-03-01"}),
    ("label", "/api/v1/feeds", {"label": "할머니\u200b달력"}),
    ("name", "/api/v1/tokens", {"name": "액자\u2800"}),
])
def test_a_name_people_read_holds_nothing_invisible(site, field, path, body):
    answer = site.request("POST", path, body, site.owner)
    assert answer.status == 422 and answer.json()["field"] == field and "U+" in answer.json()["detail"], answer.body
    # An emoji family keeps its joiners.
    assert site.request("POST", "/api/v1/children", {"name": "하늘 👨‍👩‍👧", "birthDate": "2025-03-01"}, site.owner).status == 201


def test_a_share_label_holds_nothing_invisible(site):
    entry = new_entry(site, site.owner, [new_child(site, site.owner)["id"]])
    answer = site.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]], "label": "할머니께\u202e"}, site.owner)
    assert answer.status == 422 and answer.json()["field"] == "label"


def test_names_with_capitals_beyond_ascii_are_found_on_every_engine(site):
    """Found by test_text_fields on PostgreSQL: `lower(?)` folded the argument with the database's collation and the
    column with "C" (ASCII only), so a tag `Ä` was silently dropped from its entry and `Ölga` could not sign in."""
    saessak("admin", "create-user", "--username", "Ölga", "--password-stdin", data=site.data, stdin=PASSWORD + "\n")
    assert Browser(site).sign_in("Ölga", PASSWORD).status == 303
    child = new_child(site, site.owner)
    for tag in ["Ä", "Ωmega", "Éclair"]:
        entry = new_entry(site, site.owner, [child["id"]], tags=[tag])
        assert site.request("GET", f"/api/v1/entries/{entry['id']}", None, site.owner).json()["tags"] == [tag]
        found = site.request("GET", "/api/v1/entries?tag=" + tag, None, site.owner).json()["items"]
        assert [e["id"] for e in found] == [entry["id"]], tag
