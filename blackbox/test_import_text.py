"""`saessak import text`: old diaries in UTF-8, UTF-16 and CP949 (with CP949-only syllables such as 똠), split at
date headings or one file per day; dry runs, no duplicates on a second run, and broken files that change nothing."""
import json

import pytest

from conftest import engine_environment, family_with_children, saessak

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]


@pytest.fixture()
def family(tmp_path):
    data = tmp_path / "saessak-data"
    family_with_children(data, "하늘", "바다", birth_date="2009-05-05")
    return data


def entries(data):
    return json.loads(saessak("entries", "list", "--json", data=data).stdout)["items"]


def diary(tmp_path):
    folder = tmp_path / "diary"
    folder.mkdir()
    (folder / "2010.txt").write_text("옛날 일기장\n\n# 2010-08-15\n광복절, 태극기를 달았다.\n\n2010년 8월 16일 월요일\n비가 왔다.\n", encoding="utf-8")
    (folder / "2011.txt").write_bytes("2011.3.1 (화)\n똠방각하를 읽었다.\n".encode("cp949"))
    (folder / "2012.txt").write_bytes("2012-05-05\r\n어린이날 선물\r\n".encode("utf-16"))  # with a BOM
    return folder


def test_a_folder_of_diaries_in_three_encodings(family, tmp_path):
    folder = diary(tmp_path)
    dry = json.loads(saessak("import", "text", str(folder), "--dry-run", "--json", data=family).stdout)
    assert dry["added"] == {"entries": 4} and dry["found"] == {"entries": 4} and dry["files"] == 3 and dry["dryRun"] is True
    assert dry["skipped"] == ["2010.txt: 6 characters before the first date heading"]
    assert entries(family) == []

    done = saessak("import", "text", str(folder), "--child", "하늘", data=family)
    assert "Imported from 3 file(s)." in done.stdout and "entries: 4 added (4 in the source)" in done.stdout
    imported = {e["date"]: e for e in entries(family)}
    assert sorted(imported) == ["2010-08-15T12:00", "2010-08-16T12:00", "2011-03-01T12:00", "2012-05-05T12:00"]
    assert imported["2011-03-01T12:00"]["body"] == "똠방각하를 읽었다." and imported["2011-03-01T12:00"]["title"] == "똠방각하를 읽었다."
    assert imported["2012-05-05T12:00"]["body"] == "어린이날 선물" and imported["2010-08-16T12:00"]["tags"] == ["가져옴"]
    assert len(imported["2010-08-15T12:00"]["childIds"]) == 1

    # Again: nothing twice.
    again = json.loads(saessak("import", "text", str(folder), "--json", data=family).stdout)
    assert again["added"] == {} and again["duplicates"] == {"entries": 4} and len(entries(family)) == 4


def test_one_file_per_day_dated_by_its_name(family, tmp_path):
    folder = tmp_path / "days"
    folder.mkdir()
    (folder / "2013-01-01.txt").write_text("새해 첫날\n떡국", encoding="utf-8")
    (folder / "20130102.txt").write_text("눈이 왔다", encoding="utf-8")
    saessak("import", "text", str(folder), data=family)
    assert sorted(e["date"] for e in entries(family)) == ["2013-01-01T12:00", "2013-01-02T12:00"]
    # Both children by default.
    assert all(len(e["childIds"]) == 2 for e in entries(family))


@pytest.mark.parametrize("name, content, encoding, message", [
    ("bytes.txt", b"2010-01-01\n\x80\xff\n", "cp949", "bytes.txt: byte"),
    ("utf8.txt", b"2010-01-01\n\xff\n", "utf-8", "utf8.txt: not valid UTF-8"),
    ("month.txt", "2010년 13월 40일\n이상한 날\n".encode(), "auto", "month.txt, line 1: '2010년 13월 40일' is not a date"),
    ("notes.txt", "날짜가 없는 글\n".encode(), "auto", "notes.txt: no date heading"),
    ("nobom.txt", "2010-01-01\n".encode("utf-16-le"), "utf-16", "byte-order mark"),
])
def test_broken_files_change_nothing(family, tmp_path, name, content, encoding, message):
    if encoding == "auto":
        folder = diary(tmp_path)  # three good files beside the broken one: none of them is imported either
    else:
        # A forced encoding applies to every file: one good file in it beside the broken one.
        folder = tmp_path / "forced"
        folder.mkdir()
        (folder / "a-good.txt").write_bytes("2011-03-01\n똠\n".encode({"cp949": "cp949", "utf-8": "utf-8", "utf-16": "utf-16"}[encoding]))
    (folder / name).write_bytes(content)
    result = saessak("import", "text", str(folder), "--encoding", encoding, data=family, check=False)
    assert result.returncode != 0 and message in result.stderr, result.stderr
    assert entries(family) == []


