"""Issue 23: e-mail digests and reminders, against a real SMTP server on loopback (aiosmtpd): the mail arrives, is
well-formed MIME (Python's own parser finds no defect), its links work for that member and for no one else, it never
carries the resident number or a photo's place, a refused send is retried, and nothing is ever sent twice — not even
when the server took the message and the answer was lost."""
import asyncio
import base64
import datetime
import email
import email.policy
import hashlib
import hmac
import html
import json
import re
import threading
import time
import urllib.parse

import pytest
from aiosmtpd.controller import Controller

from browser import Browser
from conftest import Server, free_port, make_family, saessak
from images import jpeg_with_exif, multipart
from openapi_contract import call

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

SEOUL = datetime.timezone(datetime.timedelta(hours=9))
PASSWORD = "a long password"


class Inbox:
    """What the SMTP server received, and what it is told to do with the next messages."""

    def __init__(self):
        self.messages = []  # (envelope recipients, bytes)
        self.refuse_next = 0  # answer 451 after the message
        self.drop_next = 0  # take the message, then cut the connection before answering
        self.arrived = threading.Condition()
        self.answer = threading.Event()  # cleared: the server takes the message and waits before answering
        self.answer.set()

    async def handle_DATA(self, server, session, envelope):
        if self.refuse_next:
            self.refuse_next -= 1
            return "451 4.3.0 try again later"
        with self.arrived:
            self.messages.append((list(envelope.rcpt_tos), bytes(envelope.original_content or envelope.content)))
            self.arrived.notify_all()
        while not self.answer.is_set():
            await asyncio.sleep(0.05)
        if self.drop_next:
            self.drop_next -= 1
            server.transport.abort()
        return "250 2.0.0 queued"

    def wait_for(self, count, seconds=20):
        with self.arrived:
            assert self.arrived.wait_for(lambda: len(self.messages) >= count, timeout=seconds), self.messages
        return [parse(data) for _, data in self.messages]


@pytest.fixture()
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port
    yield inbox
    controller.stop()


def parse(data):
    message = email.message_from_bytes(data, policy=email.policy.default)
    for part in message.walk():
        assert not part.defects, (part.get_content_type(), part.defects)
    return message


def mail_options(inbox, server, *more):
    return ["--smtp-host", "127.0.0.1", "--smtp-port", str(inbox.port), "--smtp-security", "none", "--mail-from",
            "diary@saessak.test", "--public-url", server.base, "--digest-hour", "0", *more]


def run_mail(data, inbox, server, now=None):
    args = ["mail", "run", *mail_options(inbox, server)] + (["--now", now.isoformat()] if now else [])
    return saessak(*args, data=data).stdout.strip()


def outbox(data):
    return json.loads(saessak("mail", "outbox", "--json", data=data).stdout)


def parts(message):
    html_part = message.get_body(("html",))
    text_part = message.get_body(("plain",))
    images = {part["Content-ID"].strip("<>"): part for part in message.walk() if part.get_content_maintype() == "image"}
    return html_part.get_content(), text_part.get_content(), images


@pytest.fixture()
def family(tmp_path):
    data = tmp_path / "saessak-data"
    owner = make_family(data, "mom", "우리집")
    make_family(data, "grandma", "할머니")
    saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "viewer", data=data)
    grandma = saessak("admin", "create-token", "--username", "grandma", "--family", "우리집", data=data).stdout.strip()
    other = make_family(data, "lee", "이씨네")
    server = Server(data).start()
    server.owner, server.grandma, server.other = owner, grandma, other
    # 백일 two or three days from today in Seoul: a reminder is due, and the digest tells of it.
    today = datetime.datetime.now(SEOUL).date()
    birth = today - datetime.timedelta(days=97)
    resident = birth.strftime("%y%m%d") + "-4123456"
    server.child = call(server, "POST", "/children", {"name": "하늘", "birthDate": birth.isoformat(), "residentNumber": resident},
                        owner).json()
    server.resident = resident
    yield server
    server.stop()


