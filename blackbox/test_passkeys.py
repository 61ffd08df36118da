"""Passkeys (WebAuthn; docs/security.md, "Passkeys"): adding one, signing in with it alone, and every answer that must
be refused. The answers come from two authenticators outside our code: a software one built with Yubico's python-fido2
(its CBOR, COSE keys and client data) and `cryptography`'s keys, for the cases a browser never makes (another origin, a
replay, a cloned counter); and Chromium's own virtual authenticator (the DevTools protocol's
`WebAuthn.addVirtualAuthenticator`, through Selenium), for the real ceremony in the real pages.
"""
import base64
import hashlib
import json
import os

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from fido2 import cbor, cose
from fido2.webauthn import AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

from browser import Browser
from conftest import ENGINE, PHOTOS, Server, execute_sql, make_family, query_sql
from test_web_app import PASSWORD, chrome, wait  # noqa: F401 (the same headless Chromium as the web app's tests)

pytestmark = [pytest.mark.engine]
first_pass_only = pytest.mark.skipif(ENGINE != "sqlite" or PHOTOS != "folder", reason="the browser's part is the same on every engine")

FLAGS = AuthenticatorData.FLAG


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """An authenticator in software: a key pair, a credential id and a counter."""

    def __init__(self, kind="es256"):
        if kind == "es256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            self.public = cose.ES256.from_cryptography_key(self.private.public_key())
        else:
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.public = cose.RS256.from_cryptography_key(self.private.public_key())
        self.kind = kind
        self.credential_id = os.urandom(32)
        self.counter = 0
        self.user_handle = None

    def create(self, options, origin, flags=FLAGS.UP | FLAGS.UV | FLAGS.AT, rp_id=None):
        self.user_handle = unb64url(options["user"]["id"])
        client = CollectedClientData.create("webauthn.create", unb64url(options["challenge"]), origin)
        credential = AttestedCredentialData.create(b"\0" * 16, self.credential_id, self.public)
        data = AuthenticatorData.create(hashlib.sha256((rp_id or options["rp"]["id"]).encode()).digest(), flags, self.counter, credential)
        attestation = AttestationObject.create("none", data, {})
        return {"clientDataJSON": b64url(client), "attestationObject": b64url(bytes(attestation))}

    def get(self, options, origin, flags=FLAGS.UP | FLAGS.UV, step=1, rp_id=None, type="webauthn.get"):
        self.counter += step
        client = CollectedClientData.create(type, unb64url(options["challenge"]), origin)
        data = AuthenticatorData.create(hashlib.sha256((rp_id or options["rpId"]).encode()).digest(), flags, self.counter)
        signed = bytes(data) + hashlib.sha256(client).digest()
        if self.kind == "es256":
            signature = self.private.sign(signed, ec.ECDSA(hashes.SHA256()))
        else:
            signature = self.private.sign(signed, padding.PKCS1v15(), hashes.SHA256())
        return {"id": b64url(self.credential_id), "clientDataJSON": b64url(client), "authenticatorData": b64url(bytes(data)),
                "signature": b64url(signature), "userHandle": b64url(self.user_handle) if self.user_handle else None}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    data = tmp_path_factory.mktemp("passkeys") / "saessak-data"
    make_family(data, "grandma", "할머니네")
    make_family(data, "mina", "민아네")
    running = Server(data)
    running.origin = f"http://localhost:{running.port}"
    running.extra_args = ["--public-url", running.origin]
    running.start()
    yield running
    running.stop()


# Each test signs in from an address of its own (127.0.0.2 …): the refusals one test provokes count towards the sign-in
# limit of its address, not of the next test's.
addresses = (f"127.0.0.{n}" for n in range(2, 250))


@pytest.fixture
def address():
    return next(addresses)


def signed_in(site, username, address=None):
    browser = Browser(site, source=address)
    assert browser.sign_in(username, PASSWORD).status == 303
    browser.token = browser.csrf("/settings")
    return browser


