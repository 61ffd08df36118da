"""Writes a backup with an earlier Saessak build, for blackbox/fixtures/backups/ (issue 16: every schema version's
backup must restore for ever). Build the commit that last had that schema, then, from the project root:

    SAESSAK_BIN=/path/to/old/.build/debug/saessak .venv/bin/python scripts/make_backup_fixture.py blackbox/fixtures/backups/schema-v7.zip

The family is the one `blackbox/test_backup.py` fills (every kind of table that schema has, a child with a profile
photo, a resident number), made through that build's own API, and backed up with --include-sensitive.
"""
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "blackbox"))

from conftest import Server, make_family, saessak  # noqa: E402
from test_backup import fill  # noqa: E402


def main(out):
    scratch = Path(tempfile.mkdtemp(prefix="saessak-fixture-"))
    try:
        data = scratch / "saessak-data"
        token = make_family(data, "mom", "우리집")
        server = Server(data).start()
        try:
            fill(server, token, scratch)
        finally:
            server.stop()
        saessak("backup", str(Path(out).resolve()), "--include-sensitive", data=data)
        print(f"wrote {out} ({Path(out).stat().st_size} bytes); the owner is mom, password 'a long password'")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1])