def test_digests_and_reminders_arrive_well_formed_with_links_for_that_member_only(family, smtp, tmp_path):
    data = family.data
    assert call(family, "GET", "/account/mail", token=family.grandma).json() == {
        "digest": "off", "reminders": False, "language": "ko", "serverSendsMail": False}
    chosen = call(family, "PUT", "/account/mail", {"address": " grandma@Example.KR ", "digest": "daily", "reminders": True,
                                                    "language": "ko"}, family.grandma).json()
    assert chosen["address"] == "grandma@example.kr"
    call(family, "PUT", "/account/mail", {"address": "mom@example.kr", "digest": "daily", "reminders": False, "language": "en"},
         family.owner)
    # Mom writes with two photos from her phone (with GPS in their EXIF); grandma answers.
    today = datetime.datetime.now(SEOUL).date().isoformat()
    pictures = [jpeg_with_exif(tmp_path, width=800 + n, height=600) for n in range(2)]
    content_type, body = multipart([(p.name, p.read_bytes()) for p in pictures])
    photos = family.request("POST", "/api/v1/photos", raw=body, token=family.owner, headers={"Content-Type": content_type}).json()["items"]
    entry = call(family, "POST", "/entries", {"title": "첫 뒤집기 <b>!</b>", "body": "오늘 처음으로 뒤집었어요.", "date": f"{today}T09:30",
                                              "childIds": [family.child["id"]], "photoIds": [p["id"] for p in photos],
                                              "place": {"name": "집", "latitude": 37.5665, "longitude": 126.978}}, family.owner).json()
    call(family, "POST", f"/entries/{entry['id']}/comments", {"text": "우리 하늘이 최고! <할머니가>"}, family.grandma)

    assert run_mail(data, smtp, family) == "queued 3, sent 3, retrying 0, failed 0, unknown 0"
    received = smtp.wait_for(3)
    by_subject = {str(m["Subject"]): m for m in received}
    assert len({m["Message-ID"] for m in received}) == 3
    digest = by_subject["[우리집] 오늘의 소식"]
    reminder = next(m for s, m in by_subject.items() if s.startswith("[우리집] 하늘 백일"))
    mom = by_subject["[우리집] Today's news"]
    assert [r for r, _ in smtp.messages].count(["grandma@example.kr"]) == 2
    assert digest["To"].addresses[0].addr_spec == "grandma@example.kr" and digest["From"].addresses[0].addr_spec == "diary@saessak.test"
    assert digest.get_content_type() == "multipart/related" and digest["Auto-Submitted"] == "auto-generated"
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    markup, text, images = parts(digest)
    link = f"{family.base}/entries/{entry['id']}"
    assert link in text and f'href="{link}"' in markup
    assert "첫 뒤집기 &lt;b&gt;!&lt;/b&gt;" in markup and "<b>!" not in markup
    assert "생후" in markup and "백일" in markup  # the child's age on the entry's day; 백일 coming up
    # Every picture the HTML shows is in the mail, small, a JPEG without EXIF (so without the GPS position).
    shown = re.findall(r'src="cid:([^"]+)"', markup)
    assert sorted(shown) == sorted(images) and len(images) == 2
    for part in images.values():
        picture = part.get_content()
        assert picture[:2] == b"\xff\xd8" and b"Exif" not in picture and b"GPS" not in picture and len(picture) < 200_000
    for message in received:
        whole = message.as_bytes()
        for secret in (family.resident.encode(), family.resident.replace("-", "").encode(), b"37.5665", b"126.978"):
            assert secret not in whole and secret not in _decoded(message)

    markup, text, _ = parts(mom)
    assert "우리 하늘이 최고! &lt;할머니가&gt;" in markup and "grandma" in markup and "Comments on your entries" in markup
    assert mom["To"].addresses[0].addr_spec == "mom@example.kr"
    assert "Coming up" in markup and "100th day" in markup

    # The entry link opens for grandma, for no one outside the family, and asks a stranger to sign in.
    path = urllib.parse.urlparse(link).path
    assert family.request("GET", path, token=family.grandma).status == 200
    assert family.request("GET", path, token=family.other).status == 404
    stranger = family.request("GET", path)  # followed to the sign-in page
    assert "첫 뒤집기" not in stranger.body.decode() and 'name="password"' in stranger.body.decode()

    # The unsubscribe link: a page for grandma, 404 for anyone it was not made for, one-click works.
    unsubscribe = re.search(r"<(.+)>", digest["List-Unsubscribe"]).group(1)
    assert unsubscribe in parts(digest)[1]
    path = urllib.parse.urlparse(unsubscribe).path
    _, _, _, family_id, user_id, token = path.split("/")
    assert path == unsubscribe_path(data, family_id, user_id)
    assert family.request("GET", path).status == 200
    mom_id = entry["authorId"]
    for forged in (f"/mail/unsubscribe/{family_id}/{mom_id}/{token}", f"/mail/unsubscribe/{family_id}/{user_id}/{token[:-2]}AA",
                   f"/mail/unsubscribe/{family_id}/{user_id}/x", f"/mail/unsubscribe/nope/{user_id}/{token}"):
        assert family.request("GET", forged).status == 404, forged
        assert family.request("POST", forged, raw=b"List-Unsubscribe=One-Click",
                              headers={"Content-Type": "application/x-www-form-urlencoded"}).status == 404
    assert call(family, "GET", "/account/mail", token=family.owner).json()["digest"] == "daily"
    done = family.request("POST", path, raw=b"List-Unsubscribe=One-Click", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert done.status == 200 and "더 이상 메일을 보내지 않습니다" in done.body.decode()
    assert call(family, "GET", "/account/mail", token=family.grandma).json() == {
        "address": "grandma@example.kr", "digest": "off", "reminders": False, "language": "ko", "serverSendsMail": False}

    # Nothing is sent twice, however often the round runs.
    assert run_mail(data, smtp, family) == "queued 0, sent 0, retrying 0, failed 0, unknown 0"
    assert len(smtp.messages) == 3
    assert sorted(m["state"] for m in outbox(data)) == ["sent", "sent", "sent"]


def unsubscribe_path(data, family_id, user_id):
    """The unsubscribe link the server makes for a member, computed here from the data folder's key as docs/mail.md
    describes it (HKDF-SHA256 → HMAC-SHA256 of "family|member"): an independent check of the server's signature."""
    key = (data / "secret.key").read_bytes()
    prk = hmac.new(b"\0" * 32, key, hashlib.sha256).digest()
    derived = hmac.new(prk, b"saessak signature: mail unsubscribe\x01", hashlib.sha256).digest()
    signature = hmac.new(derived, f"{family_id}|{user_id}".encode(), hashlib.sha256).digest()
    return f"/mail/unsubscribe/{family_id}/{user_id}/" + base64.urlsafe_b64encode(signature).decode().rstrip("=")


def _decoded(message):
    return b"".join(part.get_payload(decode=True) or b"" for part in message.walk() if not part.is_multipart())


def test_a_refused_send_is_retried_and_a_lost_answer_is_never_sent_again(family, smtp):
    data = family.data
    call(family, "PUT", "/account/mail", {"address": "mom@example.kr", "digest": "daily", "reminders": False, "language": "ko"},
         family.owner)
    entry = call(family, "POST", "/entries", {"title": "산책", "body": "", "date": "2026-11-23T09:30",
                                              "childIds": [family.child["id"]]}, family.owner).json()
    call(family, "POST", f"/entries/{entry['id']}/comments", {"text": "좋았겠다"}, family.grandma)
    tomorrow = datetime.datetime.now(SEOUL).replace(microsecond=0) + datetime.timedelta(days=1)

    smtp.refuse_next = 1
    assert run_mail(data, smtp, family, tomorrow) == "queued 1, sent 0, retrying 1, failed 0, unknown 0"
    [waiting] = [m for m in outbox(data) if m["state"] != "skipped"]
    assert waiting["state"] == "queued" and waiting["attempts"] == 1 and "451" in waiting["lastError"]
    # Not again before its time; then once.
    assert run_mail(data, smtp, family, tomorrow + datetime.timedelta(seconds=30)).startswith("queued 0, sent 0")
    assert run_mail(data, smtp, family, tomorrow + datetime.timedelta(minutes=2)) == "queued 0, sent 1, retrying 0, failed 0, unknown 0"
    [message] = smtp.wait_for(1)
    assert "좋았겠다" in parts(message)[0] and message["Message-ID"].strip("<>") == waiting["messageId"]
    assert run_mail(data, smtp, family, tomorrow + datetime.timedelta(minutes=3)).startswith("queued 0, sent 0")

    # A daily digest with no news is not sent (the days coming up alone wait for a weekly one or a reminder).
    assert run_mail(data, smtp, family, tomorrow + datetime.timedelta(days=1)).startswith("queued 0, sent 0")
    # Weekly, on the next Monday: the server takes the digest and the connection breaks before its answer — perhaps
    # delivered, so never sent again.
    call(family, "PUT", "/account/mail", {"address": "mom@example.kr", "digest": "weekly", "reminders": False, "language": "ko"},
         family.owner)
    smtp.drop_next = 1
    later = tomorrow + datetime.timedelta(days=2)
    later += datetime.timedelta(days=(7 - later.weekday()) % 7)  # a Monday
    assert run_mail(data, smtp, family, later - datetime.timedelta(days=1)).startswith("queued 0, sent 0")  # a Sunday
    assert run_mail(data, smtp, family, later) == "queued 1, sent 0, retrying 0, failed 0, unknown 1"
    for minutes in (2, 30, 600):
        assert run_mail(data, smtp, family, later + datetime.timedelta(minutes=minutes)).startswith("queued 0, sent 0")
    assert len(smtp.messages) == 2
    assert sorted(m["state"] for m in outbox(data)) == ["sent", "skipped", "unknown"]
    assert "이번 주 소식" in str(parse(smtp.messages[1][1])["Subject"])


def test_bad_mail_settings_are_named(family):
    for body, field in (({"address": "grandma", "digest": "daily", "reminders": False, "language": "ko"}, "address"),
                        ({"address": "a@b.kr\r\nBcc: x@y.kr", "digest": "daily", "reminders": False, "language": "ko"}, "address"),
                        ({"address": None, "digest": "weekly", "reminders": False, "language": "ko"}, "address"),
                        ({"address": "a@b.kr", "digest": "hourly", "reminders": False, "language": "ko"}, "digest"),
                        ({"address": "a@b.kr", "digest": "daily", "reminders": False, "language": "fr"}, "language")):
        answer = call(family, "PUT", "/account/mail", body, family.grandma)
        assert answer.status == 422 and answer.json()["field"] == field, (body, answer.body)
    assert call(family, "GET", "/account/mail", token=family.grandma).json()["digest"] == "off"
    for args, words in ((["--smtp-host", "mail.example", "--mail-from", "x@y.kr"], "--public-url"),
                        (["--smtp-host", "mail.example", "--public-url", "https://d.example"], "--mail-from"),
                        (["--smtp-host", "mail.example", "--mail-from", "nope", "--public-url", "https://d.example"], "--mail-from"),
                        (["--smtp-host", "mail.example", "--mail-from", "x@y.kr", "--public-url", "https://d.example",
                          "--smtp-security", "ssl"], "--smtp-security"),
                        (["--smtp-host", "mail.example", "--mail-from", "x@y.kr", "--public-url", "https://d.example",
                          "--digest-hour", "24"], "--digest-hour")):
        result = saessak("mail", "run", *args, data=family.data, check=False)
        assert result.returncode != 0 and words in result.stderr, (args, result.stderr)


def test_a_member_chooses_mail_on_the_settings_page(family):
    browser = Browser(family)
    browser.sign_in("grandma", PASSWORD)
    page = browser.request("GET", "/settings")
    assert page.status == 200 and 'id="s-mail"' in page.text and "이메일 소식" in page.text
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    saved = browser.request("POST", "/settings/mail", form={"_csrf": csrf, "address": "g@example.kr", "digest": "weekly",
                                                             "reminders": "true", "mailLanguage": "en"})
    assert saved.status in (200, 303)
    page = browser.request("GET", "/settings?done=mail")
    assert "이메일 설정을 저장했습니다" in page.text and 'value="g@example.kr"' in page.text
    # The page acts for the family the session does: grandma's own, first (her choice in 우리집 is its own).
    own = saessak("admin", "create-token", "--username", "grandma", "--family", "할머니", data=family.data).stdout.strip()
    assert call(family, "GET", "/account/mail", token=own).json() == {
        "address": "g@example.kr", "digest": "weekly", "reminders": True, "language": "en", "serverSendsMail": False}
    assert call(family, "GET", "/account/mail", token=family.grandma).json()["digest"] == "off"
    bad = browser.request("POST", "/settings/mail", form={"_csrf": csrf, "address": "not an address", "digest": "daily"})
    assert bad.status == 422 and "address" in html.unescape(bad.text)


def test_doctor_greets_the_smtp_server_and_names_one_that_does_not_answer(tmp_path, smtp):
    data = tmp_path / "saessak-data"
    make_family(data, "mom", "우리집")
    options = ["--smtp-host", "127.0.0.1", "--smtp-security", "none", "--mail-from", "diary@saessak.test",
               "--public-url", "http://127.0.0.1:8080"]
    answered = saessak("doctor", *options, "--smtp-port", str(smtp.port), data=data, check=False)
    assert re.search(r"^ok    mail +127\.0\.0\.1:\d+ answers EHLO$", answered.stdout, re.M), answered.stdout
    assert not smtp.messages  # a greeting, never a message
    silent = saessak("doctor", *options, "--smtp-port", str(free_port()), data=data, check=False)
    assert silent.returncode == 1 and re.search(r"^FAIL  mail .*— fix: check --smtp-host", silent.stdout, re.M), silent.stdout