def add_passkey(site, browser, authenticator, name="할머니 휴대폰", origin=None):
    options = browser.request("POST", "/settings/passkeys/options", body={}, headers={"X-CSRF-Token": browser.token})
    assert options.status == 200, options.text
    options = json.loads(options.text)
    answer = authenticator.create(options, origin or site.origin)
    return browser.request("POST", "/settings/passkeys", body={"name": name, **answer}, headers={"X-CSRF-Token": browser.token})


def passkey_sign_in(site, authenticator, tweak=None, address=None, **answer_changes):
    """A browser that is not signed in tries the passkey; returns (response, browser, the answer sent)."""
    browser = Browser(site, source=address)
    token = browser.csrf("/login")
    options = browser.request("POST", "/login/passkey/options", body={}, headers={"X-CSRF-Token": token})
    assert options.status == 200, options.text
    options = json.loads(options.text)
    answer = authenticator.get(options, site.origin, **(tweak or {}))
    answer.update(answer_changes)
    response = browser.request("POST", "/login/passkey", body={**answer, "next": "/settings"}, headers={"X-CSRF-Token": token})
    return response, browser, answer


def test_a_member_adds_a_passkey_and_signs_in_with_it_alone(site, address):
    browser = signed_in(site, "grandma", address)
    options = json.loads(browser.request("POST", "/settings/passkeys/options", body={}, headers={"X-CSRF-Token": browser.token}).text)
    # The options bind the passkey to this site, ask for the fingerprint/face/PIN, and want nothing proven of the make.
    assert options["rp"]["id"] == "localhost"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["attestation"] == "none"
    assert {p["alg"] for p in options["pubKeyCredParams"]} == {-7, -257}
    for kind, name in (("es256", "할머니 휴대폰"), ("rs256", "할머니 노트북")):
        authenticator = SoftAuthenticator(kind)
        added = add_passkey(site, browser, authenticator, name)
        assert added.status == 201, added.text
        assert json.loads(added.text)["name"] == name
        response, anonymous, _ = passkey_sign_in(site, authenticator, address=address)
        assert response.status == 200, response.text
        assert json.loads(response.text)["next"] == "/settings"
        settings = anonymous.request("GET", "/settings")
        assert settings.status == 200 and "grandma" in settings.text
    page = browser.request("GET", "/settings/sign-in")
    assert "할머니 휴대폰" in page.text and "할머니 노트북" in page.text and "마지막 사용" in page.text
    # A browser made it a device of hers: the sign-in went into the family's record.
    assert int(query_sql(site.data, "SELECT count(*) FROM activity WHERE action = 'signedIn'")[0][0]) >= 1


def test_answers_that_must_be_refused(site, address):
    authenticator = SoftAuthenticator()
    browser = signed_in(site, "mina", address)
    # Made for another site: the browser there would have written its own origin.
    refused = add_passkey(site, browser, authenticator, origin="http://evil.example")
    assert refused.status == 400 and "another site" in refused.text
    assert add_passkey(site, browser, authenticator, name="민아 폰").status == 201
    # The same credential twice.
    assert add_passkey(site, browser, authenticator, name="또").status == 409

    def refused(**changes):
        response, _, _ = passkey_sign_in(site, authenticator, address=address, **changes)
        return response.status, json.loads(response.text).get("detail")

    neutral = (401, "the passkey was not accepted")
    assert refused(tweak={"rp_id": "evil.example"}) == neutral
    assert refused(tweak={"flags": FLAGS.UP}) == neutral  # the fingerprint/face/PIN was not checked
    assert refused(tweak={"type": "webauthn.create"}) == neutral
    # A challenge we never gave.
    forged = authenticator.get({"challenge": b64url(os.urandom(32)), "rpId": "localhost"}, site.origin)
    assert refused(**forged) == neutral
    # Another member's user handle beside this passkey.
    assert refused(userHandle=b64url(os.urandom(16))) == neutral
    # Unknown credential (the answer says nothing of whether an account has one).
    assert refused(id=b64url(os.urandom(32))) == neutral
    # A signature of other bytes.
    assert refused(signature=b64url(b"0" * 70)) == neutral
    # Replayed: the same answer again, word for word.
    response, _, answer = passkey_sign_in(site, authenticator, address=address)
    assert response.status == 200
    again = Browser(site, source=address)
    token = again.csrf("/login")
    replay = again.request("POST", "/login/passkey", body=answer, headers={"X-CSRF-Token": token})
    assert replay.status == 401
    # A clone: a copy of the authenticator whose counter is behind the one in use.
    authenticator.counter -= 2
    assert refused() == neutral
    authenticator.counter += 10
    assert passkey_sign_in(site, authenticator, address=address)[0].status == 200


