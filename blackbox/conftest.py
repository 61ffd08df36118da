"""Black-box tests of the built `saessak` binary: the real server on a free loopback port, real SQLite files — or,
with SAESSAK_BLACKBOX_ENGINE=postgres, a real PostgreSQL database (SAESSAK_TEST_POSTGRES_URL), one schema per data
folder, for the modules that `make test` runs a second time on that engine. With SAESSAK_BLACKBOX_PHOTOS=s3 the
photos go to a real S3-compatible store (SeaweedFS, SAESSAK_TEST_S3_URL), one prefix per data folder."""
import hashlib
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = os.environ.get("SAESSAK_BIN", str(ROOT / ".build" / "debug" / "saessak"))


ENGINE = os.environ.get("SAESSAK_BLACKBOX_ENGINE", "sqlite")
PHOTOS = os.environ.get("SAESSAK_BLACKBOX_PHOTOS", "folder")
# bcrypt at its lowest cost for every program the tests start: a debug build takes it (PasswordHasher.defaultCost;
# an optimised build keeps 12), and at 12 a debug build spends half a second a password — two thirds of the time of
# the sign-in modules. Hashes carry their cost, so checking them is the same code either way.
os.environ.setdefault("SAESSAK_TEST_BCRYPT_COST", "4")


def engine_environment(data, engine=None, photos=None):
    """The environment a command or server on `data` runs with: on PostgreSQL, the database URL of the data
    folder's own schema (so every data folder is a database of its own, as on SQLite); on object storage, the photo
    store URL of the data folder's own prefix, and the store's keys. `engine` and `photos` override the run's."""
    environment = dict(os.environ)
    environment.pop("SAESSAK_DATABASE_URL", None)
    environment.pop("SAESSAK_PHOTOS_URL", None)
    if (engine or ENGINE) == "postgres" and data is not None:
        schema = "bb_" + hashlib.sha256(str(Path(data).resolve()).encode()).hexdigest()[:24]
        base = os.environ["SAESSAK_TEST_POSTGRES_URL"]
        environment["SAESSAK_DATABASE_URL"] = base + ("&" if "?" in base else "?") + "schema=" + schema
    if (photos or PHOTOS) == "s3" and data is not None:
        environment |= s3_environment(photo_prefix(data))
    return environment


def photo_prefix(data):
    """The object storage prefix of a data folder's photos in the test bucket."""
    return "bb_" + hashlib.sha256(str(Path(data).resolve()).encode()).hexdigest()[:24]


def s3_url(prefix):
    """The test bucket's photo store URL with this prefix."""
    base = urllib.parse.urlsplit(os.environ["SAESSAK_TEST_S3_URL"])
    return urllib.parse.urlunsplit((base.scheme, base.netloc, "/" + prefix, base.query, ""))


def s3_environment(prefix):
    """What a command needs to keep its photos under `prefix` in the test bucket: the URL and the keys."""
    return {"SAESSAK_PHOTOS_URL": s3_url(prefix), "SAESSAK_S3_ACCESS_KEY_ID": os.environ["SAESSAK_TEST_S3_ACCESS_KEY_ID"],
            "SAESSAK_S3_SECRET_ACCESS_KEY": os.environ["SAESSAK_TEST_S3_SECRET_ACCESS_KEY"]}


def s3_client():
    """An independent S3 client (boto3) on the test bucket, and the bucket's name."""
    import boto3
    from botocore.config import Config
    base = urllib.parse.urlsplit(os.environ["SAESSAK_TEST_S3_URL"])
    endpoint = dict(urllib.parse.parse_qsl(base.query))["endpoint"]
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id=os.environ["SAESSAK_TEST_S3_ACCESS_KEY_ID"],
                          aws_secret_access_key=os.environ["SAESSAK_TEST_S3_SECRET_ACCESS_KEY"],
                          config=Config(s3={"addressing_style": "path"}))
    return client, base.netloc


def s3_objects(prefix):
    """Key (under `prefix`) → bytes of every object there."""
    client, bucket = s3_client()
    found = {}
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix + "/"):
        for item in page.get("Contents", []):
            found[item["Key"][len(prefix) + 1:]] = item
    return found


