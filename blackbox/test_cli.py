"""The command-line tool: account setup, tokens, listings for scripts, and clear failures."""
import datetime
import json

import pytest

from conftest import Server, make_family, new_child, new_entry, saessak

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine]


def test_create_user_and_token(tmp_path):
    data = tmp_path / "data"
    out = saessak("admin", "create-user", "--username", "mina", "--password-stdin", data=data, stdin="long enough\n")
    assert "mina" in out.stdout
    token = saessak("admin", "create-token", "--username", "mina", data=data).stdout
    assert token.count("\n") == 1 and token.startswith("ssk_") and len(token.strip()) > 40
    assert (data / "secret.key").stat().st_mode & 0o777 == 0o600
    assert (data.stat().st_mode & 0o777) == 0o700


def test_named_family_and_conflicts(tmp_path):
    data = tmp_path / "data"
    saessak("admin", "create-user", "--username", "a", "--password-stdin", "--family", "우리집", data=data, stdin="long enough\n")
    again = saessak("admin", "create-user", "--username", "b", "--password-stdin", "--family", "우리집", data=data,
                    stdin="long enough\n", check=False)
    assert again.returncode != 0 and "우리집" in again.stderr and "already exists" in again.stderr
    same_user = saessak("admin", "create-user", "--username", "A", "--password-stdin", data=data, stdin="long enough\n", check=False)
    assert same_user.returncode != 0 and "already exists" in same_user.stderr
    # Nothing half-made: user b was not created, so no token for b.
    assert saessak("admin", "create-token", "--username", "b", data=data, check=False).returncode != 0


@pytest.mark.parametrize("args, stdin, message", [
    (["admin", "create-user", "--username", "x"], "long enough\n", "--password-stdin"),
    (["admin", "create-user", "--username", "x", "--password-stdin"], "short\n", "at least 8"),
    (["admin", "create-user", "--username", "x", "--password-stdin"], "", "no password"),
    (["admin", "create-user", "--username", "no spaces", "--password-stdin"], "long enough\n", "username"),
    (["admin", "create-token"], None, "--username"),
    (["serve", "--port", "70000"], None, "--port"),
    (["serve", "--static-folder", "/nonexistent-folder"], None, "not a folder"),
    (["entries", "list", "--limit", "0"], None, "--limit"),
    (["entries", "list", "--month", "2026-13"], None, "--month"),
    (["frobnicate"], None, "Usage"),
])
def test_wrong_arguments_fail_clearly(tmp_path, args, stdin, message):
    result = saessak(*args, data=tmp_path / "data", stdin=stdin, check=False)
    assert result.returncode != 0
    assert message.lower() in (result.stderr + result.stdout).lower()


def test_listing_needs_an_existing_data_folder(tmp_path):
    result = saessak("children", "list", data=tmp_path / "missing", check=False)
    assert result.returncode != 0 and "no Saessak data" in result.stderr
    assert not (tmp_path / "missing").exists()


def test_children_and_entries_list_for_scripts(tmp_path):
    data = tmp_path / "data"
    saessak("admin", "create-user", "--username", "kim", "--password-stdin", data=data, stdin="long enough\n")
    token = saessak("admin", "create-token", "--username", "kim", data=data).stdout.strip()
    server = Server(data).start()
    try:
        child = new_child(server, token, name="김하늘", residentNumber="250301-4123456")
        entry = new_entry(server, token, [child["id"]], tags=["산책"])
    finally:
        server.stop()
    children = json.loads(saessak("children", "list", "--json", data=data).stdout)
    assert children["items"][0]["id"] == child["id"]
    assert children["items"][0]["residentNumber"] == "250301-4******"
    text = saessak("children", "list", data=data).stdout
    assert "김하늘" in text and "4123456" not in text
    entries = json.loads(saessak("entries", "list", "--json", "--child", child["id"], "--tag", "산책", data=data).stdout)
    assert [e["id"] for e in entries["items"]] == [entry["id"]]
    assert json.loads(saessak("entries", "list", "--json", "--month", "2020-01", data=data).stdout)["items"] == []
    assert entry["id"] in saessak("entries", "list", "--family", "kim", data=data).stdout
    unknown = saessak("entries", "list", "--family", "nobody", data=data, check=False)
    assert unknown.returncode != 0 and "nobody" in unknown.stderr


