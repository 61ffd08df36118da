"""Kill -9 soak (issue 16): 50 rounds in which the server is killed at a random moment while entries are written,
photos uploaded, and — from the command line beside it — a Day One export with photos imported or a backup taken
(each killed too, or let finish). Some rounds also restart the server in the middle of an import. After every round:
every acknowledged write is there, every photo row has its file, an import is all there or not at all, a backup
file is either whole or absent, `PRAGMA integrity_check` is ok and no foreign key dangles; after each start-up no
upload is half-visible and no file without a row is left. SOAK_ROUNDS sets the rounds (default 50)."""
import os
import random
import sqlite3
import subprocess
import threading
import time
import uuid
import zipfile

from conftest import BIN, Server, make_family, new_child, saessak
from dayone_export import entry, export
from images import image, multipart

ROUNDS = int(os.environ.get("SOAK_ROUNDS", "50"))


def database(data):
    connection = sqlite3.connect(f"file:{data / 'saessak.sqlite'}?mode=ro", uri=True)
    return connection


def originals(data):
    return {p.name.split(".")[0] for p in (data / "photos" / "originals").rglob("*") if p.is_file()}


class Workload:
    """Writers against a running server that record what it acknowledged."""

    def __init__(self, server, token, child, picture):
        self.server, self.token, self.child, self.picture = server, token, child, picture
        self.entries, self.photos = [], []
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.threads = [threading.Thread(target=self.write_entries), threading.Thread(target=self.upload_photos)]

    def start(self):
        for thread in self.threads:
            thread.start()
        return self

    def finish(self):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def write_entries(self):
        while not self.stop.is_set():
            body = {"title": f"soak {uuid.uuid4()}", "body": "가나다" * 50, "date": "2026-11-22T10:00", "childIds": [self.child]}
            try:
                response = self.server.request("POST", "/api/v1/entries", body, self.token)
            except OSError:
                return
            if response.status == 201:
                with self.lock:
                    self.entries.append(response.json()["id"])

    def upload_photos(self):
        while not self.stop.is_set():
            files = [(f"{i}.jpg", self.picture + uuid.uuid4().bytes) for i in range(2)]
            content_type, body = multipart(files)
            try:
                response = self.server.request("POST", "/api/v1/photos", raw=body, token=self.token, headers={"Content-Type": content_type})
            except OSError:
                return
            if response.status == 201:
                with self.lock:
                    self.photos.extend(p["id"] for p in response.json()["items"])


def day_one_export(folder, round_number, picture):
    entries = [entry(str(uuid.uuid4()).replace("-", "").upper(), f"2025-0{1 + i % 9}-1{i % 10}T03:00:00Z", f"import-{round_number}-{i}\n본문",
                     photos=[(uuid.uuid4().hex.upper(), picture + uuid.uuid4().bytes, "jpeg") for _ in range(2)])
               for i in range(40)]
    return export(folder / f"dayone-{round_number}.zip", {"Journal.json": entries}), len(entries)


def test_kill_9_soak(tmp_path):
    data = tmp_path / "saessak-data"
    token = make_family(data, "soak", "우리집")
    picture = image(tmp_path, ".jpg", 320, 240).read_bytes()
    server = Server(data).start()
    child = new_child(server, token, name="하늘")["id"]
    server.stop()
    backups = tmp_path / "backups"
    backups.mkdir()
    rng = random.Random(16)
    acknowledged_entries, acknowledged_photos, imports, complete_backups, restarts_mid_import = [], [], {}, [], 0

    for round_number in range(ROUNDS):
        server = Server(data).start()
        # Start-up, with no other writer: nothing half-uploaded, no file without its row.
        assert not list((data / "photos" / "incoming").iterdir()), f"round {round_number}: an upload left in incoming/"
        with database(data) as connection:
            rows = {sha for (sha,) in connection.execute("SELECT sha256 FROM photos")}
        assert originals(data) == rows, f"round {round_number}: files and rows differ"

        work = Workload(server, token, child, picture).start()
        job, job_kind = None, rng.choice(["import", "backup", "none"])
        if job_kind == "import":
            path, count = day_one_export(tmp_path, round_number, picture)
            imports[round_number] = count
            job = subprocess.Popen([BIN, "import", "dayone", str(path), "--child", "하늘", "--data", str(data)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elif job_kind == "backup":
            job = subprocess.Popen([BIN, "backup", str(backups / f"{round_number}.zip"), "--data", str(data)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 2.0))
        server.stop(kill=True)
        if job_kind == "import" and rng.random() < 0.5 and job.poll() is None:
            # The server comes back while the import is still running: its start-up must not sweep the import's files.
            restarts_mid_import += 1
            server = Server(data).start()
            time.sleep(rng.uniform(0.1, 1.0))
            server.stop(kill=True)
        if job is not None:
            if rng.random() < 0.5:
                job.kill()
            job.wait(timeout=120)
        work.finish()
        acknowledged_entries += work.entries
        acknowledged_photos += work.photos

        with database(data) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
            entries = {row[0] for row in connection.execute("SELECT id FROM entries")}
            photos = dict(connection.execute("SELECT id, sha256 FROM photos").fetchall())
            imported = {n: connection.execute("SELECT count(*) FROM entries WHERE title LIKE ?", (f"import-{n}-%",)).fetchone()[0] for n in imports}
        lost = set(acknowledged_entries) - entries
        assert not lost, f"round {round_number}: {len(lost)} acknowledged entries lost"
        lost = set(acknowledged_photos) - set(photos)
        assert not lost, f"round {round_number}: {len(lost)} acknowledged photos lost"
        stored = originals(data)
        assert set(photos.values()) <= stored, f"round {round_number}: a photo row without its file"
        for n, count in imported.items():
            assert count in (0, imports[n]), f"round {round_number}: import {n} half there ({count} of {imports[n]})"
        if job_kind == "backup":
            out = backups / f"{round_number}.zip"
            if out.exists():
                with zipfile.ZipFile(out) as archive:
                    assert archive.testzip() is None and "manifest.json" in archive.namelist()
                complete_backups.append(out)

    # The last start-up sweeps; a backup taken in the middle of all this restores.
    server = Server(data).start()
    try:
        with database(data) as connection:
            rows = {sha for (sha,) in connection.execute("SELECT sha256 FROM photos")}
        assert originals(data) == rows and not list((data / "photos" / "incoming").iterdir())
        listed = server.request("GET", f"/api/v1/entries/{acknowledged_entries[-1]}", token=token) if acknowledged_entries else None
        assert listed is None or listed.status == 200
    finally:
        server.stop()
    if complete_backups:
        saessak("restore", str(complete_backups[-1]), data=tmp_path / "restored")
    print(f"kill -9 soak: {ROUNDS} rounds, {len(acknowledged_entries)} entries and {len(acknowledged_photos)} photos acknowledged, "
          f"none lost; {sum(1 for c in imported.values() if c)} of {len(imports)} imports committed whole, the rest not at all; "
          f"{restarts_mid_import} restarts during an import; {len(complete_backups)} backups completed and the last restored")
