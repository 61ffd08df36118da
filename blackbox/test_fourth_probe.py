"""Regressions of the fourth outside probe (issue 66), each as the probe did it, through the real server: an owner
removed from the family who came back through their own invitation, and the class behind it — every grant a member
gives (invitation, share link, calendar feed, API token, book, import of photos) ends with its grantor's right to give
it; a password's session the family's rule holds back that enrolled its own second step and removed the member's
passkey; a viewer's trashed comment that brought back the entry an owner deleted."""
import json
import re
import time

import pytest

from browser import Browser
from conftest import Server, execute_sql, join_family, make_family, new_child, new_entry, query_sql, saessak
from images import image_bytes
from test_pages_without_script import form_data
from test_passkeys import SoftAuthenticator, add_passkey

pytestmark = [pytest.mark.engine]

PASSWORD = "a long password"

addresses = (f"127.0.2.{n}" for n in range(2, 250))


def path_of(url):
    return "/" + url.split("/", 3)[3]


def browser_of(server, username, family_id=None, password=PASSWORD, token_page="/settings"):
    browser = Browser(server, source=next(addresses))
    assert browser.sign_in(username, password).status == 303
    if family_id:
        token = browser.csrf("/settings")
        assert browser.request("POST", "/account/family", form={"_csrf": token, "familyId": family_id}).status == 303
    browser.token = browser.csrf(token_page)
    return browser


def family_id(data, name="우리집"):
    return query_sql(data, f"SELECT id FROM families WHERE name = '{name}'")[0][0]


def test_a_removed_owner_does_not_come_back_through_their_own_invitation(tmp_path):
    """The probe: dad (an owner) makes an owner invitation, mom removes him, he signs in again and accepts his own
    link — he was an owner again. Now the link is gone with his right to invite, for him and for anyone."""
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    dad = join_family(data, "dad", "우리집", "owner", "아빠집")
    server = Server(data).start()
    try:
        made = server.request("POST", "/api/v1/invitations", {"role": "owner"}, dad)
        assert made.status == 201, made.body
        link = path_of(made.json()["url"])
        # The other owner sees who made each link.
        listed = server.request("GET", "/api/v1/invitations", None, mom).json()["items"]
        assert [(i["role"], i.get("createdBy")) for i in listed] == [("owner", "dad")]
        assert "· dad ·" in browser_of(server, "mom").request("GET", "/settings").text

        assert server.request("DELETE", "/api/v1/members/dad", None, mom).status == 204
        assert server.request("GET", "/api/v1/entries", None, dad).status == 401
        assert server.request("GET", "/api/v1/invitations", None, mom).json()["items"] == []
        again = browser_of(server, "dad")
        assert again.request("GET", link).status == 404
        assert again.request("POST", link, form={"_csrf": again.token}).status == 404
        anonymous = Browser(server, source=next(addresses))
        csrf = anonymous.csrf(link) if anonymous.request("GET", link).status == 200 else anonymous.csrf("/login")
        assert anonymous.request("POST", link, form={"_csrf": csrf, "username": "newowner", "password": PASSWORD}).status == 404
        members = server.request("GET", "/api/v1/members", None, mom).json()["items"]
        assert [(m["username"], m["role"]) for m in members] == [("mom", "owner")]
    finally:
        server.stop()


def test_nobody_invites_above_their_own_role_and_a_demoted_owners_link_dies(tmp_path):
    """Demoting the maker works like removing them: their owner invitation no longer opens, and a link made by the
    demoted member for a lower role dies too (they may no longer invite at all)."""
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    dad = join_family(data, "dad", "우리집", "owner", "아빠집")
    server = Server(data).start()
    try:
        links = [path_of(server.request("POST", "/api/v1/invitations", {"role": role}, dad).json()["url"]) for role in ("owner", "viewer")]
        assert all(server.request("GET", link).status == 200 for link in links)
        assert server.request("PUT", "/api/v1/members/dad", {"role": "viewer"}, mom).status == 200
        assert all(server.request("GET", link).status == 404 for link in links)
        # A viewer's token cannot make one; an owner's token limited to editor cannot either.
        assert server.request("POST", "/api/v1/invitations", {"role": "viewer"}, dad).status == 403
        limited = saessak("admin", "create-token", "--username", "mom", "--family", "우리집", data=data).stdout.strip()
        made = server.request("POST", "/api/v1/tokens", {"name": "편집", "role": "editor"}, limited)
        assert made.status == 201
        assert server.request("POST", "/api/v1/invitations", {"role": "owner"}, made.json()["token"]).status == 403
    finally:
        server.stop()