def photo_files(data, folder, photos=None):
    """The stored files under `folder` of a data folder's photos (`originals`, `thumbnails/large`, …) as relative
    paths: in the data folder, or in its prefix of the test bucket. `incoming` is always local."""
    if (photos or PHOTOS) == "s3" and folder != "incoming":
        return sorted(key for key in s3_objects(photo_prefix(data)) if key.startswith(folder + "/"))
    root = Path(data) / "photos" / folder
    return sorted(str(p.relative_to(root.parent)) for p in root.rglob("*") if p.is_file()) if root.exists() else []


def execute_sql(data, statement, *parameters):
    """Runs one SQL statement on the data folder's database (SQLite, or its PostgreSQL schema through psql): for
    what no interface does, such as making a link expire."""
    if ENGINE != "postgres":
        import sqlite3
        with sqlite3.connect(Path(data) / "saessak.sqlite") as db:
            db.execute(statement, parameters)
        return
    for value in parameters:
        text = str(value)
        assert "'" not in text and "\\" not in text, "a test parameter must not need escaping"
        statement = statement.replace("?", f"'{text}'", 1)
    _psql(data, statement)


def query_sql(data, statement):
    """The rows of one query on the data folder's database, each a tuple of text (SQLite's or psql's)."""
    if ENGINE != "postgres":
        import sqlite3
        with sqlite3.connect(Path(data) / "saessak.sqlite") as db:
            return [tuple(str(value) for value in row) for row in db.execute(statement).fetchall()]
    return [tuple(line.split("|")) for line in _psql(data, statement)[1].splitlines()]


def schema_catalog(data):
    """The data folder's tables' indexes and constraints as its database describes them (PostgreSQL's catalog, or
    SQLite's schema table): equal for two folders whose schemas are made alike."""
    if ENGINE != "postgres":
        return query_sql(data, "SELECT type, tbl_name, name, sql FROM sqlite_master WHERE type IN ('table', 'index', 'trigger') "
                               "ORDER BY 1, 2, 3")
    return query_sql(data, r"""
        SELECT 'index', tablename, indexname, regexp_replace(indexdef, ' ON \S+\.', ' ON ') FROM pg_indexes
        WHERE schemaname = current_schema()
        UNION ALL
        SELECT 'constraint', t.relname, c.conname, pg_get_constraintdef(c.oid) || CASE WHEN c.convalidated THEN '' ELSE ' NOT VALID' END
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid WHERE t.relnamespace = current_schema()::regnamespace
        ORDER BY 1, 2, 3""")


def _psql(data, statement):
    environment = engine_environment(data, "postgres")
    url, _, query = environment["SAESSAK_DATABASE_URL"].partition("?")
    schema = urllib.parse.parse_qs(query)["schema"][0]
    environment["PGOPTIONS"] = f"-c search_path={schema}"
    result = subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-At", "-c", statement], env=environment, check=True,
                            capture_output=True, text=True)
    return schema, result.stdout


def drop_database(data, engine=None):
    """Forgets a data folder's database: its PostgreSQL schema (SQLite's file goes with the folder)."""
    if (engine or ENGINE) == "postgres":
        schema, _ = _psql(data, "SELECT 1")
        _psql(data, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def stored_bytes(data):
    """What the database keeps, as bytes to search for a secret in: SQLite's files, or every row of PostgreSQL's
    tables as text (bytes as they are)."""
    if ENGINE != "postgres":
        return b"".join(p.read_bytes() for p in Path(data).glob("saessak.sqlite*"))
    tables = ("children", "entries", "memos", "users", "apiTokens", "sessions", "events", "searchDocuments", "secondSteps")
    return "".join(_psql(data, f"SELECT t::text FROM {table} t")[1] for table in tables).encode() + b"".join(
        bytes.fromhex(line[2:]) for line in _psql(data, "SELECT residentNumberSealed FROM children WHERE residentNumberSealed IS NOT NULL")[1].split())


def database_snapshot(data):
    """Something that changes whenever the database's rows do."""
    if ENGINE != "postgres":
        return (Path(data) / "saessak.sqlite").read_bytes()
    tables = ("families", "users", "memberships", "children", "entries", "photos", "memos", "events", "anniversaries")
    return _psql(data, " UNION ALL ".join(f"SELECT '{t}', md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) FROM {t} x" for t in tables))[1]


def saessak(*args, data=None, stdin=None, check=True, engine=None):
    """Runs the CLI; returns the CompletedProcess (text mode)."""
    command = [BIN, *args] + (["--data", str(data)] if data is not None else [])
    result = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120, env=engine_environment(data, engine))
    if check and result.returncode != 0:
        raise AssertionError(f"{command} failed ({result.returncode}): {result.stderr}")
    return result


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def content_type(self):
        return (self.headers.get("Content-Type") or "").split(";")[0]

    def json(self):
        return json.loads(self.body) if self.body else None


