"""Several `saessak serve` processes on one PostgreSQL database and one shared data folder behave as one (issue 19):
what one writes the other reads, a web session and its CSRF token work on either, wrong passwords count on both, one
snapshot a period is taken between them, a book made by one is downloaded from either,
an invitation is used once, and when one is killed with SIGKILL in the middle of entry writes and photo uploads the
other carries on and no acknowledged write is lost. Also: a database that is down, at start or while serving, gives a
clear message or 503 with Retry-After — never a crash or a hang. Runs in the PostgreSQL pass of `make test`."""
import os
import re
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from browser import Browser
from conftest import BIN, ENGINE, PHOTOS, ROOT, Server, engine_environment, make_family, new_child, photo_files, saessak
from images import image, multipart

pytestmark = [pytest.mark.engine,
              pytest.mark.skipif(ENGINE != "postgres", reason="several servers share a PostgreSQL database")]
PASSWORD = "a long password"  # what make_family sets


@pytest.fixture
def pair(tmp_path):
    data = tmp_path / "shared" / "saessak-data"
    token = make_family(data, "mom", "우리집")
    one, two = Server(data).start(), Server(data).start()
    one.token = two.token = token
    yield one, two
    one.stop(kill=True)
    two.stop(kill=True)


@pytest.mark.skipif(PHOTOS != "s3", reason="servers without a shared folder need photos in object storage")
def test_servers_on_separate_machines_share_photos_through_the_bucket(tmp_path):
    """The many-family host of docs/deploy.md: each server its own data folder (the key copied, nothing else), one
    PostgreSQL database, one bucket."""
    data = tmp_path / "one" / "saessak-data"
    token = make_family(data, "mom", "우리집")
    other = tmp_path / "two" / "saessak-data"
    other.mkdir(parents=True, mode=0o700)
    (other / "secret.key").write_bytes((data / "secret.key").read_bytes())
    (other / "secret.key").chmod(0o600)
    shared = engine_environment(data)  # the same database schema and bucket prefix for both
    one, two = Server(data, env=shared).start(), Server(other, env=shared).start()
    try:
        pictures = [image(tmp_path, ".jpg", 900, 600).read_bytes() + b"%d" % i for i in range(4)]
        ids = []
        for index, picture in enumerate(pictures):
            content_type, body = multipart([(f"{index}.jpg", picture)])
            server = (one, two)[index % 2]
            response = server.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": content_type})
            assert response.status == 201, response.body
            ids.append(response.json()["items"][0]["id"])
        for photo, picture in zip(ids, pictures):
            for server in (one, two):
                assert server.request("GET", f"/api/v1/photos/{photo}/original", token=token).body == picture
        deadline = time.time() + 60
        while not all(two.request("GET", f"/api/v1/photos/{photo}", token=token).json().get("thumbnailsReady") for photo in ids):
            assert time.time() < deadline
            time.sleep(0.2)
        assert len(photo_files(data, "thumbnails/large")) == 4  # each made once, by whichever server claimed it
        for photo in ids:
            assert one.request("GET", f"/api/v1/photos/{photo}/thumbnail?size=large", token=token).status == 200
        # Nothing of the photos is in either data folder but the cache.
        assert not (data / "photos" / "originals").exists() and not (other / "photos" / "originals").exists()
        # Taken off its entry through two, it waits in the trash (issue 36) for both; purged through one, it is gone
        # for both, and from the bucket.
        child = new_child(one, token, name="하늘")
        entry = one.request("POST", "/api/v1/entries", {"title": "사진", "date": "2026-11-22T09:30", "childIds": [child["id"]],
                                                        "photoIds": [ids[0]]}, token).json()
        taken = two.request("DELETE", f"/api/v1/entries/{entry['id']}/photos/{ids[0]}", token=token)
        assert taken.status == 204
        assert [p["id"] for p in one.request("GET", f"/api/v1/entries/{entry['id']}/photos", token=token).json()["items"]] == []
        assert len(photo_files(data, "originals")) == 4
        assert one.request("DELETE", f"/api/v1/trash/{taken.headers['Trash-Item']}", token=token).status == 204
        assert two.request("GET", f"/api/v1/photos/{ids[0]}/original", token=token).status == 404
        assert len(photo_files(data, "originals")) == 3
        # A book asked for through one is made by whichever server claims it and downloaded whole from either.
        book = one.request("POST", "/api/v1/books", {"childId": child["id"], "year": 2026}, token).json()
        deadline = time.time() + 120
        while two.request("GET", f"/api/v1/books/{book['id']}", token=token).json()["status"] != "ready":
            assert time.time() < deadline
            time.sleep(0.3)
        made = [server.request("GET", f"/api/v1/books/{book['id']}/file", token=token) for server in (one, two)]
        assert made[0].status == made[1].status == 200 and made[0].body == made[1].body and made[0].body.startswith(b"%PDF-")
        assert len(photo_files(data, "books")) == 1
    finally:
        one.stop()
        two.stop()