# Whether each grant still works after each event (True) or has ended (False). The table is this test's own: the code's
# `Grant` must agree with it, not the other way round.
EVENTS = ["removal", "demotion-to-editor", "demotion-to-viewer", "sign-out-everywhere", "password-reset"]
ALIVE = {
    "invitation":   {"removal": False, "demotion-to-editor": False, "demotion-to-viewer": False, "sign-out-everywhere": False, "password-reset": False},
    "share link":   {"removal": False, "demotion-to-editor": True, "demotion-to-viewer": False, "sign-out-everywhere": True, "password-reset": True},
    "feed":         {"removal": False, "demotion-to-editor": True, "demotion-to-viewer": True, "sign-out-everywhere": False, "password-reset": False},
    "token":        {"removal": False, "demotion-to-editor": True, "demotion-to-viewer": True, "sign-out-everywhere": False, "password-reset": False},
    "book":         {"removal": False, "demotion-to-editor": True, "demotion-to-viewer": False, "sign-out-everywhere": True, "password-reset": True},
}


def wait_for_book(server, token, book):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = server.request("GET", f"/api/v1/books/{book}", None, token).json()
        if state["status"] in ("ready", "failed"):
            assert state["status"] == "ready", state
            return
        time.sleep(0.3)
    raise AssertionError(f"book {book} not made")


@pytest.mark.parametrize("event", EVENTS)
def test_every_grant_ends_with_its_grantors_right_to_give_it(tmp_path, event):
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    dad = join_family(data, "dad", "우리집", "owner", "아빠집")
    server = Server(data).start()
    try:
        child = new_child(server, mom)
        entry = new_entry(server, mom, [child["id"]])
        grants = {
            "invitation": path_of(server.request("POST", "/api/v1/invitations", {"role": "editor"}, dad).json()["url"]),
            "share link": path_of(server.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]]}, dad).json()["url"]),
            "feed": path_of(server.request("POST", "/api/v1/feeds", {"label": "달력"}, dad).json()["url"]),
            "token": dad,
        }
        book = server.request("POST", "/api/v1/books", {"year": int(entry["date"][:4]), "format": "html"}, dad)
        assert book.status == 202, book.body
        grants["book"] = book.json()["id"]
        wait_for_book(server, mom, grants["book"])
        # A year of the diary in one file: no cache keeps it.
        download = server.request("GET", f"/api/v1/books/{grants['book']}/file", None, mom)
        assert download.status == 200 and download.headers["Cache-Control"] == "no-store"

        def alive(kind):
            if kind == "token":
                return server.request("GET", "/api/v1/entries", None, dad).status == 200
            if kind == "book":
                return server.request("GET", f"/api/v1/books/{grants['book']}", None, mom).status == 200
            return server.request("GET", grants[kind]).status == 200

        assert all(alive(kind) for kind in ALIVE), {kind: alive(kind) for kind in ALIVE}
        if event == "removal":
            assert server.request("DELETE", "/api/v1/members/dad", None, mom).status == 204
        elif event.startswith("demotion"):
            assert server.request("PUT", "/api/v1/members/dad", {"role": event.split("-")[-1]}, mom).status == 200
        elif event == "sign-out-everywhere":
            browser = browser_of(server, "dad", family_id(data))
            assert browser.request("POST", "/logout/everywhere", form={"_csrf": browser.token}).status == 303
        else:
            saessak("admin", "reset-password", "--username", "dad", "--password-stdin", data=data, stdin="another long password\n")
        seen = {kind: alive(kind) for kind in ALIVE}
        assert seen == {kind: ALIVE[kind][event] for kind in ALIVE}, event
        # A token kept by a demoted member acts with the new role only.
        if event == "demotion-to-viewer":
            assert server.request("POST", "/api/v1/entries", {"title": "t", "date": "2026-11-22T09:00", "childIds": []}, dad).status == 403
        # What ended is gone from the family's lists too, not only refused.
        invitations = server.request("GET", "/api/v1/invitations", None, mom).json()["items"]
        assert bool(invitations) == ALIVE["invitation"][event]
        books = server.request("GET", "/api/v1/books", None, mom).json()["items"]
        assert bool(books) == ALIVE["book"][event]
    finally:
        server.stop()


