"""Issue 37: scheduled, verified, encrypted snapshots with real restic, to a folder on another disk and to a real
S3-compatible bucket (SeaweedFS, in the object storage pass): a server with a target takes its first snapshot at
start with no further action; a snapshot restored into an empty folder gives the same backup as the live data; the
target holds nothing readable; the second snapshot of unchanged photos sends little; a flipped byte is found by
verify; a wrong passphrase, a missing restic and an unreachable bucket give a clear message, an owner-visible failure
and a non-zero status. Both engines."""
import json
import os
import time
import zipfile
from pathlib import Path

import pytest

from browser import Browser
from conftest import ENGINE, PHOTOS, Server, drop_database, engine_environment, make_family, new_child, new_entry, saessak
from images import image_bytes, multipart
from openapi_contract import check
from test_mail import smtp  # noqa: F401 (the fixture: a real SMTP server on loopback)

pytestmark = [pytest.mark.engine, pytest.mark.photos]

PASSPHRASE = "우리 가족만 아는 긴 암호"
RESIDENT_NUMBER = "250301-4123456"
TITLE = "새싹이 처음 걸은 날"


def environment(data, **more):
    return engine_environment(data) | {"SAESSAK_SNAPSHOT_PASSWORD": PASSPHRASE} | more


def run(*args, data, env, check=True):
    import subprocess
    from conftest import BIN
    result = subprocess.run([BIN, *args, "--data", str(data)], env=env, capture_output=True, text=True, timeout=600)
    if check:
        assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def target_for(tmp_path, name):
    """A folder target, or (in the object storage pass) a prefix of the test bucket."""
    if PHOTOS == "s3":
        base = os.environ["SAESSAK_TEST_S3_URL"]
        bucket_and_query = base.split("://", 1)[1]
        bucket, _, query = bucket_and_query.partition("?")
        return f"s3://{bucket.split('/')[0]}/snapshots-{name}-{os.getpid()}?{query}", {
            "SAESSAK_SNAPSHOT_S3_ACCESS_KEY_ID": os.environ["SAESSAK_TEST_S3_ACCESS_KEY_ID"],
            "SAESSAK_SNAPSHOT_S3_SECRET_ACCESS_KEY": os.environ["SAESSAK_TEST_S3_SECRET_ACCESS_KEY"]}
    return str(tmp_path / f"{name}-target"), {}


def target_bytes(target):
    """Every stored byte at the target: the folder's files, or the bucket prefix's objects."""
    if target.startswith("s3://"):
        from conftest import s3_client
        client, bucket = s3_client()
        prefix = target.split("://", 1)[1].split("?")[0].split("/", 1)[1]
        found = []
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/"):
            for item in page.get("Contents", []):
                found.append(client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read())
        return found
    return [p.read_bytes() for p in Path(target).rglob("*") if p.is_file()]


def family(tmp_path, name="live"):
    data = tmp_path / name / "saessak-data"
    token = make_family(data, "mom", "우리집")
    return data, token


def fill(server, token, tmp_path, photos=2):
    child = new_child(server, token, residentNumber=RESIDENT_NUMBER)
    files = [(f"p{i}.jpg", image_bytes(tmp_path, ".jpg", 800 + i * 16, 600)) for i in range(photos)]
    content_type, body = multipart(files)
    uploaded = server.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": content_type})
    assert uploaded.status == 201, uploaded.body
    ids = [p["id"] for p in uploaded.json()["items"]]
    new_entry(server, token, [child["id"]], title=TITLE, body="거실에서 세 걸음", photoIds=ids)
    assert server.request("POST", "/api/v1/memos", {"title": "기저귀 사이즈", "body": "3단계"}, token).status == 201
    return child


def filled_family(tmp_path, photos=2):
    """A family with a child, an entry with `photos` photos and a memo, its server stopped."""
    data, token = family(tmp_path)
    server = Server(data).start()
    try:
        fill(server, token, tmp_path, photos=photos)
    finally:
        server.stop()
    return data


def status(server, token):
    answer = server.request("GET", "/api/v1/snapshots/status", token=token)
    check("GET", "/api/v1/snapshots/status", answer)
    assert answer.status == 200, answer.body
    return answer.json()