def test_bad_bytes_get_clear_answers_never_a_crash(site, address):
    browser = signed_in(site, "mina", address)
    headers = {"X-CSRF-Token": browser.token}
    for body in ({"name": "x", "clientDataJSON": "!!", "attestationObject": "AA"},
                 {"name": "x", "clientDataJSON": b64url(b"{}"), "attestationObject": b64url(b"\xff" * 40)},
                 {"name": "", "clientDataJSON": "", "attestationObject": ""},
                 {"name": "가" * 61, "clientDataJSON": "", "attestationObject": ""},
                 {"clientDataJSON": 5}):
        response = browser.request("POST", "/settings/passkeys", body=body, headers=headers)
        assert 400 <= response.status < 500, (body, response.status, response.text)
    # A real challenge with an attestation object of junk CBOR: the CBOR reader's message.
    options = json.loads(browser.request("POST", "/settings/passkeys/options", body={}, headers=headers).text)
    client = CollectedClientData.create("webauthn.create", unb64url(options["challenge"]), site.origin)
    junk = cbor.encode({"fmt": "none", "authData": b"\x00" * 10})[:-3]
    response = browser.request("POST", "/settings/passkeys", body={"name": "x", "clientDataJSON": b64url(client), "attestationObject": b64url(junk)}, headers=headers)
    assert response.status == 400 and "CBOR" in response.text
    anonymous = Browser(site, source=address)
    token = anonymous.csrf("/login")
    for body in ({}, {"id": "%%%", "clientDataJSON": "", "authenticatorData": "", "signature": ""}, [1, 2]):
        response = anonymous.request("POST", "/login/passkey", body=body, headers={"X-CSRF-Token": token})
        assert 400 <= response.status < 500, (body, response.status, response.text)
    assert site.answering(5)


def test_only_a_signed_in_browser_adds_a_passkey(site, address):
    token = make_family(site.data, "tokenholder", "토큰네")
    assert site.request("POST", "/settings/passkeys/options", {}, token).status == 403
    # Without the page's CSRF token another site's script cannot start one either.
    browser = signed_in(site, "mina", address)
    assert browser.request("POST", "/settings/passkeys/options", body={}).status == 403


def test_a_passkey_is_removed_but_never_the_last_way_to_sign_in(site, address):
    make_family(site.data, "removes", "지우는집")
    browser = signed_in(site, "removes", address)
    authenticator = SoftAuthenticator()
    assert add_passkey(site, browser, authenticator, name="하나").status == 201
    passkey_id = query_sql(site.data, "SELECT p.id FROM passkeys p JOIN users u ON u.id = p.userId WHERE u.username = 'removes'")[0][0]
    # An account with no password (restored from a family backup): its one passkey stays.
    execute_sql(site.data, "UPDATE users SET passwordHash = '!' WHERE username = 'removes'")
    kept = browser.request("POST", f"/settings/passkeys/{passkey_id}/delete", form={"_csrf": browser.token})
    assert kept.status == 409 and "last way to sign in" in kept.text
    assert passkey_sign_in(site, authenticator, address=address)[0].status == 200
    second = SoftAuthenticator()
    assert add_passkey(site, browser, second, name="둘").status == 201
    removed = browser.request("POST", f"/settings/passkeys/{passkey_id}/delete", form={"_csrf": browser.token})
    assert removed.status == 303
    assert passkey_sign_in(site, authenticator, address=address)[0].status == 401
    assert passkey_sign_in(site, second, address=address)[0].status == 200
    # Someone else's passkey is not there for her.
    other = signed_in(site, "mina", address)
    second_id = query_sql(site.data, "SELECT p.id FROM passkeys p JOIN users u ON u.id = p.userId WHERE u.username = 'removes'")[0][0]
    assert other.request("POST", f"/settings/passkeys/{second_id}/delete", form={"_csrf": other.token}).status == 404