def test_bad_arguments_are_named(family, tmp_path):
    result = saessak("import", "text", str(tmp_path / "nowhere"), data=family, check=False)
    assert result.returncode != 0 and "no such file or folder" in result.stderr
    result = saessak("import", "text", str(diary(tmp_path)), "--child", "구름", data=family, check=False)
    assert result.returncode != 0 and "no child named '구름'" in result.stderr


def test_progress_shows_on_a_terminal_only(family, tmp_path):
    import os
    import pty
    import subprocess

    from conftest import BIN

    folder = diary(tmp_path)
    quiet = saessak("import", "text", str(folder), "--dry-run", data=family)
    assert quiet.stderr == ""
    main, terminal = pty.openpty()
    try:
        done = subprocess.run([BIN, "import", "text", str(folder), "--dry-run", "--data", str(family)],
                              stdout=subprocess.PIPE, stderr=terminal, timeout=60, env=engine_environment(family))
        os.close(terminal)
        terminal = None
        shown = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if terminal is not None:
            os.close(terminal)
        os.close(main)
    assert done.returncode == 0 and "읽는 중 3/3".encode() in shown and shown.endswith(b"\r\x1b[K")


def test_a_zip_of_diaries(family, tmp_path):
    import zipfile
    folder = diary(tmp_path)
    archive = tmp_path / "diaries.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        for file in sorted(folder.iterdir()):
            packed.write(file, f"일기장/{file.name}")
        packed.writestr("__MACOSX/일기장/._2010.txt", b"\x00\x05\x16\x07")
        packed.writestr("일기장/사진.jpg", b"\xff\xd8")
    report = json.loads(saessak("import", "text", str(archive), "--json", data=family).stdout)
    assert report["added"] == {"entries": 4} and report["files"] == 3
    cut = tmp_path / "cut.zip"
    cut.write_bytes(archive.read_bytes()[:100])
    result = saessak("import", "text", str(cut), data=family, check=False)
    assert result.returncode != 0 and "cut.zip: not a ZIP archive, or it is cut short" in result.stderr


def test_a_zip64_archive_of_diaries(family, tmp_path):
    """More than 65,535 files make Python write a ZIP64 end record, as big exports have: our reader follows it."""
    import zipfile
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for number in range(66_000):
            archive.writestr(f"noise/{number}.dat", b"")
        archive.writestr("일기/2013.txt", "2013-03-01\n삼일절에 태극기를 달았다.\n".encode(), compress_type=zipfile.ZIP_DEFLATED)
    assert b"PK\x06\x06" in path.read_bytes()[-200:]           # the ZIP64 end of central directory record
    report = json.loads(saessak("import", "text", str(path), "--dry-run", "--json", data=family).stdout)
    assert report["found"] == {"entries": 1} and report["files"] == 1


def test_zip64_sizes_and_offsets_in_the_extra_field(family, tmp_path):
    """A member whose sizes and offset say 0xFFFFFFFF and live in the ZIP64 extra field (as in exports over 4 GB)."""
    import struct
    import zlib
    body = "2014-05-05\n어린이날, 놀이공원에 갔다.\n".encode()
    name = "2014.txt".encode()
    crc = zlib.crc32(body)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name), 20) + name \
        + struct.pack("<HHQQ", 0x0001, 16, len(body), len(body))
    extra = struct.pack("<HHQQQ", 0x0001, 24, len(body), len(body), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 0, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(name),
                          len(extra), 0, 0, 0, 0, 0xFFFFFFFF) + name + extra
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local) + len(body), 0)
    path = tmp_path / "zip64.zip"
    path.write_bytes(local + body + central + end)
    report = json.loads(saessak("import", "text", str(path), "--dry-run", "--json", data=family).stdout)
    assert report["found"] == {"entries": 1}