def test_calendar_commands_for_people_and_scripts():
    text = saessak("lunar", "2024-02-10").stdout
    assert "음력 2024년 1월 1일" in text and "갑진년 병인월 갑진일" in text
    assert json.loads(saessak("lunar", "2024-02-10", "--json").stdout) == {
        "solar": "2024-02-10", "lunar": {"year": 2024, "month": 1, "day": 1, "isLeapMonth": False},
        "ganji": {"year": "갑진", "month": "병인", "day": "갑진"}, "dangi": 4357}
    assert json.loads(saessak("solar", "2024-01-01", "--json").stdout)["solar"] == "2024-02-10"
    assert json.loads(saessak("solar", "2023-02-01", "--leap", "--json").stdout)["solar"] == "2023-03-22"
    terms = json.loads(saessak("terms", "2025", "--json").stdout)
    assert [t["name"] for t in terms][:3] == ["소한", "대한", "입춘"] and terms[0]["longitude"] == 285
    assert terms[0]["seoul"].startswith("2025-01-05T") and terms[0]["utcOffset"] == "+09:00"
    assert terms[0]["instant"].endswith("Z") and datetime.datetime.fromisoformat(terms[0]["instant"]) == \
        datetime.datetime.fromisoformat(terms[0]["seoul"] + terms[0]["utcOffset"])
    holidays = json.loads(saessak("holidays", "2026", "--json").stdout)
    assert {"date": "2026-03-02", "name": "대체공휴일(삼일절)", "nameEn": "Substitute Holiday (Independence Movement Day)",
            "substitute": True, "kind": "substitute"} in holidays
    assert "2026-05-01" not in {h["date"] for h in json.loads(saessak("holidays", "2026", "--without-labor-day", "--json").stdout)}
    grid = saessak("calendar", "2026-02").stdout
    assert "2026년 2월" in grid and "입춘" in grid and "설날" in grid and "12.29" in grid
    month = json.loads(saessak("calendar", "2026-02", "--json").stdout)
    assert len(month["weeks"]) == 4 and month["weeks"][0][0]["date"] == "2026-02-01" and month["weeks"][0][0]["red"]


@pytest.mark.parametrize("args, message", [
    (["lunar", "2024-02-30"], "day 30 does not exist"),
    (["lunar", "2051-01-01"], "outside the lunar calendar data"),
    (["solar", "2024-02-01", "--leap"], "no leap month"),
    (["solar", "2023-02-30", "--leap"], "29 days"),
    (["terms", "1899"], "1900–2100"),
    (["holidays", "2051"], "1985–2050"),
    (["calendar", "2026-13"], "month 13"),
    (["calendar", "February"], "YYYY-MM"),
])
def test_calendar_commands_refuse_bad_input_clearly(args, message):
    result = saessak(*args, check=False)
    assert result.returncode != 0 and message in result.stderr