def test_failed_passkeys_count_towards_the_sign_in_limit(tmp_path):
    data = tmp_path / "saessak-data"
    make_family(data, "guessed", "추측네")
    running = Server(data)
    running.origin = f"http://localhost:{running.port}"
    running.extra_args = ["--public-url", running.origin]
    running.start()
    try:
        stranger = SoftAuthenticator()
        statuses = [passkey_sign_in(running, stranger)[0].status for _ in range(10)]
        assert statuses == [401] * 10
        # The next waits from its beginning: no challenge is even stored for it (issue 66).
        browser = Browser(running)
        refused = browser.request("POST", "/login/passkey/options", body={}, headers={"X-CSRF-Token": browser.csrf("/login")})
        assert refused.status == 429 and refused.getheader("Retry-After"), refused.text
        # The same address's password guesses wait too: one limit for every way in.
        assert Browser(running).sign_in("guessed", PASSWORD).status == 429
    finally:
        running.stop()


def phone_authenticator():
    """Chromium's virtual authenticator as a phone's: built in, keeps passkeys, checks its owner's fingerprint."""
    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = VirtualAuthenticatorOptions.Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    return options


@first_pass_only
def test_in_chromium_with_a_virtual_authenticator(site, chrome):
    make_family(site.data, "halmeoni", "할머니댁")
    chrome.delete_all_cookies()
    chrome.add_virtual_authenticator(phone_authenticator())
    try:
        chrome.get(f"{site.origin}/login")
        chrome.find_element(By.NAME, "username").send_keys("halmeoni")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        chrome.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
        wait(chrome, lambda d: d.current_url == f"{site.origin}/")
        chrome.get(f"{site.origin}/settings/sign-in")
        field = chrome.find_element(By.NAME, "name")
        field.clear()
        field.send_keys("할머니 휴대폰")
        chrome.find_element(By.CSS_SELECTOR, "form[data-passkey-add] button[type=submit]").click()
        wait(chrome, lambda d: "할머니 휴대폰" in d.find_element(By.CSS_SELECTOR, ".passkey-list").text)
        assert len(chrome.get_credentials()) == 1 and chrome.get_credentials()[0].is_resident_credential
        # Signed out, the passkey alone signs her in: no username, no password.
        chrome.delete_all_cookies()
        chrome.get(f"{site.origin}/login?next=/settings/sign-in")
        button = chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button")
        assert button.is_displayed()
        button.click()
        wait(chrome, lambda d: d.current_url == f"{site.origin}/settings/sign-in")
        assert "마지막 사용" in chrome.find_element(By.CSS_SELECTOR, ".passkey-list").text
        assert chrome.get_credentials()[0].sign_count >= 1
        # Removed (she still has her password), it signs nobody in.
        chrome.find_element(By.CSS_SELECTOR, ".passkey-list button[type=submit]").click()
        wait(chrome, lambda d: not d.find_elements(By.CSS_SELECTOR, ".passkey-list li"))
        chrome.delete_all_cookies()
        chrome.get(f"{site.origin}/login")
        chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button").click()
        wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "[data-passkey-status]").text != "")
        assert chrome.current_url.startswith(f"{site.origin}/login")
    finally:
        chrome.remove_virtual_authenticator()
        chrome.delete_all_cookies()