class Server:
    """A running `saessak serve` on a data folder, and an HTTP client for it."""

    def __init__(self, data, engine=None, env=None):
        self.data = data
        self.engine = engine
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.extra_args = []

    def start(self):
        self.log = open(self.data.parent / f"server-{self.port}.log", "ab")
        # No test reaches a real weather service: unless a test names its own, a loopback port nothing listens on.
        weather = [] if "--weather-url" in self.extra_args else ["--weather-url", "http://127.0.0.1:9/v1/archive"]
        self.process = subprocess.Popen(
            [BIN, "serve", "--data", str(self.data), "--port", str(self.port), *weather, *self.extra_args], stdout=self.log, stderr=self.log,
            env=self.env or engine_environment(self.data, self.engine),
        )
        return self.answering(30)

    def answering(self, seconds):
        """Waits until the started process answers /healthz; fails with its log's end if it exits first."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                if self.request("GET", "/healthz").status == 200:
                    return self
            except OSError:
                pass
            if self.process.poll() is not None:
                self.log.flush()
                raise AssertionError(f"server exited with {self.process.returncode}: {Path(self.log.name).read_text()[-2000:]}")
            time.sleep(0.05)
        raise AssertionError(f"server did not answer /healthz within {seconds} s")

    def stop(self, kill=False):
        if self.process and self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            self.process.wait(timeout=30)
            # A stop the server had to force (ShutdownWatch) passes, and says here what it waited on (a test that
            # started the process itself has no log).
            log = getattr(self, "log", None)
            if log is not None:
                log.flush()
                lines = Path(log.name).read_text(errors="replace").splitlines()
                for line in lines:
                    if "did not stop within" in line:
                        # The log's warnings before it, and the whole log kept with the run's artefacts.
                        kept = ROOT / "test-artefacts" / f"stuck-server-{self.port}.log"
                        kept.parent.mkdir(exist_ok=True)
                        kept.write_text("\n".join(lines) + "\n")
                        before = [earlier for earlier in lines if " warning " in earlier or " error " in earlier][-6:]
                        warnings.warn(f"server on port {self.port}: {line}\n  before it:\n  " + "\n  ".join(before) + f"\n  whole log: {kept}")

    def request(self, method, path, body=None, token=None, headers=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + urllib.parse.quote(path, safe="/?&=%:!"), data=data, method=method)
        if data is not None and not (headers and "Content-Type" in headers):
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return Response(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, error.headers, error.read())


def make_family(data, username, family=None):
    args = ["admin", "create-user", "--username", username, "--password-stdin"]
    if family:
        args += ["--family", family]
    saessak(*args, data=data, stdin="a long password\n")
    return saessak("admin", "create-token", "--username", username, data=data).stdout.strip()


def join_family(data, username, family, role, own_family):
    """A user with a family of their own (`own_family`) who is also a member of `family` with `role`; returns an API
    token acting for them in `family`."""
    make_family(data, username, own_family)
    saessak("admin", "add-member", "--username", username, "--family", family, "--role", role, data=data)
    return saessak("admin", "create-token", "--username", username, "--family", family, data=data).stdout.strip()


def get_once(data, token, path):
    """GET one API path from a server started on `data` for just this (the data folder is at rest otherwise)."""
    running = Server(data).start()
    try:
        response = running.request("GET", path, None, token)
        assert response.status == 200, response.body
        return response.json()
    finally:
        running.stop()


def stored_originals(data):
    """The names of the original photo files of a data folder (in the folder, or its prefix of the test bucket)."""
    return sorted(Path(path).name for path in photo_files(data, "originals"))


def family_with_children(data, *names, birth_date="2019-05-05"):
    """A family (mom of 우리집) with these children, made through the API of a server started for it; its token."""
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    try:
        for name in names:
            response = running.request("POST", "/api/v1/children", {"name": name, "birthDate": birth_date}, token)
            assert response.status == 201, response.body
    finally:
        running.stop()
    return token


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for a test module, with two families: Kim (token `kim`) and Lee (token `lee`)."""
    data = tmp_path_factory.mktemp("data") / "saessak-data"
    kim = make_family(data, "kim", "김씨네")
    lee = make_family(data, "lee", "이씨네")
    running = Server(data).start()
    running.kim, running.lee = kim, lee
    yield running
    running.stop()