def test_static_folder_is_public_and_never_the_data_folder(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    inside = saessak("serve", "--static-folder", str(data / "photos"), data=data, check=False)
    assert inside.returncode != 0 and "inside the data folder" in inside.stderr
    public = tmp_path / "public"
    public.mkdir()
    (public / "saessak.css").write_text("body { color: #222 }")
    import subprocess, time
    from conftest import BIN, free_port, Server
    server = Server(data)
    server.port = free_port()
    server.base = f"http://127.0.0.1:{server.port}"
    server.process = subprocess.Popen([BIN, "serve", "--data", str(data), "--port", str(server.port), "--static-folder", str(public)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                if server.request("GET", "/healthz").status == 200:
                    break
            except OSError:
                time.sleep(0.05)
            assert time.time() < deadline
        response = server.request("GET", "/static/saessak.css")
        assert response.status == 200 and response.body == b"body { color: #222 }"
        assert server.request("GET", "/static/../saessak.sqlite").status in (400, 404)
        assert server.request("GET", "/static/missing.css").status == 404
    finally:
        server.stop()


def test_calc_reads_keys_line_by_line():
    result = saessak("calc", stdin="2+3=\n=\n0.1+0.2=\n5/0=\nC\n7*6=\n")
    assert result.stdout.split() == ["5", "8", "0.3", "Error", "0", "42"]
    refused = saessak("calc", stdin="2^3\n", check=False)
    assert "'^' is not a key" in refused.stderr


def test_memos_from_the_command_line(tmp_path):
    data = tmp_path / "data"
    saessak("admin", "create-user", "--username", "kim", "--password-stdin", data=data, stdin="long enough\n")
    memo = json.loads(saessak("memos", "add", "--title", "장보기", "--body", "기저귀", "--json", data=data).stdout)
    assert memo["title"] == "장보기" and memo["body"] == "기저귀"
    second = json.loads(saessak("memos", "add", "--title", "병원", "--body", "-", "--json", data=data, stdin="화요일 10시\n").stdout)
    assert second["body"] == "화요일 10시\n"
    edited = json.loads(saessak("memos", "edit", memo["id"], "--body", "기저귀, 물티슈", "--json", data=data).stdout)
    assert edited["title"] == "장보기" and edited["body"] == "기저귀, 물티슈"
    listed = json.loads(saessak("memos", "list", "--json", data=data).stdout)["items"]
    assert [m["id"] for m in listed] == [memo["id"], second["id"]]  # most recently changed first
    saessak("memos", "rm", second["id"], data=data)
    assert [m["title"] for m in json.loads(saessak("memos", "list", "--json", data=data).stdout)["items"]] == ["장보기"]
    missing = saessak("memos", "rm", second["id"], data=data, check=False)
    assert missing.returncode != 0 and "no memo" in missing.stderr
    assert saessak("memos", "edit", memo["id"], data=data, check=False).returncode != 0
    assert saessak("memos", "rm", "not-an-id", data=data, check=False).returncode != 0


def test_add_member_gives_a_role_and_keeps_an_owner(tmp_path):
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    grandma = make_family(data, "grandma")
    out = saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "viewer", data=data)
    assert out.stdout.strip() == "added 'grandma' to '우리집' as viewer"
    token = saessak("admin", "create-token", "--username", "grandma", "--family", "우리집", data=data).stdout.strip()
    running = Server(data).start()
    try:
        assert running.request("GET", "/api/v1/children", token=token).status == 200
        assert running.request("POST", "/api/v1/memos", {"title": "할머니"}, token).status == 403
        assert running.request("POST", "/api/v1/memos", {"title": "엄마"}, mom).status == 201
    finally:
        running.stop()
    again = saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "editor", data=data)
    assert again.stdout.strip() == "'grandma' is now editor of '우리집'"
    last_owner = saessak("admin", "add-member", "--username", "mom", "--family", "우리집", "--role", "viewer", data=data, check=False)
    assert last_owner.returncode != 0 and "no owner left" in last_owner.stderr
    bad_role = saessak("admin", "add-member", "--username", "grandma", "--family", "우리집", "--role", "admin", data=data, check=False)
    assert bad_role.returncode != 0 and "role" in bad_role.stderr
    for args, message in [(["--username", "nobody", "--family", "우리집"], "nobody"), (["--username", "grandma", "--family", "없는집"], "없는집")]:
        missing = saessak("admin", "add-member", *args, "--role", "viewer", data=data, check=False)
        assert missing.returncode != 0 and message in missing.stderr
    assert grandma
