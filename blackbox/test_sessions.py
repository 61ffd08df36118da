"""Web sign-in through the real server: sessions and their cookies, CSRF, throttling, password change, family
switching, the first-run setup link."""
import re
import sqlite3
import time

import pytest

from browser import Browser
from conftest import Response, Server, make_family, saessak
from openapi_contract import check

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def contract(method, path, response):
    """Checks a browser's API answer against the OpenAPI document, as `call` does for token clients."""
    check(method, path, Response(response.status, response.headers, response.text.encode()))
    return response

PASSWORD = "a long password"  # what make_family sets


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    data = tmp_path_factory.mktemp("sessions") / "data"
    make_family(data, "mom", "우리집")
    make_family(data, "grandpa", "할아버지댁")
    saessak("admin", "add-member", "--username", "grandpa", "--family", "우리집", "--role", "viewer", data=data)
    running = Server(data).start()
    yield running
    running.stop()


def test_a_form_post_without_a_csrf_token_is_403(site):
    browser = Browser(site)
    browser.request("GET", "/login")
    assert "saessak_csrf" in browser.cookies
    refused = browser.request("POST", "/login", form={"username": "mom", "password": PASSWORD})
    assert refused.status == 403
    forged = browser.request("POST", "/login", form={"_csrf": "x" * 43, "username": "mom", "password": PASSWORD})
    assert forged.status == 403