@first_pass_only
def test_a_page_opened_by_ip_address_says_passkeys_need_the_servers_name(site, chrome):
    """Chromium refuses WebAuthn on an IP address at once (a SecurityError): the page says why, in its language,
    instead of "cancelled"."""
    chrome.delete_all_cookies()
    for language, expected in (("ko", "IP 주소가 아니라 서버의 이름"), ("en", "not by its IP address")):
        chrome.get(f"http://127.0.0.1:{site.port}/login?lang={language}")
        chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button").click()
        status = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "[data-passkey-status]").text)
        assert expected in status, status
    chrome.delete_all_cookies()


def invitation_token(site, owner_token, role="viewer"):
    made = site.request("POST", "/api/v1/invitations", {"role": role}, owner_token)
    assert made.status == 201, made.body
    return made.json()["url"].rsplit("/invite/", 1)[1]


def test_an_invitation_is_accepted_with_a_passkey_alone(site, address):
    owner = make_family(site.data, "inviter", "초대네")
    token = invitation_token(site, owner)
    browser = Browser(site, source=address)
    page = browser.request("GET", f"/invite/{token}")
    assert "data-passkey-sign-up" in page.text and "패스키로 가입" in page.text
    csrf = browser.csrf(f"/invite/{token}")
    headers = {"X-CSRF-Token": csrf}
    # A username already taken is refused before any passkey is made.
    taken = browser.request("POST", f"/invite/{token}/passkey/options", body={"username": "grandma"}, headers=headers)
    assert taken.status == 409
    asked = browser.request("POST", f"/invite/{token}/passkey/options", body={"username": "halmoni"}, headers=headers)
    assert asked.status == 200, asked.text
    options = json.loads(asked.text)
    assert options["user"]["name"] == "halmoni" and len(unb64url(options["user"]["id"])) == 16
    authenticator = SoftAuthenticator()
    # Made for another site: refused, and nothing is made.
    wrong = authenticator.create(options, "http://evil.example")
    refused = browser.request("POST", f"/invite/{token}/passkey", body={"username": "halmoni", **wrong}, headers=headers)
    assert refused.status == 400
    assert query_sql(site.data, "SELECT count(*) FROM users WHERE username = 'halmoni'")[0][0] == "0"
    options = json.loads(browser.request("POST", f"/invite/{token}/passkey/options", body={"username": "halmoni"}, headers=headers).text)
    joined = browser.request("POST", f"/invite/{token}/passkey", body={"username": "halmoni", **authenticator.create(options, site.origin)},
                             headers=headers)
    assert joined.status == 201, joined.text
    assert json.loads(joined.text)["next"] == "/"
    # Signed in, in the family she was invited to.
    assert "초대네" in browser.request("GET", "/settings").text
    # No password works for her; the passkey alone signs her in; the invitation is used.
    assert Browser(site, source=address).sign_in("halmoni", "").status in (200, 422)
    response, again, _ = passkey_sign_in(site, authenticator, address=address)
    assert response.status == 200
    assert again.request("GET", "/settings").status == 200
    late = Browser(site, source=address)
    late_csrf = late.csrf("/login")
    used = late.request("POST", f"/invite/{token}/passkey/options", body={"username": "other"}, headers={"X-CSRF-Token": late_csrf})
    assert used.status == 404
    # Her one passkey is her only way in: it stays.
    passkey_id = query_sql(site.data, "SELECT p.id FROM passkeys p JOIN users u ON u.id = p.userId WHERE u.username = 'halmoni'")[0][0]
    assert browser.request("POST", f"/settings/passkeys/{passkey_id}/delete", form={"_csrf": browser.csrf("/settings/sign-in")}).status == 409