def stage_photos(server, browser, tmp_path, name):
    """An import of one photo waiting for its review on 가져오기; returns its staged folder."""
    picture = tmp_path / f"{name}.jpg"
    picture.write_bytes(image_bytes(tmp_path, ".jpg", 300, 200))
    page = browser.request("GET", "/settings/import")
    action = re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1).replace("&amp;", "&")
    headers, body = form_data([("kind", "photos"), ("encoding", "auto")], [("file", picture.name, picture.read_bytes())])
    preview = browser.request("POST", action, raw=body, headers=headers)
    assert preview.status == 200, preview.text
    token = re.search(r'action="/settings/import/([0-9a-f]{32})/confirm"', preview.text).group(1)
    return server.data / ".imports" / token, re.findall(r'<fieldset data-day="([0-9-]+)"', preview.text)


def test_an_import_of_photos_runs_only_while_whoever_confirmed_it_may_import(tmp_path):
    """The import job outlives a restart: confirmed by dad, then dad made a viewer while the server was down — the job
    resumed at start writes nothing; mom's, confirmed the same way, runs."""
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    join_family(data, "dad", "우리집", "editor", "아빠집")
    server = Server(data).start()
    child = new_child(server, mom)
    ours = family_id(data)
    staged = {name: stage_photos(server, browser_of(server, name, ours), tmp_path, name) for name in ("mom", "dad")}
    server.stop()
    # What confirming writes beside the staged upload (ImportJobs.Job), as a server stopped before it ran leaves it.
    for name, (folder, days) in staged.items():
        user = query_sql(data, f"SELECT id FROM users WHERE username = '{name}'")[0][0]
        (folder / "job.json").write_text(json.dumps(
            {"state": "queued", "user": user, "language": "ko", "childrenByDay": {day: [child["id"]] for day in days}, "intoDays": []}))
    folders = {name: folder for name, (folder, _) in staged.items()}
    saessak("admin", "add-member", "--username", "dad", "--family", "우리집", "--role", "viewer", data=data)
    server.start()
    try:
        deadline = time.monotonic() + 60
        states = {}
        while time.monotonic() < deadline:
            states = {name: json.loads((folder / "job.json").read_text()) for name, folder in folders.items()}
            if all(job["state"] in ("done", "failed") for job in states.values()):
                break
            time.sleep(0.2)
        assert states["mom"]["state"] == "done", states["mom"]
        assert states["dad"]["state"] == "failed" and "더 이상" in states["dad"]["failure"], states["dad"]
        photos = int(query_sql(data, "SELECT count(*) FROM photos")[0][0])
        assert photos == 1, photos
    finally:
        server.stop()


def test_a_password_alone_never_undoes_a_stronger_sign_in(tmp_path):
    """The family asks for a passkey or the second step; dad has a passkey. His password's session rightly reached
    nothing of the family, but it could enrol its own second step (then sign in fully), remove his passkey and change
    his password. Now it can do none of these; with his passkey he can."""
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    join_family(data, "dad", "우리집", "editor", "아빠집")
    server = Server(data)
    server.origin = f"http://localhost:{server.port}"
    server.extra_args = ["--public-url", server.origin]
    server.start()
    try:
        ours = family_id(data)
        authenticator = SoftAuthenticator()
        added = add_passkey(server, browser_of(server, "dad"), authenticator, name="아빠 휴대폰")
        assert added.status == 201, added.text
        passkey = json.loads(added.text)["id"]
        assert server.request("PUT", "/api/v1/family/sign-in", {"strongSignIn": True}, mom).status == 200

        held = browser_of(server, "dad", ours, token_page="/settings/sign-in")
        assert held.request("GET", "/").getheader("Location") == "/settings/sign-in?strengthen=1"
        json_headers = {"X-CSRF-Token": held.token}
        # No second step and no second passkey of its own…
        assert held.request("POST", "/settings/second-step/begin", form={"_csrf": held.token}).status == 403
        assert held.request("GET", "/settings/second-step").status == 403
        assert held.request("POST", "/settings/second-step/confirm", form={"_csrf": held.token, "code": "123456"}).status == 403
        assert held.request("POST", "/settings/passkeys/options", body={}, headers=json_headers).status == 403
        assert held.request("POST", "/settings/passkeys", body={"name": "x"}, headers=json_headers).status == 403
        # …no removing the passkey, no new recovery codes, no turning anything off, no new password.
        for path, form in [(f"/settings/passkeys/{passkey}/delete", {}), ("/settings/second-step/recovery-codes", {}),
                           ("/settings/second-step/off", {"currentPassword": PASSWORD}),
                           ("/account/password", {"currentPassword": PASSWORD, "newPassword": "the thief's password"})]:
            refused = held.request("POST", path, form={"_csrf": held.token, **form})
            assert refused.status == 303 and refused.getheader("Location") == "/settings/sign-in?strengthen=1", path
        api = held.request("PUT", "/api/v1/account/password", body={"currentPassword": PASSWORD, "newPassword": "the thief's password"},
                           headers=json_headers)
        assert api.status == 403, api.text
        assert query_sql(data, "SELECT count(*) FROM secondSteps")[0][0] == "0"
        assert query_sql(data, "SELECT count(*) FROM passkeys")[0][0] == "1"
        assert Browser(server, source=next(addresses)).sign_in("dad", PASSWORD).status == 303
        # Signing out everywhere stays open to it (it takes nothing away from the member).
        assert held.request("GET", "/settings/sign-in").status == 200

        # With the passkey, the same member changes what he likes.
        from test_passkeys import passkey_sign_in
        response, strong, _ = passkey_sign_in(server, authenticator, address=next(addresses))
        assert response.status == 200, response.text
        strong.token = strong.csrf("/settings/sign-in")
        assert strong.request("POST", "/settings/second-step/begin", form={"_csrf": strong.token}).status == 303
        changed = strong.request("POST", "/account/password", form={"_csrf": strong.token, "currentPassword": PASSWORD,
                                                                    "newPassword": "another long password"})
        assert changed.status in (200, 303), changed.text
    finally:
        server.stop()