def new_child(server, token, **fields):
    body = {"name": "하늘", "birthDate": "2025-03-01", "sex": "female", **fields}
    response = server.request("POST", "/api/v1/children", body, token)
    assert response.status == 201, response.body
    return response.json()


def new_entry(server, token, child_ids, **fields):
    body = {"title": "첫 걸음", "body": "아기가 걸었어요", "date": "2026-11-22T09:30", "childIds": child_ids, **fields}
    response = server.request("POST", "/api/v1/entries", body, token)
    assert response.status == 201, response.body
    return response.json()


# The modules that take minutes, longest first. pytest-xdist hands modules to its workers in collection order: these go
# first, so that they run beside the short ones rather than after them, alone on one worker (durations: make test's
# last run, docs/reliability.md).
LONG_MODULES = ["test_roundtrip_generated.py", "test_schemathesis.py", "test_soak_kill9.py", "test_video.py",
                "test_snapshots.py", "test_durability.py", "test_web_app.py", "test_package.py"]


def pytest_collection_modifyitems(config, items):
    rank = {name: index for index, name in enumerate(LONG_MODULES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_MODULES)))  # stable: the rest keep their order


# Every documented success exercised (test_zz_contract_coverage.py): with pytest-xdist the controlling process makes the
# folder the workers write what they saw to, notes whether that module was collected, and checks when they are done.
def pytest_configure(config):
    CONFIG.append(config)
    if not hasattr(config, "workerinput"):
        from openapi_contract import SEEN_FOLDER
        os.environ[SEEN_FOLDER] = tempfile.mkdtemp(prefix="saessak-contract-")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    if any(i.startswith("test_zz_contract_coverage.py::") or "/test_zz_contract_coverage.py::" in i for i in ids):
        node.config.saessak_checks_contract = True


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config, "saessak_checks_contract", False):
        return
    from openapi_contract import SEEN_FOLDER, missing_successes, seen_in_folder
    missing = missing_successes(seen_in_folder(os.environ[SEEN_FOLDER]))
    if missing:
        message = f"documented but never checked: {sorted(missing)}"
        config.pluginmanager.get_plugin("terminalreporter").write_line(
            f"FAILED test_zz_contract_coverage (all workers): {message}", red=True)
        record_failure(config, "test_zz_contract_coverage (all workers)", message)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# What failed, kept whole for the end of make test's output (CI keeps only the end of it): each failing test's name, the
# pass it ran in and the last lines of its report, appended to the file SAESSAK_FAILURES names (by the controlling
# process only, so a failure on a pytest-xdist worker is written once).
FAILURE_LINES = 40
CONFIG = []  # this process's pytest configuration, set by pytest_configure


def record_failure(config, name, text):
    path = os.environ.get("SAESSAK_FAILURES")
    if not path or hasattr(config, "workerinput"):
        return
    engine = os.environ.get("SAESSAK_BLACKBOX_ENGINE", "sqlite")
    photos = os.environ.get("SAESSAK_BLACKBOX_PHOTOS", "folder")
    lines = text.splitlines()[-FAILURE_LINES:]
    with open(path, "a", encoding="utf-8") as out:
        out.write(f"=== {name} (black-box, {engine}, photos in {photos})\n" + "\n".join(lines) + "\n")


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report):
    if report.failed:
        record_failure(CONFIG[0], f"{report.nodeid} [{report.when}]", report.longreprtext)


def pytest_collectreport(report):
    if report.failed:
        record_failure(CONFIG[0], f"{report.nodeid} [collection]", report.longreprtext)
