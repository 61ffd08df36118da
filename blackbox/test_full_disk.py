"""A full disk (issue 66): a data folder on a 14 MB tmpfs filled by entries and uploads. Writes that do not fit answer
507 naming the cause (never 500 "request failed"), uploads are refused before anything of them is stored once the
disk is past its margin, nothing acknowledged is lost, the database stays sound, and the same requests succeed once
space comes back. Both engines (on PostgreSQL the disk that fills is the photos' and the server's own files'), both
photo stores (in object storage the local copies and scratch files are on the small disk)."""
import os
import subprocess
import uuid

import pytest

from conftest import ENGINE, Server, make_family, new_child, query_sql
from images import multipart
from test_mail import smtp  # noqa: F401 (the fixture: a real SMTP server on loopback)

pytestmark = [pytest.mark.engine, pytest.mark.photos]


def noise_png(width, height):
    """A PNG of random pixels: as large stored as it is raw, and different each time."""
    import struct
    import zlib

    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + os.urandom(width * 3) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")


@pytest.fixture
def small_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=14m,mode=0755", "tmpfs", str(disk)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_full_disk_answers_507_loses_nothing_and_recovers(small_disk, tmp_path):
    data = small_disk / "data"
    owner = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        child = new_child(server, owner)
        # Whatever else the disk holds (another program's files): about 1 MB is left. On PostgreSQL and with photos in
        # object storage, the server's own writes alone would never fill it.
        ballast = small_disk / "ballast"
        free = os.statvfs(small_disk).f_bavail * os.statvfs(small_disk).f_frsize
        ballast.write_bytes(b"\0" * max(0, free - (1 << 20)))
        acknowledged, statuses, details = [], set(), set()
        photos = [noise_png(700, 700) for _ in range(6)]  # about 1.5 MB each, all different
        for round in range(30):
            title = f"기록 {round} " + uuid.uuid4().hex
            body = "가나다라마바사 " * 2000
            made = server.request("POST", "/api/v1/entries", {"title": title, "body": body, "date": "2026-11-22T09:00",
                                                             "childIds": [child["id"]]}, owner)
            statuses.add(made.status)
            if made.status == 201:
                acknowledged.append(made.json()["id"])
            else:
                details.add(made.json()["detail"])
            content_type, upload = multipart([(f"p{round}.png", photos[round % len(photos)])])
            sent = server.request("POST", "/api/v1/photos", raw=upload, token=owner, headers={"Content-Type": content_type})
            statuses.add(sent.status)
            if sent.status != 201:
                details.add(sent.json()["detail"])
        assert statuses <= {201, 507}, statuses
        assert 507 in statuses, "the disk never filled"
        assert all("disk is full" in detail for detail in details), details
        # The page says it in Korean.
        from browser import Browser
        from test_pages_without_script import editor_action, form_data
        browser = Browser(server)
        assert browser.sign_in("mom", "a long password").status == 303
        headers, body = form_data([("title", "가득"), ("body", "가나다 " * 3000), ("date", "2026-11-22T09:00"), ("child", child["id"])],
                                  [("files", "full.png", photos[0])])
        page = browser.request("POST", editor_action(browser, "/entries/new"), raw=body, headers=headers)
        assert page.status == 507 and "디스크가 가득 차서" in page.text, (page.status, page.text[:300])
        # Nothing acknowledged was lost, and the database is sound.
        for entry in acknowledged:
            assert server.request("GET", f"/api/v1/entries/{entry}", None, owner).status == 200
        if ENGINE == "sqlite":
            assert query_sql(data, "PRAGMA integrity_check") == [("ok",)]
        # No upload's scratch file was left on the disk.
        leftovers = [p for p in data.rglob("*") if p.is_file() and ("incoming" in p.parts or p.suffix == ".part")]
        assert leftovers == [], leftovers

        # Owners are warned on the home page and see the disk on the settings page.
        home = browser.request("GET", "/")
        assert "서버 디스크가" in home.text and "퍼센트 찼습니다" in home.text, home.text[:500]
        assert "저장 공간" in browser.request("GET", "/settings").text

        # Space comes back: the same requests succeed.
        ballast.unlink()
        made = server.request("POST", "/api/v1/entries", {"title": "다시", "date": "2026-11-23T09:00", "childIds": [child["id"]]}, owner)
        assert made.status == 201, made.body
        content_type, upload = multipart([("again.png", photos[0])])
        assert server.request("POST", "/api/v1/photos", raw=upload, token=owner, headers={"Content-Type": content_type}).status == 201
    finally:
        server.stop()
    assert os.path.ismount(small_disk)


def test_owners_hear_by_mail_when_the_disk_is_nine_tenths_full(small_disk, tmp_path, smtp):  # noqa: F811
    """Owners are told once a day, from the server's start on, while the disk is 90 % full or more."""
    from test_mail import mail_options, parts

    data = small_disk / "data"
    owner = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        assert server.request("PUT", "/api/v1/account/mail", {"address": "mom@example.kr", "digest": "off", "reminders": False,
                                                              "language": "ko"}, owner).status == 200
    finally:
        server.stop()
    statvfs = os.statvfs(small_disk)
    (small_disk / "ballast").write_bytes(b"\0" * (statvfs.f_bavail * statvfs.f_frsize - (statvfs.f_blocks * statvfs.f_frsize) // 20))
    server = Server(data)
    server.extra_args = mail_options(smtp, server, "--mail-interval", "1")
    server.start()
    try:
        [mail] = smtp.wait_for(1)
        assert str(mail["Subject"]) == "[새싹] 서버 디스크가 거의 찼습니다" and "mom@example.kr" in mail["To"]
        _, text, _ = parts(mail)
        assert "퍼센트 찼습니다" in text and "/settings#s-storage" in text
    finally:
        server.stop()
    # Started again the same day: no second mail.
    server.start()
    try:
        import time
        time.sleep(3)
        assert len(smtp.messages) == 1
    finally:
        server.stop()