def test_a_viewer_brings_back_only_what_she_deleted(tmp_path):
    """Grandma's trashed comment, restored `withParent`, brought back the entry an owner deleted (and, through a
    trashed child, its sealed resident number). Now her restore of her comment stops at what is not hers: nothing comes
    back, the API and the page say why; an owner's restore of the same brings both back."""
    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    grandma = join_family(data, "grandma", "우리집", "viewer", "할머니집")
    server = Server(data).start()
    try:
        child = new_child(server, mom)
        entry = new_entry(server, mom, [child["id"]])
        comment = server.request("POST", f"/api/v1/entries/{entry['id']}/comments", {"text": "예쁘다"}, grandma)
        assert comment.status == 201, comment.body
        assert server.request("DELETE", f"/api/v1/comments/{comment.json()['id']}", None, grandma).status == 204
        assert server.request("DELETE", f"/api/v1/entries/{entry['id']}", None, mom).status == 204
        mine = server.request("GET", "/api/v1/trash", None, grandma).json()["items"]
        assert [item["kind"] for item in mine] == ["comment"]
        restore = f"/api/v1/trash/{mine[0]['id']}/restore?withParent=true"
        refused = server.request("POST", restore, None, grandma)
        assert refused.status == 409 and "another member" in refused.json()["detail"], refused.body
        assert server.request("GET", f"/api/v1/entries/{entry['id']}", None, mom).status == 404
        # The page's form makes the same store call.
        browser = browser_of(server, "grandma", family_id(data))
        page = browser.request("POST", f"/trash/{mine[0]['id']}/restore", form={"_csrf": browser.token, "withParent": "true"})
        assert page.status == 409, page.status
        assert server.request("GET", f"/api/v1/entries/{entry['id']}", None, mom).status == 404
        # An owner may.
        both = server.request("POST", restore, None, mom)
        assert both.status == 200, both.body
        assert server.request("GET", f"/api/v1/entries/{entry['id']}", None, grandma).status == 200
    finally:
        server.stop()


RESIDENT_NUMBER = "250301-4123456"


def holding(folder, needle):
    """Files under `folder` whose bytes hold `needle`."""
    return [str(p) for p in folder.rglob("*") if p.is_file() and needle in p.read_bytes()]


