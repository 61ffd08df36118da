"""An outside fuzzer against the live server: schemathesis (PyPI) reads our own /api/v1/openapi.json, generates
requests from it — valid, invalid and boundary values, then stateful sequences that follow the links between
operations — and checks every answer: no 5xx, only documented status codes and content types, bodies as their
schemas say. Budget: SCHEMATHESIS_SECONDS (default 120). It acts as an owner with an API token and a family that
already holds a child, an entry with a photo and the rest, so that identifiers it finds lead somewhere."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from conftest import Server, make_family
from test_backup import fill

BUDGET = int(os.environ.get("SCHEMATHESIS_SECONDS", "120"))

# What the fuzzer must leave alone, or it would pull the ground from under itself: revoking tokens (its own among
# them) and changing the password (a token may not anyway, but a valid guess would end the run's sessions).
EXCLUDED = ["PUT /account/password", "DELETE /tokens/{id}"]


def test_schemathesis_finds_nothing(tmp_path):
    data = tmp_path / "saessak-data"
    token = make_family(data, "owner", "우리집")
    running = Server(data).start()
    try:
        fill(running, token, tmp_path)
        config = tmp_path / "schemathesis.toml"
        config.write_text(known_ids(running, token))
        report = tmp_path / "junit.xml"
        command = [
            str(Path(sys.executable).parent / "schemathesis"), "--config-file", str(config), "run", f"{running.base}/api/v1/openapi.json",
            "--url", f"{running.base}/api/v1",
            "-H", f"Authorization: Bearer {token}",
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--max-time", str(BUDGET), "--workers", "2", "--seed", "16",
            "--request-timeout", "30", "--no-color", "--generation-database", "none", "--report", "junit", "--report-junit-path", str(report),
        ]
        for operation in EXCLUDED:
            command += ["--exclude-name", operation]
        hooks = {**os.environ, "SCHEMATHESIS_HOOKS": "schemathesis_hooks", "PYTHONPATH": str(Path(__file__).parent)}
        result = subprocess.run(command, capture_output=True, text=True, timeout=BUDGET + 300, env=hooks)
        (tmp_path / "schemathesis.txt").write_text(result.stdout + result.stderr)
        assert running.process.poll() is None, "the server died under the fuzzer"
        cases = re.search(r"(\d+) generated", result.stdout)
        print(f"schemathesis: {summary(report)['tests']} operations, {cases.group(1) if cases else '?'} cases in {BUDGET} s; "
              f"output in {tmp_path / 'schemathesis.txt'}")
        assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    finally:
        running.stop()


def known_ids(server, token):
    """schemathesis.toml giving the fuzzer the IDs of what `fill` made, for every read and write but deletion (which
    would take them away for the operations after it): otherwise it meets mostly 404s on paths with an ID."""
    def first(path):
        return server.request("GET", "/api/v1" + path, token=token).json()["items"][0]["id"]

    child = first("/children")
    entry = first("/entries")
    ids = {"children": child, "entries": entry, "events": first("/events"), "memos": first("/memos"),
           "anniversaries": first("/anniversaries"),
           "photos": server.request("GET", f"/api/v1/entries/{entry}/photos", token=token).json()["items"][0]["id"],
           # A resumable upload announced for a large file, so that the fuzzer's pieces meet a real upload.
           "uploads": server.request("POST", "/api/v1/uploads", token=token, headers={
               "Tus-Resumable": "1.0.0", "Upload-Length": str(512 * 1024 * 1024)}).headers["Location"].rsplit("/", 1)[1]}
    sections = []
    for collection, value in ids.items():
        sections.append(f"""[[operations]]
include-path-regex = '^/{collection}/\\{{id\\}}'
include-method-regex = '^(GET|PUT|POST|PATCH|HEAD)$'
parameters = {{ "path.id" = "{value}" }}
""")
    return "\n".join(sections)


def summary(report):
    if not report.exists():
        return {"tests": 0}
    root = ElementTree.parse(report).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    return {"tests": int(suite.get("tests", 0)) if suite is not None else 0}