def test_sign_in_sets_a_safe_session_cookie_and_rotates_it(site):
    browser = Browser(site)
    assert browser.request("GET", "/").getheader("Location") == "/login?next=%2F"
    answer = browser.sign_in("mom", PASSWORD)
    assert answer.status == 303 and answer.getheader("Location") == "/"
    cookie = next(line for line in browser.last_set_cookies if line.startswith("saessak_session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie and "Secure" not in cookie
    first = browser.cookies["saessak_session"]
    home = browser.request("GET", "/")
    assert home.status == 200 and "mom" in home.text and "우리집" in home.text
    assert home.getheader("Cache-Control") == "no-store"
    # Signing in again gives a new session; the old cookie stops working.
    browser.sign_in("mom", PASSWORD)
    assert browser.cookies["saessak_session"] != first
    stale = Browser(site)
    stale.cookies["saessak_session"] = first
    assert stale.request("GET", "/").status == 303
    # Behind a TLS proxy the cookie is Secure.
    tls = Browser(site, headers={"X-Forwarded-Proto": "https"})
    tls.sign_in("mom", PASSWORD)
    assert "Secure" in next(line for line in tls.last_set_cookies if line.startswith("saessak_session="))


def test_the_api_takes_the_session_cookie_with_a_csrf_header(site):
    browser = Browser(site)
    browser.sign_in("mom", PASSWORD)
    token = browser.csrf("/settings")
    assert browser.request("GET", "/api/v1/children").status == 200
    assert browser.request("POST", "/api/v1/memos", body={"title": "메모"}).status == 403
    made = browser.request("POST", "/api/v1/memos", body={"title": "메모"}, headers={"X-CSRF-Token": token})
    assert made.status == 201
    account = contract("GET", "/api/v1/account", browser.request("GET", "/api/v1/account"))
    assert account.status == 200


def test_sign_out_ends_the_session(site):
    browser = Browser(site)
    browser.sign_in("mom", PASSWORD)
    cookie = browser.cookies["saessak_session"]
    token = browser.csrf("/settings")
    assert browser.request("POST", "/logout", form={}).status == 403
    out = browser.request("POST", "/logout", form={"_csrf": token})
    assert out.status == 303 and out.getheader("Location") == "/login"
    assert "saessak_session" not in browser.cookies
    replay = Browser(site)
    replay.cookies["saessak_session"] = cookie
    assert replay.request("GET", "/api/v1/children").status == 401


@pytest.mark.parametrize("target, expected", [
    ("/account/password", "/account/password"),
    ("//evil.example/", "/"),
    ("https://evil.example/", "/"),
    ("/\\evil.example", "/"),
])
def test_no_open_redirect_after_sign_in(site, target, expected):
    assert Browser(site).sign_in("mom", PASSWORD, next_path=target).getheader("Location") == expected


def test_wrong_passwords_are_refused_without_saying_which_part(site):
    browser = Browser(site)
    wrong = browser.sign_in("mom", "not the password")
    nobody = browser.sign_in("nobody", "not the password")
    assert wrong.status == nobody.status == 200
    assert "아이디 또는 비밀번호가 올바르지 않습니다" in wrong.text and "saessak_session" not in browser.cookies
    english = Browser(site, headers={"Accept-Language": "en-US,en;q=0.9"})
    assert "Wrong username or password" in english.sign_in("mom", "nope").text


def test_switching_family_changes_what_the_session_sees(site):
    browser = Browser(site)
    browser.sign_in("grandpa", PASSWORD)
    account = browser.request("GET", "/api/v1/account")
    import json
    body = json.loads(account.text)
    assert {f["name"]: f["role"] for f in body["families"]} == {"할아버지댁": "owner", "우리집": "viewer"}
    other = next(f["id"] for f in body["families"] if f["id"] != body["familyId"])
    token = browser.csrf("/settings")
    assert browser.request("POST", "/account/family", form={"_csrf": token, "familyId": other}).status == 303
    assert json.loads(browser.request("GET", "/api/v1/account").text)["familyId"] == other
    back = browser.request("PUT", "/api/v1/account/family", body={"familyId": body["familyId"]}, headers={"X-CSRF-Token": token})
    assert contract("PUT", "/api/v1/account/family", back).status == 204
    assert json.loads(browser.request("GET", "/api/v1/account").text)["familyId"] == body["familyId"]
    # Not a family of theirs: 404, and nothing changes.
    stranger = "00000000-0000-4000-8000-000000000000"
    put = browser.request("PUT", "/api/v1/account/family", body={"familyId": stranger}, headers={"X-CSRF-Token": token})
    assert contract("PUT", "/api/v1/account/family", put).status == 404


def test_sessions_are_stored_hashed(site):
    browser = Browser(site)
    browser.sign_in("mom", PASSWORD)
    cookie = browser.cookies["saessak_session"]
    raw = b"".join(path.read_bytes() for path in site.data.glob("saessak.sqlite*"))
    assert cookie.encode() not in raw


def test_the_eleventh_wrong_password_in_a_minute_is_429(tmp_path):
    data = tmp_path / "data"
    make_family(data, "mina")
    running = Server(data).start()
    try:
        browser = Browser(running)
        for _ in range(10):
            assert browser.sign_in("mina", "wrong password").status == 200
        eleventh = browser.sign_in("mina", "wrong password")
        assert eleventh.status == 429 and 1 <= int(eleventh.getheader("Retry-After")) <= 60
        # Even the right password waits: the guesser must not learn it was right.
        assert browser.sign_in("mina", PASSWORD).status == 429
        # The same address is throttled for other accounts too.
        assert browser.sign_in("somebody", "wrong password").status == 429
    finally:
        running.stop()


def test_password_change_signs_out_other_devices(tmp_path):
    data = tmp_path / "data"
    make_family(data, "mina")
    running = Server(data).start()
    try:
        phone, laptop = Browser(running), Browser(running)
        phone.sign_in("mina", PASSWORD)
        laptop.sign_in("mina", PASSWORD)
        token = phone.csrf("/account/password")
        wrong = phone.request("POST", "/account/password", form={"_csrf": token, "currentPassword": "nope", "newPassword": "new long password"})
        assert wrong.status == 422
        short = phone.request("POST", "/account/password", form={"_csrf": token, "currentPassword": PASSWORD, "newPassword": "short"})
        assert short.status == 422
        changed = phone.request("POST", "/account/password", form={"_csrf": token, "currentPassword": PASSWORD, "newPassword": "new long password"})
        assert changed.status == 303 and changed.getheader("Location") == "/settings?done=password"
        assert "비밀번호를 바꿨습니다" in phone.request("GET", "/settings?done=password").text
        assert phone.request("GET", "/").status == 200
        assert laptop.request("GET", "/").status == 303
        assert Browser(running).sign_in("mina", PASSWORD).status == 200
        assert Browser(running).sign_in("mina", "new long password").status == 303
        # Through the API: never with a token, even an owner's, even knowing the password (issue 17) ...
        api_token = saessak("admin", "create-token", "--username", "mina", data=data).stdout.strip()
        refused = running.request("PUT", "/api/v1/account/password", {"currentPassword": "new long password", "newPassword": "third long password"}, api_token)
        check("PUT", "/api/v1/account/password", refused)
        assert refused.status == 403 and "session" in refused.json()["detail"]
        # ... but in the signed-in session, with its CSRF token and the current password.
        csrf = {"X-CSRF-Token": phone.csrf("/account/password")}
        wrong = phone.request("PUT", "/api/v1/account/password", body={"currentPassword": "wrong", "newPassword": "x" * 10}, headers=csrf)
        assert wrong.status == 422
        put = phone.request("PUT", "/api/v1/account/password", body={"currentPassword": "new long password", "newPassword": "third long password"}, headers=csrf)
        check("PUT", "/api/v1/account/password", Response(put.status, put.headers, put.body))
        assert put.status == 204
    finally:
        running.stop()


def test_first_run_prints_a_one_time_setup_link(tmp_path):
    data = tmp_path / "data"
    running = Server(data).start()
    try:
        deadline = time.time() + 10
        link = None
        while link is None and time.time() < deadline:
            log = (data.parent / f"server-{running.port}.log").read_text()
            # On the loopback address the link names localhost: a passkey can be made there, not on 127.0.0.1.
            match = re.search(rf"http://localhost:{running.port}(/setup\?token=\S+)", log)
            link = match and match.group(1)
            time.sleep(0.05)
        assert link, "no setup link printed"
        # The command line prints it too (a packaged server's output goes to the journal), from the data folder.
        assert saessak("admin", "setup-link", data=data).stdout.strip() == f"http://localhost:{running.port}{link}"
        assert (data / "setup-link").stat().st_mode & 0o777 == 0o600
        browser = Browser(running)
        assert browser.request("GET", "/setup?token=ssk_wrong").status == 404
        page = browser.request("GET", link)
        assert page.status == 200
        token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
        short = browser.request("POST", "/setup", form={"_csrf": csrf, "token": token, "username": "mina", "password": "short", "family": "우리집"})
        assert short.status == 422
        made = browser.request("POST", "/setup", form={"_csrf": csrf, "token": token, "username": "mina", "password": PASSWORD, "family": "우리집"})
        assert made.status == 303 and "saessak_session" in browser.cookies
        assert "우리집" in browser.request("GET", "/").text
        # Used once: gone, from the data folder too.
        assert Browser(running).request("GET", link).status == 404
        spent = saessak("admin", "setup-link", data=data, check=False)
        assert spent.returncode != 0 and "has its owner already" in spent.stderr
        again = Browser(running)
        again_csrf = again.csrf()
        assert again.request("POST", "/setup", form={"_csrf": again_csrf, "token": token, "username": "eve", "password": PASSWORD, "family": "x"}).status == 404
    finally:
        running.stop()
    # The command line keeps working beside it.
    assert make_family(data, "dad", "dad").startswith("ssk_")


def test_tokens_are_made_and_revoked_in_the_browser(site):
    browser = Browser(site)
    browser.sign_in("mom", PASSWORD)
    csrf = browser.csrf("/settings")
    assert browser.request("POST", "/account/tokens", form={"name": "액자", "role": "viewer"}).status == 403
    page = browser.request("POST", "/account/tokens", form={"_csrf": csrf, "name": "액자", "role": "viewer"})
    assert page.status == 200
    token = re.search(r"<code>(ssk_[A-Za-z0-9_-]+)</code>", page.text).group(1)
    assert site.request("GET", "/api/v1/children", token=token).status == 200
    assert site.request("POST", "/api/v1/memos", {"title": "x"}, token).status == 403
    revoke = re.search(r'action="(/account/tokens/[0-9a-f-]+/revoke)"', page.text).group(1)
    assert browser.request("POST", revoke, form={"_csrf": csrf}).status == 303
    assert site.request("GET", "/api/v1/children", token=token).status == 401
    assert "<code>" not in browser.request("GET", "/settings").text


def setup_link(running, data):
    """The path of the setup link a server with no users printed."""
    deadline = time.time() + 10
    while time.time() < deadline:
        match = re.search(r"http://localhost:\d+(/setup\?token=\S+)", (data.parent / f"server-{running.port}.log").read_text())
        if match:
            return match.group(1)
        time.sleep(0.05)
    raise AssertionError("no setup link printed")


def test_the_setup_link_makes_one_owner_however_many_use_it_at_once(tmp_path):
    """Issue 33: four parallel POSTs of the link made four users and four families (the link was spent after bcrypt)."""
    import threading
    data = tmp_path / "data"
    running = Server(data).start()
    try:
        link = setup_link(running, data)
        browsers = [Browser(running) for _ in range(6)]
        forms = []
        for number, browser in enumerate(browsers):
            page = browser.request("GET", link)
            assert page.status == 200
            forms.append({"_csrf": re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1),
                          "token": re.search(r'name="token" value="([^"]+)"', page.text).group(1),
                          "username": f"mina{number}", "password": PASSWORD, "family": f"집{number}"})
        barrier = threading.Barrier(len(browsers))
        answers = [None] * len(browsers)

        def post(number):
            barrier.wait()
            answers[number] = browsers[number].request("POST", "/setup", form=forms[number]).status

        threads = [threading.Thread(target=post, args=(n,)) for n in range(len(browsers))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [303] + [404] * (len(browsers) - 1), answers
        owners = [n for n in range(len(browsers)) if Browser(running).sign_in(f"mina{n}", PASSWORD).status == 303]
        assert owners == [answers.index(303)]
    finally:
        running.stop()


def test_a_refused_setup_keeps_the_link(tmp_path):
    """A name that cannot be used gives the link back: the owner tries again with another."""
    data = tmp_path / "data"
    running = Server(data).start()
    try:
        link = setup_link(running, data)
        browser = Browser(running)
        page = browser.request("GET", link)
        form = {"_csrf": re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1),
                "token": re.search(r'name="token" value="([^"]+)"', page.text).group(1), "password": PASSWORD, "family": "우리집"}
        assert browser.request("POST", "/setup", form={**form, "username": "no spaces allowed"}).status == 422
        assert browser.request("POST", "/setup", form={**form, "username": "mina"}).status == 303
    finally:
        running.stop()