def test_no_job_leaves_the_diary_in_plain_text_beside_it(tmp_path):
    """With sensitive data asked for, the snapshot stage kept `children.json` (0644) between runs, so a copy of the
    data folder without `secret.key` gave the resident numbers; `backup --include-sensitive` wrote its ZIP 0644;
    `restore --from` staged in the temporary folder; an uploaded iPhotoDiary store waited in `.imports/` across a
    restart. Each job now leaves nothing in plain text behind it, and what it hands over is for its user alone."""
    import stat
    import subprocess

    from conftest import BIN, drop_database, engine_environment
    from legacy_store import LAST, Store, stamp
    from test_snapshots import PASSPHRASE

    data = tmp_path / "data"
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    mom = make_family(data, "mom", "우리집")
    env = engine_environment(data) | {"SAESSAK_SNAPSHOT_PASSWORD": PASSPHRASE, "TMPDIR": str(temporary)}
    target = tmp_path / "target"
    number = RESIDENT_NUMBER.encode()

    def cli(*args, data=data, env=env):
        result = subprocess.run([BIN, *args, "--data", str(data)], env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, (args, result.stdout, result.stderr)
        return result

    server = Server(data, env=env).start()
    try:
        made = server.request("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-03-01", "residentNumber": RESIDENT_NUMBER}, mom)
        assert made.status == 201, made.body
        new_entry(server, mom, [made.json()["id"]])
        # An iPhotoDiary store uploaded for its review, never confirmed.
        browser = browser_of(server, "mom")
        legacy = Store(tmp_path / "NewIPhotoDiary.sqlite", LAST)
        legacy.add("CHILDDATA", childname="김하늘", birthday=stamp(2025, 3, 1), islunar=1, idnum=RESIDENT_NUMBER)
        legacy.close()
        store = (tmp_path / "NewIPhotoDiary.sqlite").read_bytes()
        page = browser.request("GET", "/settings/import")
        action = re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1).replace("&amp;", "&")
        headers, body = form_data([("kind", "iphotodiary"), ("encoding", "auto")], [("file", "NewIPhotoDiary.sqlite", store)])
        assert browser.request("POST", action, raw=body, headers=headers).status == 200
        assert holding(data / ".imports", number), "the upload is staged"
    finally:
        server.stop()
    server.start()  # the restart that kept it
    server.stop()
    assert holding(data, number) == []

    cli("snapshots", "run", "--snapshots", str(target), "--snapshot-include-sensitive")
    assert holding(data, number) == [] and list(temporary.iterdir()) == []
    # What is left of the stage (the photos' links) is the user's alone; restic's own cache holds only ciphertext.
    stage = data / ".snapshots" / "stage"
    assert sorted(p.name for p in stage.iterdir()) == ["photos"]
    for folder in [data, data / ".snapshots", stage, *(p for p in stage.rglob("*") if p.is_dir())]:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder

    backup = tmp_path / "family.zip"
    cli("backup", "--include-sensitive", str(backup))
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert list(temporary.iterdir()) == []

    restored = tmp_path / "restored" / "data"
    drop_database(restored)
    cli("restore", "--from", str(target), data=restored, env=engine_environment(restored) | {
        "SAESSAK_SNAPSHOT_PASSWORD": PASSPHRASE, "TMPDIR": str(temporary)})
    assert list(temporary.iterdir()) == [], list(temporary.rglob("*"))
    assert holding(restored, number) == []


def test_doctor_refuses_a_secret_file_others_may_read(tmp_path):
    """`saessak doctor` said "ok" for a 0644 snapshot passphrase file."""
    import subprocess

    from conftest import BIN, engine_environment
    data = tmp_path / "data"
    make_family(data, "mom", "우리집")
    passphrase = tmp_path / "snapshot-passphrase"
    passphrase.write_text("우리 가족만 아는 긴 암호\n")
    passphrase.chmod(0o644)
    environment = engine_environment(data) | {"SAESSAK_SNAPSHOT_PASSWORD_FILE": str(passphrase)}

    def doctor():
        return subprocess.run([BIN, "doctor", "--data", str(data), "--snapshots", str(tmp_path / "target")], env=environment,
                              capture_output=True, text=True, timeout=120)
    refused = doctor()
    line = next(line for line in refused.stdout.splitlines() if " secrets " in line)
    assert refused.returncode == 1 and line.startswith("FAIL") and "mode 644" in line and "chmod 600" in line, refused.stdout
    passphrase.chmod(0o600)
    line = next(line for line in doctor().stdout.splitlines() if " secrets " in line)
    assert line.startswith("ok") and "SAESSAK_SNAPSHOT_PASSWORD_FILE" in line, line


def test_passkey_sign_ins_begun_from_one_address_are_limited(tmp_path):
    """`/login/passkey/options` stored a challenge a request, without limit."""
    data = tmp_path / "data"
    make_family(data, "mom", "우리집")
    server = Server(data)
    server.extra_args = ["--public-url", f"http://localhost:{server.port}"]
    server.start()
    try:
        browser = Browser(server, source=next(addresses))
        token = browser.csrf("/login")
        answers = [browser.request("POST", "/login/passkey/options", body={}, headers={"X-CSRF-Token": token}).status for _ in range(31)]
        assert answers == [200] * 30 + [429], answers
        before = int(query_sql(data, "SELECT count(*) FROM passkeyChallenges")[0][0])
        assert browser.request("POST", "/login/passkey/options", body={}, headers={"X-CSRF-Token": token}).status == 429
        assert int(query_sql(data, "SELECT count(*) FROM passkeyChallenges")[0][0]) == before
        # Another address is not held up.
        other = Browser(server, source=next(addresses))
        assert other.request("POST", "/login/passkey/options", body={}, headers={"X-CSRF-Token": other.csrf("/login")}).status == 200
    finally:
        server.stop()