def entries(server, token):
    ids, cursor = set(), ""
    while True:
        page = server.request("GET", f"/api/v1/entries?limit=200{cursor}", token=token).json()
        ids |= {entry["id"] for entry in page["items"]}
        if not page.get("nextCursor"):
            return ids
        cursor = f"&cursor={page['nextCursor']}"


def test_two_servers_behave_as_one(pair, tmp_path):
    one, two = pair
    token = one.token
    child = new_child(one, token, name="하늘")
    entry = one.request("POST", "/api/v1/entries", {"title": "함께", "body": "아기와 산책", "date": "2026-11-22T09:30",
                                                    "childIds": [child["id"]]}, token)
    assert entry.status == 201
    # Written through one, read and searched through the other.
    assert two.request("GET", f"/api/v1/entries/{entry.json()['id']}", token=token).json()["title"] == "함께"
    assert [hit["title"] for hit in two.request("GET", "/api/v1/search?q=산책", token=token).json()["items"]] == ["함께"]
    # A photo uploaded to one is served by the other (one shared photo folder), thumbnails included.
    content_type, body = multipart([("a.jpg", image(tmp_path, ".jpg", 800, 600).read_bytes())])
    photo = one.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": content_type}).json()["items"][0]
    assert two.request("GET", f"/api/v1/photos/{photo['id']}/original", token=token).status == 200
    deadline = time.time() + 30
    while not two.request("GET", f"/api/v1/photos/{photo['id']}", token=token).json().get("thumbnailsReady"):
        assert time.time() < deadline, "the large thumbnail was never made"
        time.sleep(0.2)
    assert two.request("GET", f"/api/v1/photos/{photo['id']}/thumbnail?size=large", token=token).status == 200

    # A browser signed in on one is signed in on the other, and its CSRF token is good there too.
    browser = Browser(one)
    assert browser.sign_in("mom", PASSWORD).status == 303
    browser.server = two
    home = browser.request("GET", "/")
    assert home.status == 200 and "우리집" in home.text
    csrf = re.search(r'name="_csrf" value="([^"]+)"', browser.request("GET", "/memos/new").text).group(1)
    made = browser.request("POST", "/memos/new", form={"_csrf": csrf, "title": "두 서버", "body": "같은 세션"})
    assert made.status == 303
    assert "두 서버" in [memo["title"] for memo in one.request("GET", "/api/v1/memos", token=token).json()["items"]]

    # An invitation is used once, whichever server each browser reaches.
    link = one.request("POST", "/api/v1/invitations", {"role": "viewer"}, token).json()["url"]
    path = re.sub(r"^http://[^/]+", "", link)
    outcomes = []
    for server, name in ((one, "grandma"), (two, "grandpa")):
        visitor = Browser(server)
        page = visitor.request("GET", path)
        if page.status != 200:
            outcomes.append(page.status)
            continue
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
        outcomes.append(visitor.request("POST", path, form={"_csrf": csrf, "username": name, "password": PASSWORD}).status)
    assert outcomes[0] == 303 and outcomes[1] != 303

    # Wrong passwords count on every server: ten on one, the eleventh on the other is throttled (last: the address
    # stays throttled for a minute).
    guesser = Browser(one)
    for _ in range(10):
        assert guesser.sign_in("mom", "wrong password").status in (200, 401, 422)
    guesser.server = two
    throttled = guesser.sign_in("mom", "wrong password")
    assert throttled.status == 429 and throttled.getheader("Retry-After")


