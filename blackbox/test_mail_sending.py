"""Issue 23, the mail loop of `saessak serve` against a real SMTP server on loopback (aiosmtpd): it sends by itself
over STARTTLS with a password, a kill -9 mid-message never sends that mail again, and a stop hears the answer of the
message under way but does not wait for a silent server. The SMTP server, the family and the helpers are
test_mail.py's."""
import datetime
import ssl
import subprocess
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from conftest import Server, engine_environment, free_port, make_family
from test_mail import SEOUL, Inbox, call, family, mail_options, outbox, parts, run_mail, smtp  # noqa: F401 (fixtures)
import pytest

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

def mail_sender(family, smtp):
    """A second server on the family's data that sends mail to `smtp` every second."""
    sender = Server(family.data)
    sender.extra_args = mail_options(smtp, family, "--mail-interval", "1")
    return sender.start()


def ask_for_reminders(family):
    call(family, "PUT", "/account/mail", {"address": "mom@example.kr", "digest": "off", "reminders": True, "language": "ko"},
         family.owner)


def test_a_server_killed_while_sending_never_sends_that_mail_again(family, smtp):
    """kill -9 after the message went out and before the answer came: the outbox row stays `sending`, becomes
    `unknown` once it is stale, and neither the restarted server nor a later round sends it again."""
    data = family.data
    smtp.answer.clear()
    sender = mail_sender(family, smtp)
    try:
        ask_for_reminders(family)
        [reminder] = smtp.wait_for(1)
        assert str(reminder["Subject"]).startswith("[우리집] 하늘 백일")
        sender.stop(kill=True)
    finally:
        smtp.answer.set()
        sender.stop()
    assert [m["state"] for m in outbox(data)] == ["sending"]
    now = datetime.datetime.now(SEOUL).replace(microsecond=0)
    assert run_mail(data, smtp, family, now + datetime.timedelta(minutes=5)).startswith("queued 0, sent 0")
    assert [m["state"] for m in outbox(data)] == ["sending"]  # its sender may still be at it
    assert run_mail(data, smtp, family, now + datetime.timedelta(minutes=20)).startswith("queued 0, sent 0")
    assert [m["state"] for m in outbox(data)] == ["unknown"]
    again = mail_sender(family, smtp)
    try:
        time.sleep(3)
    finally:
        again.stop()
    assert len(smtp.messages) == 1 and [m["state"] for m in outbox(data)] == ["unknown"]


def test_a_stop_lets_the_message_under_way_hear_its_answer_but_does_not_wait_for_silence(family, smtp):
    """A stop (SIGTERM) while the SMTP server holds a message and has not answered: an answer within the grace
    (5 s) is heard and the mail recorded `sent`; a server that stays silent is cut off after it — `unknown`, never
    sent again — and the stop does not hang."""
    data = family.data
    smtp.answer.clear()
    sender = mail_sender(family, smtp)
    try:
        ask_for_reminders(family)
        smtp.wait_for(1)
        threading.Timer(1.0, smtp.answer.set).start()  # the answer comes a second into the stop
        began = time.time()
        sender.stop()
        # The state below proves the answer was heard; the bound only that the stop did not hang (a loaded 2-core
        # machine can take seconds to stop a debug build).
        assert time.time() - began < 12
    finally:
        smtp.answer.set()
        sender.stop()
    assert [m["state"] for m in outbox(data)] == ["sent"]

    # A second child's 백일: this time the SMTP server never answers while the server stops.
    birth = datetime.datetime.now(SEOUL).date() - datetime.timedelta(days=97)
    call(family, "POST", "/children", {"name": "구름", "birthDate": birth.isoformat()}, family.owner)
    smtp.answer.clear()
    sender = mail_sender(family, smtp)
    try:
        smtp.wait_for(2)
        began = time.time()
        sender.stop()
        assert 4 < time.time() - began < 15
    finally:
        smtp.answer.set()
        sender.stop()
    assert sorted(m["state"] for m in outbox(data)) == ["sent", "unknown"]
    assert len(smtp.messages) == 2


def test_the_server_sends_by_itself_over_starttls_with_a_password(tmp_path):
    """`saessak serve` with SMTP settings sends on its own: STARTTLS to a server whose certificate it was told to
    trust, AUTH PLAIN with the credentials from the environment; a wrong password fails the message for good."""
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(certificate),
                    "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(certificate), str(key))
    logins = []

    def authenticate(server, session, envelope, mechanism, auth_data):
        logins.append((mechanism, auth_data.login, session.ssl is not None))
        return AuthResult(success=auth_data.login == b"saessak" and auth_data.password == b"smtp secret", handled=False)

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), tls_context=context, require_starttls=True,
                            authenticator=authenticate, auth_required=True)
    controller.start()
    data = tmp_path / "saessak-data"
    owner = make_family(data, "mom", "우리집")
    try:
        for password, expected in (("smtp secret", "sent"), ("wrong", "failed")):
            environment = dict(engine_environment(data), SAESSAK_SMTP_USERNAME="saessak", SAESSAK_SMTP_PASSWORD=password)
            if expected == "sent":
                # The right one from a file only the server's user reads (the package's way, issue 66).
                secret = tmp_path / "smtp-password"
                secret.write_text(password + "\n")
                secret.chmod(0o600)
                del environment["SAESSAK_SMTP_PASSWORD"]
                environment["SAESSAK_SMTP_PASSWORD_FILE"] = str(secret)
            server = Server(data, env=environment)
            server.extra_args = ["--smtp-host", "localhost", "--smtp-port", str(controller.port), "--smtp-ca-file", str(certificate),
                                 "--mail-from", "diary@saessak.test", "--public-url", "https://diary.saessak.test",
                                 "--digest-hour", "0", "--mail-interval", "1"]
            server.start()
            try:
                birth = datetime.datetime.now(SEOUL).date() - datetime.timedelta(days=97)
                if expected == "sent":
                    call(server, "POST", "/children", {"name": "바다", "birthDate": birth.isoformat()}, owner)
                    shown = call(server, "GET", "/account/mail", token=owner).json()
                    assert shown["serverSendsMail"] is True
                    call(server, "PUT", "/account/mail", {"address": "mom@example.kr", "digest": "off", "reminders": True,
                                                          "language": "en"}, owner)
                    [reminder] = inbox.wait_for(1)
                    assert str(reminder["Subject"]).startswith("[우리집] 바다 100th day") and "https://diary.saessak.test/calendar/" in parts(reminder)[1]
                    # The SMTP server has the message a moment before the sender hears its 250: a stop in between
                    # would (rightly) leave it `unknown`. Wait for the server to record it.
                    deadline = time.time() + 20
                    while time.time() < deadline and "sent" not in [m["state"] for m in outbox(data)]:
                        time.sleep(0.2)
                else:
                    call(server, "POST", "/children", {"name": "구름", "birthDate": birth.isoformat()}, owner)
                    deadline = time.time() + 20
                    while time.time() < deadline and "failed" not in [m["state"] for m in outbox(data)]:
                        time.sleep(0.2)
            finally:
                server.stop()
        states = sorted(m["state"] for m in outbox(data))
        assert states == ["failed", "sent"], states
        assert [login for _, login, _ in logins] == [b"saessak", b"saessak"] and all(tls for _, _, tls in logins)
        assert len(inbox.messages) == 1
        log = b"".join(p.read_bytes() for p in data.parent.glob("server-*.log"))
        assert b"smtp secret" not in log and b"mom@example.kr" not in log
    finally:
        controller.stop()