@first_pass_only
def test_grandma_joins_with_a_passkey_in_chromium(site, chrome):
    owner = make_family(site.data, "family-of-four", "넷이네")
    token = invitation_token(site, owner)
    chrome.delete_all_cookies()
    chrome.add_virtual_authenticator(phone_authenticator())
    try:
        from test_web_app import press

        chrome.get(f"{site.origin}/invite/{token}")
        section = chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-up]")
        assert section.is_displayed()
        section.find_element(By.NAME, "passkey-username").send_keys("nana")
        press(chrome, section.find_element(By.TAG_NAME, "button"))
        wait(chrome, lambda d: d.current_url == f"{site.origin}/")
        chrome.delete_all_cookies()
        chrome.get(f"{site.origin}/login")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button"))
        wait(chrome, lambda d: d.current_url == f"{site.origin}/")
        assert len(chrome.get_credentials()) == 1
    finally:
        chrome.remove_virtual_authenticator()
        chrome.delete_all_cookies()


def test_the_first_owner_starts_with_a_passkey(tmp_path):
    import re
    import time

    data = tmp_path / "saessak-data"
    running = Server(data)
    running.origin = f"http://localhost:{running.port}"
    running.extra_args = ["--public-url", running.origin]
    running.start()
    try:
        deadline = time.time() + 10
        while not (match := re.search(r"/setup\?token=(\S+)", (data.parent / f"server-{running.port}.log").read_text())):
            assert time.time() < deadline, "no setup link printed"
            time.sleep(0.05)
        token = match.group(1)
        browser = Browser(running)
        page = browser.request("GET", f"/setup?token={token}")
        assert "data-passkey-sign-up" in page.text and 'name="passkey-family"' in page.text
        csrf = browser.csrf(f"/setup?token={token}")
        headers = {"X-CSRF-Token": csrf}
        fields = {"token": token, "username": "eomma", "family": "새싹네"}
        assert browser.request("POST", "/setup/passkey/options", body={**fields, "token": "ssk_wrong"}, headers=headers).status == 404
        assert browser.request("POST", "/setup/passkey/options", body={**fields, "family": ""}, headers=headers).status == 422
        options = json.loads(browser.request("POST", "/setup/passkey/options", body=fields, headers=headers).text)
        authenticator = SoftAuthenticator()
        # Another site's answer makes nothing, and the link still works.
        wrong = authenticator.create(options, "http://evil.example")
        assert browser.request("POST", "/setup/passkey", body={**fields, **wrong}, headers=headers).status == 400
        assert query_sql(data, "SELECT count(*) FROM users")[0][0] == "0"
        options = json.loads(browser.request("POST", "/setup/passkey/options", body=fields, headers=headers).text)
        made = browser.request("POST", "/setup/passkey", body={**fields, **authenticator.create(options, running.origin)}, headers=headers)
        assert made.status == 201, made.text
        assert "새싹네" in browser.request("GET", "/settings").text
        # The link is spent; the owner signs in with the passkey alone.
        assert browser.request("GET", f"/setup?token={token}").status == 404
        response, _, _ = passkey_sign_in(running, authenticator)
        assert response.status == 200
    finally:
        running.stop()