def test_a_server_killed_mid_writes_loses_nothing_acknowledged_and_the_other_carries_on(pair, tmp_path):
    one, two = pair
    token = one.token
    child = new_child(one, token, name="별")
    picture = image(tmp_path, ".jpg", 1600, 1200).read_bytes()
    entries_done, photos_done, lock, stop = [], [], threading.Lock(), threading.Event()

    def writer(server, name):
        n = 0
        while not stop.is_set():
            n += 1
            body = {"title": f"{name}-{n}", "body": "가" * 300, "date": "2026-11-22T10:00", "childIds": [child["id"]], "tags": ["kill"]}
            try:
                response = server.request("POST", "/api/v1/entries", body, token)
            except OSError:
                if server is one:
                    return  # killed: this write was never acknowledged
                continue
            if response.status == 201:
                with lock:
                    entries_done.append(response.json()["id"])

    def uploader(server, name):
        n = 0
        while not stop.is_set():
            n += 1
            content_type, body = multipart([(f"{name}-{n}.jpg", picture + f"{name}-{n}".encode())])
            try:
                response = server.request("POST", "/api/v1/photos", raw=body, token=token, headers={"Content-Type": content_type})
            except OSError:
                if server is one:
                    return
                continue
            if response.status == 201:
                with lock:
                    photos_done.extend(item["id"] for item in response.json()["items"])

    threads = [threading.Thread(target=job, args=(server, f"{job.__name__}-{index}"))
               for index, server in enumerate((one, one, two)) for job in (writer, uploader)]
    for thread in threads:
        thread.start()
    deadline = time.time() + 30
    while (len(entries_done) < 60 or len(photos_done) < 6) and time.time() < deadline:
        time.sleep(0.02)
    one.stop(kill=True)  # SIGKILL, mid-burst
    before = len(entries_done)
    time.sleep(1.5)
    with lock:
        assert len(entries_done) > before, "the surviving server stopped taking writes"
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert len(entries_done) >= 20 and photos_done, "the burst barely started"

    stored = entries(two, token)
    assert set(entries_done) <= stored
    for photo in photos_done:
        assert two.request("GET", f"/api/v1/photos/{photo}/original", token=token).status == 200
    # The killed server's place is taken by a new one on the same database and folder: nothing to repair.
    three = Server(one.data).start()
    try:
        assert entries(three, token) == entries(two, token)
    finally:
        three.stop()