def test_an_import_from_the_page_is_capped_and_stops_when_its_browser_goes(tmp_path):
    """20,000 one-byte `.jpg` members in a 2 MB ZIP took 152 s and went on after the client left."""
    import io
    import socket
    import zipfile

    from test_pages_without_script import form_data

    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    server = Server(data).start()
    try:
        new_child(server, mom)
        browser = browser_of(server, "mom")

        def zip_of(count):
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w") as archive:
                for number in range(count):
                    archive.writestr(f"DCIM/p{number}.jpg", b"x")
            return buffer.getvalue()

        def upload(payload):
            page = browser.request("GET", "/settings/import")
            action = re.search(r'<form method="post" action="([^"]+)" enctype="multipart/form-data"', page.text).group(1).replace("&amp;", "&")
            headers, body = form_data([("kind", "photos"), ("encoding", "auto")], [("file", "camera.zip", payload)])
            return action, headers, body

        action, headers, body = upload(zip_of(5_001))
        started = time.monotonic()
        refused = browser.request("POST", action, raw=body, headers=headers)
        assert refused.status == 422 and "5000개보다 많습니다(5001개)" in refused.text, (refused.status, refused.text[-2000:])
        assert time.monotonic() - started < 20
        assert not list((data / ".imports").iterdir())

        # Under the cap, but the browser leaves while the files are read: the work stops.
        action, headers, body = upload(zip_of(4_000))
        connection = socket.create_connection(("127.0.0.1", server.port))
        cookie = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
        head = f"POST {action} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nContent-Length: {len(body)}\r\n"
        connection.sendall((head + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode() + body)
        time.sleep(1.5)
        connection.close()
        log = data.parent / f"server-{server.port}.log"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "POST /settings/import 499" not in log.read_text():
            time.sleep(0.2)
        assert "POST /settings/import 499" in log.read_text()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and list((data / ".imports").iterdir()):
            time.sleep(0.2)
        assert not list((data / ".imports").iterdir())
    finally:
        server.stop()


def test_a_viewer_opens_only_the_photos_the_diary_shows(tmp_path):
    """A photo an edit took out of an entry lived on in the entry's versions, and a viewer still got its original by
    its id; the same for a photo of a trashed entry, and one uploaded and not yet placed."""
    from images import multipart

    data = tmp_path / "data"
    mom = make_family(data, "mom", "우리집")
    grandma = join_family(data, "grandma", "우리집", "viewer", "할머니집")
    server = Server(data).start()
    try:
        child = new_child(server, mom)
        content_type, body = multipart([(f"p{n}.jpg", image_bytes(tmp_path, ".jpg", 120 + n, 80)) for n in range(3)])
        photos = [p["id"] for p in server.request("POST", "/api/v1/photos", raw=body, token=mom, headers={"Content-Type": content_type}).json()["items"]]
        kept, dropped, loose = photos
        entry = new_entry(server, mom, [child["id"]], photoIds=[kept, dropped])
        assert server.request("PUT", f"/api/v1/entries/{entry['id']}/photos", {"photoIds": [kept]}, mom).status == 200

        def opens(token, photo):
            paths = [f"/api/v1/photos/{photo}", f"/api/v1/photos/{photo}/original", f"/api/v1/photos/{photo}/thumbnail"]
            return {server.request("GET", path, None, token).status for path in paths}

        assert opens(grandma, kept) == {200}
        assert opens(grandma, dropped) == {404} and opens(grandma, loose) == {404}
        assert opens(mom, dropped) == {200} and opens(mom, loose) == {200}
        page = browser_of(server, "grandma", family_id(data))
        assert page.request("GET", f"/photos/{dropped}").status == 404
        assert page.request("GET", f"/photos/{kept}").status == 200
        # The entry trashed: its photos are the trash's, not a viewer's.
        assert server.request("DELETE", f"/api/v1/entries/{entry['id']}", None, mom).status == 204
        assert opens(grandma, kept) == {404} and opens(mom, kept) == {200}
    finally:
        server.stop()