def wait_for(server, token, predicate, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = status(server, token)
        if predicate(found):
            return found
        time.sleep(0.3)
    raise AssertionError(f"snapshot status never matched: {found}")


def backup_contents(path):
    with zipfile.ZipFile(path) as archive:
        tables = {name: json.loads(archive.read(name)) for name in archive.namelist() if name.startswith("data/")}
        photos = sorted(name for name in archive.namelist() if name.startswith("photos/"))
    return tables, photos


def test_a_server_with_a_target_keeps_snapshots_that_restore_to_the_same_diary(tmp_path):
    data, token = family(tmp_path)
    target, keys = target_for(tmp_path, "kept")
    env = environment(data, **keys)
    server = Server(data, env=env)
    server.extra_args = ["--snapshots", target, "--snapshot-every", "24h", "--snapshot-include-sensitive"]
    server.start()
    try:
        assert status(server, token)["configured"] is True
        fill(server, token, tmp_path)
        # The first snapshot was taken at start (of an empty diary); one taken now has everything.
        wait_for(server, token, lambda s: "lastGood" in s)
        mom = Browser(server)  # signing in is a line of the record: before the snapshot
        assert mom.sign_in("mom", "a long password").status == 303
        taken = run("snapshots", "run", "--snapshots", target, "--snapshot-include-sensitive", data=data, env=env)
        assert "taken" in taken.stdout
        good = wait_for(server, token, lambda s: s.get("lastGood", {}).get("snapshotId") in taken.stdout)
        assert good["late"] is False and good["lastGood"]["verified"].endswith("/30") and "lastRun" in good
        # The settings page says so to the owner.
        settings = mom.request("GET", "/settings")
        assert "마지막 백업 방금" in settings.text and "snapshot-warning" not in mom.request("GET", "/").text
        live = tmp_path / "live.zip"
        saessak("backup", "--include-sensitive", str(live), data=data)
    finally:
        server.stop()

    listed = json.loads(run("snapshots", "list", "--json", "--snapshots", target, data=data, env=env).stdout)
    assert listed and all(len(s["shortId"]) == 8 for s in listed)
    assert run("snapshots", "verify", "--all", "--snapshots", target, data=data, env=env).returncode == 0
    assert run("snapshots", "status", "--snapshots", target, data=data, env=env).returncode == 0

    # Nothing readable at the target: no JPEG, no entry title, no resident number, no passphrase.
    for blob in target_bytes(target):
        assert b"\xff\xd8\xff" not in blob and TITLE.encode() not in blob and RESIDENT_NUMBER.encode() not in blob
        assert PASSPHRASE.encode() not in blob

    # Restored into an empty folder (and database): the same backup as the live data.
    restored = tmp_path / "restored" / "saessak-data"
    drop_database(restored)
    out = run("restore", "--from", target, data=restored, env=environment(restored, **keys))
    assert "Restored 1 entries" in out.stdout
    again = tmp_path / "again.zip"
    saessak("backup", "--include-sensitive", str(again), data=restored)
    (tables, photos), (expected, expected_photos) = backup_contents(again), backup_contents(live)
    assert photos == expected_photos
    assert tables == expected, {name: (tables.get(name), rows) for name, rows in expected.items() if tables.get(name) != rows}
    server = Server(restored).start()
    try:
        token = saessak("admin", "create-token", "--username", "mom", data=restored).stdout.strip()
        entries = server.request("GET", "/api/v1/entries", token=token).json()["items"]
        assert [e["title"] for e in entries] == [TITLE]
        photo = entries[0]["photoIds"][0]
        deadline = time.time() + 60  # thumbnails are made again in the background
        while server.request("GET", f"/api/v1/photos/{photo}/thumbnail?size=small", token=token).status != 200:
            assert time.time() < deadline
            time.sleep(0.2)
    finally:
        server.stop()


def test_the_second_snapshot_of_unchanged_photos_sends_little(tmp_path):
    data = filled_family(tmp_path, photos=8)
    target, keys = target_for(tmp_path, "small")
    env = environment(data, **keys)
    first = run("snapshots", "run", "--snapshots", target, data=data, env=env).stdout
    second = run("snapshots", "run", "--snapshots", target, data=data, env=env).stdout
    assert " 0 new files" in second, second
    status_json = json.loads(run("snapshots", "status", "--json", "--snapshots", target, data=data, env=env).stdout)
    # The tables again (deduplicated to almost nothing) and restic's own trees: kilobytes (docs/backup.md has the
    # figures for a gigabyte of photos).
    assert status_json["lastGood"]["bytesAdded"] < 64 * 1024, (first, second, status_json)


def test_failures_are_named_shown_to_owners_and_make_status_fail(tmp_path):
    data, token = family(tmp_path)
    target, keys = target_for(tmp_path, "failing")
    env = environment(data, **keys)
    run("snapshots", "run", "--snapshots", target, data=data, env=env)
    # A wrong passphrase.
    wrong = run("snapshots", "run", "--snapshots", target, data=data, env=env | {"SAESSAK_SNAPSHOT_PASSWORD": "not it"}, check=False)
    assert wrong.returncode != 0 and "passphrase does not open" in wrong.stderr
    assert PASSPHRASE not in wrong.stderr + wrong.stdout and "not it" not in wrong.stderr
    # No passphrase at all.
    none = run("snapshots", "list", "--snapshots", target, data=data, env={k: v for k, v in env.items() if k != "SAESSAK_SNAPSHOT_PASSWORD"},
               check=False)
    assert none.returncode != 0 and "SAESSAK_SNAPSHOT_PASSWORD" in none.stderr
    # restic missing.
    missing = run("snapshots", "run", "--snapshots", target, data=data, env=env | {"SAESSAK_RESTIC": "/nonexistent/restic"}, check=False)
    assert missing.returncode != 0 and "restic is not installed" in missing.stderr
    # A bucket nobody answers at.
    gone = "s3://nowhere/snapshots?endpoint=http://127.0.0.1:9"
    unreachable = run("snapshots", "run", "--snapshots", gone, data=data,
                      env=env | {"SAESSAK_SNAPSHOT_S3_ACCESS_KEY_ID": "x", "SAESSAK_SNAPSHOT_S3_SECRET_ACCESS_KEY": "y"}, check=False)
    assert unreachable.returncode != 0 and "cannot be reached" in unreachable.stderr
    # The last run failed: the status says so and exits 1; the owner's pages say why, in Korean and English.
    failed = run("snapshots", "status", "--json", "--snapshots", target, data=data, env=env, check=False)
    assert failed.returncode == 2 and json.loads(failed.stdout)["lastRun"]["reason"] == "unreachable"
    server = Server(data, env=env)
    server.extra_args = ["--snapshots", target]
    server.start()
    try:
        # The server's own first run (with the right passphrase) succeeds: the warning goes.
        wait_for(server, token, lambda s: s.get("lastRun", {}).get("status") == "ok")
        execute_failure = run("snapshots", "run", "--snapshots", target, data=data, env=env | {"SAESSAK_RESTIC": "/nonexistent/restic"}, check=False)
        assert execute_failure.returncode != 0
        mom = Browser(server)
        assert mom.sign_in("mom", "a long password").status == 303
        home = mom.request("GET", "/")
        assert "snapshot-warning" in home.text and "restic이 설치되지 않음" in home.text
        assert "restic is not installed" in mom.request("GET", "/?lang=en").text
        assert "실패: restic이 설치되지 않음" in mom.request("GET", "/settings?lang=ko").text
        assert status(server, token)["lastRun"]["reason"] == "missing"
    finally:
        server.stop()


@pytest.mark.skipif(PHOTOS == "s3", reason="flips a byte in a folder target")
def test_a_flipped_byte_at_the_target_is_found_by_verify(tmp_path):
    data = filled_family(tmp_path)
    target, _ = target_for(tmp_path, "flipped")
    env = environment(data)
    run("snapshots", "run", "--snapshots", target, data=data, env=env)
    packs = sorted((Path(target) / "data").rglob("*"), key=lambda p: p.stat().st_size if p.is_file() else 0)
    pack = packs[-1]
    content = bytearray(pack.read_bytes())
    content[len(content) // 2] ^= 0x01
    pack.chmod(0o600)
    pack.write_bytes(bytes(content))
    verified = run("snapshots", "verify", "--all", "--snapshots", target, data=data, env=env, check=False)
    assert verified.returncode != 0 and "damaged" in verified.stderr, verified.stderr


def alive(pid):
    """Whether a process is running (not gone, not a zombie)."""
    try:
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def restic_at(target):
    """Whether a restic process works on `target` (its environment names the repository)."""
    needle = f"RESTIC_REPOSITORY={target}\0".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes() and alive(int(entry.name)):
                    return True
            except OSError:
                continue
    return False


def children_of(pid):
    """The processes whose parent is `pid` (restic under the snapshot command)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def kept_after(before, listing):
    """The snapshots listed after a killed run, checked against those listed before it: the newest earlier one is
    still there, or a newer one finished (the retention then forgets a same-day one). Whether each is whole,
    `verify --all` reads at the end."""
    listed = json.loads(listing.stdout)
    newest = max(before, key=lambda s: s["time"])
    assert newest["id"] in {s["id"] for s in listed} or any(s["time"] > newest["time"] for s in listed), (before, listed)
    return listed


def wait_until_restic_is_gone(resticks, target):
    """restic goes with a killed parent a moment later (its parent's death signals it): waits until none works on
    the target, whether seen at the kill or started just before it."""
    deadline = time.time() + 30
    while any(alive(pid) for pid in resticks) or restic_at(target):
        assert time.time() < deadline
        time.sleep(0.05)


@pytest.mark.skipif(PHOTOS == "s3", reason="kills local processes; the folder target is enough")
def test_kill_9_mid_snapshot_keeps_earlier_snapshots_whole_and_the_next_run_succeeds(tmp_path):
    import random
    import signal
    import subprocess
    from conftest import BIN
    data = filled_family(tmp_path, photos=6)
    target, _ = target_for(tmp_path, "killed")
    env = environment(data)
    run("snapshots", "run", "--snapshots", target, data=data, env=env)
    before = json.loads(run("snapshots", "list", "--json", "--snapshots", target, data=data, env=env).stdout)
    rng = random.Random(37)
    killed = 0
    # The server itself, killed during the snapshot it takes at start (its restic goes with it).
    server = Server(data, env=env)
    server.extra_args = ["--snapshots", target]
    server.start()
    time.sleep(rng.uniform(0.2, 2.0))
    resticks = children_of(server.process.pid)
    server.stop(kill=True)
    killed += 1
    wait_until_restic_is_gone(resticks, target)
    before = kept_after(before, run("snapshots", "list", "--json", "--snapshots", target, data=data, env=env))
    for round_ in range(6):
        process = subprocess.Popen([BIN, "snapshots", "run", "--snapshots", target, "--data", str(data)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.3, 3.0))
        resticks = []
        if process.poll() is None:
            # Half the rounds kill restic itself, the others the snapshot command (restic dies with it).
            resticks = children_of(process.pid)
            victims = resticks if round_ % 2 else [process.pid]
            for victim in victims:
                try:
                    os.kill(victim, signal.SIGKILL)
                    killed += 1
                except ProcessLookupError:
                    pass
        process.wait(timeout=120)
        wait_until_restic_is_gone(resticks, target)
        before = kept_after(before, run("snapshots", "list", "--json", "--snapshots", target, data=data, env=env))
    assert killed >= 2
    # The next run succeeds, everything reads back whole, and the newest restores.
    taken = run("snapshots", "run", "--snapshots", target, data=data, env=env)
    assert "taken" in taken.stdout
    assert run("snapshots", "verify", "--all", "--snapshots", target, data=data, env=env).returncode == 0
    restored = tmp_path / "after-kills" / "saessak-data"
    drop_database(restored)
    assert "Restored 1 entries" in run("restore", "--from", target, data=restored, env=environment(restored)).stdout


def test_owners_hear_by_mail_once_when_snapshots_fail(tmp_path, smtp):
    from test_mail import mail_options, parse
    data, token = family(tmp_path)
    server = Server(data).start()
    try:
        # The owner gave an address (and asked for nothing else): a failed snapshot is still theirs to hear of.
        answer = server.request("PUT", "/api/v1/account/mail", {"address": "mom@example.kr", "digest": "off", "reminders": False,
                                                                "language": "ko"}, token)
        assert answer.status == 200, answer.body
    finally:
        server.stop()
    target, keys = target_for(tmp_path, "mailed")
    env = environment(data, **keys) | {"SAESSAK_RESTIC": "/nonexistent/restic"}
    server = Server(data, env=env)
    server.extra_args = ["--snapshots", target, *mail_options(smtp, server, "--mail-interval", "1")]
    server.start()
    try:
        [mail] = smtp.wait_for(1, seconds=60)
        assert str(mail["Subject"]) == "[새싹] 자동 백업 실패" and mail["To"].addresses[0].addr_spec == "mom@example.kr"
        text = mail.get_body(("plain",)).get_content()
        assert "restic is not installed" in text and "아직 성공한 백업이 없습니다" in text and "/settings#s-snapshots" in text
        assert PASSPHRASE not in text and RESIDENT_NUMBER not in text
        assert status(server, token)["lastRun"]["reason"] == "missing"
    finally:
        server.stop()
    time.sleep(1)
    assert len(smtp.messages) == 1  # one mail for the run of failures, not one per retry


@pytest.mark.skipif(PHOTOS == "s3" or os.geteuid() != 0, reason="mounts a small tmpfs as the target (root, folder target)")
def test_a_full_target_is_named(tmp_path):
    import subprocess
    data = filled_family(tmp_path, photos=8)
    full = tmp_path / "full-disk"
    full.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(full)], capture_output=True).returncode != 0:
        pytest.skip("this machine does not let tmpfs be mounted")
    try:
        env = environment(data)
        failed = run("snapshots", "run", "--snapshots", str(full / "target"), data=data, env=env, check=False)
        assert failed.returncode != 0 and "target is full" in failed.stderr, failed.stderr
        status_json = json.loads(run("snapshots", "status", "--json", "--snapshots", str(full / "target"), data=data, env=env,
                                     check=False).stdout)
        assert status_json["lastRun"]["reason"] == "full"
    finally:
        subprocess.run(["umount", "-l", str(full)])


def test_writes_during_a_snapshot_leave_it_whole_with_everything_acknowledged_before(tmp_path):
    import subprocess
    import threading
    from conftest import BIN
    data, token = family(tmp_path)
    target, keys = target_for(tmp_path, "busy")
    env = environment(data, **keys)
    server = Server(data).start()
    try:
        child = fill(server, token, tmp_path, photos=4)
        before = [new_entry(server, token, [child["id"]], title=f"전 {n}")["id"] for n in range(10)]
        stop = threading.Event()

        def writer():
            n = 0
            while not stop.is_set():
                new_entry(server, token, [child["id"]], title=f"도중 {n}")
                n += 1

        thread = threading.Thread(target=writer)
        thread.start()
        try:
            snapshot = subprocess.run([BIN, "snapshots", "run", "--snapshots", target, "--data", str(data)], env=env,
                                      capture_output=True, text=True, timeout=600)
        finally:
            stop.set()
            thread.join(timeout=60)
        assert snapshot.returncode == 0, snapshot.stderr
    finally:
        server.stop()
    restored = tmp_path / "busy-restored" / "saessak-data"
    drop_database(restored)
    run("restore", "--from", target, data=restored, env=environment(restored, **keys))
    server = Server(restored).start()
    try:
        token = saessak("admin", "create-token", "--username", "mom", data=restored).stdout.strip()
        ids, cursor = set(), ""
        while cursor is not None:
            page = server.request("GET", "/api/v1/entries?limit=200" + (f"&cursor={cursor}" if cursor else ""), token=token).json()
            ids |= {e["id"] for e in page["items"]}
            cursor = page.get("next")
        assert set(before) <= ids and len(ids) > len(before)
    finally:
        server.stop()
    if ENGINE == "sqlite":  # the diary the snapshot became is sound
        import sqlite3
        with sqlite3.connect(restored / "saessak.sqlite") as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