class relay:
    """A plain HTTP relay on a free port of localhost to the server's port: another origin serving our pages."""

    def __init__(self, port):
        import http.server
        import threading
        import urllib.request

        from conftest import free_port

        target = port

        class Handler(http.server.BaseHTTPRequestHandler):
            def forward(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) or None
                request = urllib.request.Request(f"http://127.0.0.1:{target}{self.path}", data=body, method=self.command)
                for name, value in self.headers.items():
                    if name.lower() not in ("host", "content-length", "connection"):
                        request.add_header(name, value)

                class NoRedirect(urllib.request.HTTPRedirectHandler):
                    def redirect_request(self, *args, **kwargs):
                        return None

                opener = urllib.request.build_opener(NoRedirect)
                try:
                    response = opener.open(request, timeout=30)
                except urllib.error.HTTPError as error:
                    response = error
                payload = response.read()
                self.send_response(response.status if hasattr(response, "status") else response.code)
                for name, value in response.headers.items():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = forward

            def log_message(self, *args):
                pass

        self.port = free_port()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self.port

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@first_pass_only
def test_in_chromium_another_origin_a_replay_and_a_clone_are_refused(site, chrome):
    """The browser's own answers, misused: sent twice, made on another origin (our pages relayed from another port),
    or made by a copy of the authenticator whose counter is behind."""
    from selenium.webdriver.common.virtual_authenticator import Credential

    from test_web_app import press

    make_family(site.data, "copied", "복사네")
    chrome.delete_all_cookies()
    chrome.add_virtual_authenticator(phone_authenticator())
    try:
        chrome.get(f"{site.origin}/login")
        chrome.find_element(By.NAME, "username").send_keys("copied")
        chrome.find_element(By.NAME, "password").send_keys(PASSWORD)
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]"))
        wait(chrome, lambda d: d.current_url == f"{site.origin}/")
        chrome.get(f"{site.origin}/settings/sign-in")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "form[data-passkey-add] button[type=submit]"))
        wait(chrome, lambda d: d.find_elements(By.CSS_SELECTOR, ".passkey-list li"))

        # A replay: the page makes one assertion and sends it twice; the first signs in, the second is refused.
        chrome.delete_all_cookies()
        chrome.get(f"{site.origin}/login")
        statuses = chrome.execute_async_script("""
            const done = arguments[arguments.length - 1];
            (async () => {
              const csrf = document.querySelector("[data-passkey-sign-in]").dataset.csrf;
              const options = await (await postJSON("/login/passkey/options", csrf)).json();
              const credential = await navigator.credentials.get({ publicKey: { ...options, challenge: fromBase64url(options.challenge) } });
              const r = credential.response;
              const body = { id: toBase64url(credential.rawId), clientDataJSON: toBase64url(r.clientDataJSON),
                authenticatorData: toBase64url(r.authenticatorData), signature: toBase64url(r.signature),
                userHandle: r.userHandle ? toBase64url(r.userHandle) : null };
              const first = await postJSON("/login/passkey", csrf, body);
              const second = await postJSON("/login/passkey", csrf, body);
              done([first.status, second.status]);
            })().catch((e) => done(String(e)));
        """)
        assert statuses == [200, 401], statuses

        # Another origin: the same pages through a proxy on another port of localhost (a site that relays ours). The
        # relying party id `localhost` holds there, so Chromium signs; what it signed names that origin, and is refused.
        chrome.delete_all_cookies()
        with relay(site.port) as other:
            chrome.get(f"http://localhost:{other}/login")
            press(chrome, chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button"))
            status = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "[data-passkey-status]").text)
            assert "로그인하지 못했습니다" in status and chrome.current_url.startswith(f"http://localhost:{other}/login")

        # A clone: the same key in a second authenticator whose counter is behind the one in use.
        [original] = chrome.get_credentials()
        assert original.sign_count >= 2
        chrome.remove_virtual_authenticator()
        chrome.add_virtual_authenticator(phone_authenticator())
        chrome.add_credential(Credential.from_dict({**original.to_dict(), "signCount": 0}))
        chrome.delete_all_cookies()
        chrome.get(f"{site.origin}/login")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button"))
        status = wait(chrome, lambda d: d.find_element(By.CSS_SELECTOR, "[data-passkey-status]").text)
        assert "로그인하지 못했습니다" in status and chrome.current_url.startswith(f"{site.origin}/login")
        # The same copy with its counter ahead is taken: it was the counter that refused it.
        chrome.remove_virtual_authenticator()
        chrome.add_virtual_authenticator(phone_authenticator())
        chrome.add_credential(Credential.from_dict({**original.to_dict(), "signCount": original.sign_count + 10}))
        chrome.get(f"{site.origin}/login")
        press(chrome, chrome.find_element(By.CSS_SELECTOR, "[data-passkey-sign-in] button"))
        wait(chrome, lambda d: d.current_url == f"{site.origin}/")
    finally:
        chrome.remove_virtual_authenticator()
        chrome.delete_all_cookies()