def test_a_database_that_is_down_gives_a_message_or_503_never_a_hang(tmp_path):
    # Not under pytest's folder: the cluster's unprivileged owner must be able to reach it.
    cluster = Path(tempfile.mkdtemp(prefix="saessak-down-"))
    url = subprocess.run([str(ROOT / "scripts" / "postgres-cluster.sh"), "start", str(cluster)], check=True,
                         capture_output=True, text=True).stdout.strip()
    bin_dir = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]

    def pg_ctl(*args):
        command = [str(bin_dir / "pg_ctl"), "-D", str(cluster / "data"), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "nobody", "--", *command]
        subprocess.run(command, check=True, capture_output=True)

    try:
        data = tmp_path / "saessak-data"
        environment = engine_environment(None) | {"SAESSAK_DATABASE_URL": url}
        # Bad connection strings: a clear message at once.
        for bad, message in (("mysql://x@y/z", "postgres://"), ("postgres://u:secret@127.0.0.1/db", "must not hold the password"),
                             ("postgres://127.0.0.1/db", "names no user"), (url + "&pool=0", "pool")):
            result = subprocess.run([BIN, "serve", "--data", str(data), "--port", "0", "--database", bad], capture_output=True,
                                    text=True, timeout=30, env=environment)
            assert result.returncode != 0 and message in result.stderr, (bad, result.stderr)
            assert "secret" not in result.stderr
        # Nothing listening at start: a message naming the database, not a hang.
        pg_ctl("-m", "immediate", "-w", "stop")
        started = time.time()
        result = subprocess.run([BIN, "serve", "--data", str(data), "--port", "0"], capture_output=True, text=True, timeout=60,
                                env=environment)
        assert result.returncode != 0 and "cannot connect to postgres://saessak@127.0.0.1" in result.stderr, result.stderr
        assert time.time() - started < 30
        # Gone while serving: 503 with Retry-After, then back to work when it returns.
        pg_ctl("-w", "-l", str(cluster / "server.log"), "start")
        token = make_family_at(data, environment)
        server = Server(data, env=environment).start()
        try:
            assert server.request("GET", "/api/v1/children", token=token).status == 200
            pg_ctl("-m", "immediate", "-w", "stop")
            started = time.time()
            down = server.request("GET", "/api/v1/children", token=token)
            assert down.status == 503 and down.headers.get("Retry-After"), down.body
            assert time.time() - started < 25
            assert server.request("GET", "/healthz").status == 200  # the process itself is fine
            pg_ctl("-w", "-l", str(cluster / "server.log"), "start")
            deadline = time.time() + 30
            while server.request("GET", "/api/v1/children", token=token).status != 200:
                assert time.time() < deadline, "the server did not reconnect"
                time.sleep(0.5)
        finally:
            server.stop()
    finally:
        subprocess.run([str(ROOT / "scripts" / "postgres-cluster.sh"), "stop", str(cluster)], capture_output=True)


def make_family_at(data, environment):
    for args in (["admin", "create-user", "--username", "mom", "--password-stdin"], ["admin", "create-token", "--username", "mom"]):
        result = subprocess.run([BIN, *args, "--data", str(data)], input=PASSWORD + "\n", capture_output=True, text=True,
                                timeout=60, env=environment, check=True)
    return result.stdout.strip()


def test_two_servers_with_one_target_take_one_snapshot_a_period(tmp_path):
    """Issue 37: several servers on one database claim the period's snapshot in it; one takes it, the other finds it
    taken."""
    data = tmp_path / "shared" / "saessak-data"
    token = make_family(data, "mom", "우리집")
    target = tmp_path / "snapshots"
    environment = engine_environment(data) | {"SAESSAK_SNAPSHOT_PASSWORD": "one passphrase for both"}
    servers = [Server(data, env=environment) for _ in range(2)]
    for server in servers:
        server.extra_args = ["--snapshots", str(target), "--snapshot-every", "24h"]
    for server in servers:
        server.start()
    try:
        deadline = time.time() + 120
        while True:
            status = servers[1].request("GET", "/api/v1/snapshots/status", token=token).json()
            if "lastGood" in status:
                break
            assert time.time() < deadline, status
            time.sleep(0.5)
        time.sleep(3)  # the other server has looked by now
        from conftest import _psql
        # One run between them (the loser of the claim writes no row), and restic holds its snapshot.
        assert _psql(data, "SELECT status, count(*) FROM snapshotRuns GROUP BY status")[1].split() == ["ok|1"]
        listed = subprocess.run([BIN, "snapshots", "list", "--json", "--snapshots", str(target), "--data", str(data)], env=environment,
                                capture_output=True, text=True, check=True).stdout
        assert '"shortId"' in listed
    finally:
        for server in servers:
            server.stop()
