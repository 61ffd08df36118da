"""Backup and restore (docs/backup.md): a lossless round trip, taken while the server runs and writes, checked
before anything is restored, and without the resident number unless asked."""
import hashlib
import json
import threading
import time
import zipfile
from pathlib import Path

import jsonschema
import pytest

from conftest import Server, database_snapshot, make_family, saessak, schema_catalog, stored_bytes
from images import image, multipart

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

NUMBER = "240229-4123456"


def api(server, method, path, body=None, token=None, raw=None, headers=None):
    response = server.request(method, "/api/v1" + path, body, token, raw=raw, headers=headers)
    assert response.status < 300, (method, path, response.status, response.body[:300])
    return response.json() if response.body else None


def upload(server, token, folder, width):
    content_type, body = multipart([(f"{width}.jpg", image(folder, ".jpg", width, 240).read_bytes())])
    return api(server, "POST", "/photos", raw=body, token=token, headers={"Content-Type": content_type})["items"][0]["id"]


def fill(server, token, folder):
    """A family's diary with something in every kind of table."""
    child = api(server, "POST", "/children", {"name": "하늘", "birthDate": "2024-02-29", "residentNumber": NUMBER}, token)
    lunar = api(server, "POST", "/children", {"name": "바다", "birthDate": "2025-06-04", "birthCalendar": "lunar", "isLeapMonth": True}, token)
    photos = [upload(server, token, folder, w) for w in (321, 322, 323, 324)]
    # A child with a profile photo: before issue 16 its backup could not be restored (children before photos).
    api(server, "PUT", f"/children/{child['id']}/photo", {"photoId": photos[3]}, token)
    api(server, "POST", "/entries", {"title": "첫 걸음", "body": "아기가 걸었어요 🎉", "date": "2026-11-22T09:30", "childIds": [child["id"], lunar["id"]],
                                     "tags": ["걸음마"], "place": {"name": "집", "latitude": 37.5665, "longitude": 126.978}, "weather": "맑음",
                                     "photoIds": photos[:2]}, token)
    api(server, "POST", "/memos", {"title": "기저귀", "body": "3단계"}, token)
    api(server, "POST", "/events", {"childId": child["id"], "kind": "hospital", "title": "감기", "date": "2026-11-20", "photoIds": [photos[2]]}, token)
    api(server, "POST", "/anniversaries", {"name": "할머니 생신", "calendar": "lunar", "month": 3, "day": 2, "isHoliday": True}, token)
    api(server, "POST", f"/children/{child['id']}/measurements", {"kind": "weight", "value": 11.25, "unit": "kg", "date": "2026-11-01"}, token)
    api(server, "POST", f"/children/{child['id']}/vaccinations", {"product": "dtapIpv", "date": "2024-05-01"}, token)
    api(server, "POST", "/invitations", {"role": "viewer"}, token)
    api(server, "POST", "/feeds", {"label": "할머니 폰"}, token)
    return child


SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "docs" / "backup-schema.json").read_text())


def check_against_the_documented_schema(path):
    """Every file of a backup as docs/backup-schema.json says (regenerate it when a table changes)."""
    data, _, manifest = tables(path)
    jsonschema.Draft202012Validator(SCHEMA["$defs"]["manifest"], format_checker=jsonschema.FormatChecker()).validate(manifest)
    documented = SCHEMA["$defs"]["tables"]["properties"]
    assert {f"data/{name}.json" for name in documented} == set(data)
    for name, schema in documented.items():
        jsonschema.Draft202012Validator(schema).validate(json.loads(data[f"data/{name}.json"]))


def family_folder(tmp_path):
    """A data folder whose diary `fill` made through the API; returns it, the owner's token and the first child."""
    data = tmp_path / "family" / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    try:
        return data, token, fill(running, token, tmp_path)
    finally:
        running.stop()


def tables(path):
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name.startswith("data/")}, \
            sorted(n for n in archive.namelist() if n.startswith("photos/")), json.loads(archive.read("manifest.json"))


def test_backup_restore_backup_is_lossless_and_the_restored_server_works(tmp_path):
    data, token, child = family_folder(tmp_path)
    running = Server(data).start()
    try:
        first = tmp_path / "first.zip"
        saessak("backup", str(first), data=data)  # while the server runs
    finally:
        running.stop()
    restored = tmp_path / "restored" / "saessak-data"
    saessak("restore", str(first), data=restored)
    # The keys and indexes a restore drops while it copies the rows in (PostgreSQL) are all made again, as they were.
    catalog = schema_catalog(restored)
    assert catalog == schema_catalog(data) and len(catalog) > 100
    second = tmp_path / "second.zip"
    saessak("backup", str(second), data=restored)
    check_against_the_documented_schema(first)
    one, photos_one, manifest_one = tables(first)
    two, photos_two, manifest_two = tables(second)
    assert one == two and photos_one == photos_two and len(photos_one) == 4
    assert manifest_one["files"] == manifest_two["files"] and manifest_one["counts"]["entries"] == 1
    # Photos are named by their content.
    with zipfile.ZipFile(first) as archive:
        for name in photos_one:
            assert hashlib.sha256(archive.read(name)).hexdigest() == Path(name).stem
    # The resident number stays home unless asked for.
    assert NUMBER.encode() not in b"".join(one.values()) and b"residentNumber" not in one["data/children.json"]

    server = Server(restored).start()
    try:
        # The same token, entries, photos, search (the index is rebuilt) and feed as before.
        entries = api(server, "GET", "/entries", token=token)["items"]
        assert [e["title"] for e in entries] == ["첫 걸음"] and len(entries[0]["photoIds"]) == 2
        original = server.request("GET", f"/api/v1/photos/{entries[0]['photoIds'][0]}/original", token=token)
        assert original.status == 200 and hashlib.sha256(original.body).hexdigest() in {Path(n).stem for n in photos_one}
        assert [h["title"] for h in api(server, "GET", "/search?q=%EA%B1%B8%EC%97%88", token=token)["items"]] == ["첫 걸음"]
        assert api(server, "GET", f"/children/{child['id']}", token=token).get("residentNumber") is None
        thumbnail = server.request("GET", f"/api/v1/photos/{entries[0]['photoIds'][0]}/thumbnail?size=large", token=token)
        assert thumbnail.status == 200
    finally:
        server.stop()


def test_the_resident_number_travels_only_when_asked(tmp_path):
    data, token, child = family_folder(tmp_path)
    backup = tmp_path / "with-number.zip"
    saessak("backup", "--include-sensitive", str(backup), data=data)
    check_against_the_documented_schema(backup)
    children = json.loads(tables(backup)[0]["data/children.json"])
    assert NUMBER in [row.get("residentNumber") for row in children] and tables(backup)[2]["includesSensitive"] is True
    restored = tmp_path / "restored" / "saessak-data"
    saessak("restore", str(backup), data=restored)
    # Sealed again under the new folder's own key.
    assert NUMBER.encode() not in stored_bytes(restored)
    server = Server(restored).start()
    try:
        assert api(server, "GET", f"/children/{child['id']}/resident-number", token=token)["residentNumber"] == NUMBER
    finally:
        server.stop()


def test_a_backup_taken_during_writes_restores_consistently(tmp_path):
    data = tmp_path / "family" / "saessak-data"
    token = make_family(data, "mom", "우리집")
    running = Server(data).start()
    stop = threading.Event()
    written = []
    try:
        child = api(running, "POST", "/children", {"name": "하늘", "birthDate": "2024-02-29"}, token)

        def write():
            n = 0
            while not stop.is_set():
                n += 1
                photo = upload(running, token, tmp_path, 200 + n % 50)
                entry = api(running, "POST", "/entries", {"title": f"#{n}", "date": "2026-11-22T09:30", "childIds": [child["id"]], "photoIds": [photo]}, token)
                written.append(entry["id"])
                if n % 3 == 0:  # deletions too: their photo files go while the backup may be copying
                    api(running, "DELETE", f"/entries/{entry['id']}", token=token)

        writer = threading.Thread(target=write)
        writer.start()
        while len(written) < 6 and writer.is_alive():
            time.sleep(0.01)
        backups = []
        for index in range(3):
            path = tmp_path / f"during-{index}.zip"
            saessak("backup", str(path), data=data)
            backups.append(path)
        during = len(written)
        while len(written) < during + 3 and writer.is_alive():  # the writer was still at it
            time.sleep(0.01)
        stop.set()
        writer.join()
    finally:
        stop.set()
        running.stop()
    assert len(written) > 8
    for index, path in enumerate(backups):
        restored = tmp_path / f"restored-{index}" / "saessak-data"
        saessak("restore", str(path), data=restored)
        server = Server(restored).start()
        try:
            entries = []
            cursor = ""
            while True:
                page = api(server, "GET", f"/entries?limit=100{cursor}", token=token)
                entries += page["items"]
                if not page["next"]:
                    break
                cursor = f"&cursor={page['next']}"
            assert len(entries) == tables(path)[2]["counts"]["entries"]
            for entry in entries:
                for photo in entry["photoIds"]:
                    assert server.request("GET", f"/api/v1/photos/{photo}/original", token=token).status == 200
        finally:
            server.stop()


def test_a_damaged_backup_is_refused_and_restores_nothing(tmp_path):
    data, _, _ = family_folder(tmp_path)
    good = tmp_path / "good.zip"
    saessak("backup", str(good), data=data)

    truncated = tmp_path / "truncated.zip"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(tampered, "w") as target:
        for name in source.namelist():
            body = source.read(name)
            if name == "data/memos.json":
                body = body.replace("3단계".encode(), "4단계".encode())
            target.writestr(name, body)
    not_zip = tmp_path / "notes.zip"
    not_zip.write_text("hello")
    for bad, message in ((truncated, "cannot be read"), (tampered, "does not match its checksum"), (not_zip, "cannot be read")):
        target = tmp_path / f"restore-{bad.stem}" / "saessak-data"
        result = saessak("restore", str(bad), data=target, check=False)
        assert result.returncode != 0 and message in result.stderr, (bad, result.stderr)
        assert not target.exists() or not any(target.iterdir())
    # Into a folder that already holds a diary: refused, and that diary is untouched.
    before = database_snapshot(data)
    result = saessak("restore", str(good), data=data, check=False)
    assert result.returncode != 0 and "not empty" in result.stderr
    assert database_snapshot(data) == before


def test_the_owner_downloads_a_backup_in_the_browser(tmp_path):
    from browser import Browser

    data, token, _ = family_folder(tmp_path)
    saessak("admin", "create-user", "--username", "grandma", "--password-stdin", "--family", "할머니댁", data=tmp_path / "other" / "x",
            stdin="a long password\n")  # another server's family: not this one
    running = Server(data).start()
    try:
        owner = Browser(running)
        owner.sign_in("mom", "a long password")
        assert "/settings/backup.zip" in owner.request("GET", "/settings").text
        download = owner.request("GET", "/settings/backup.zip")
        assert download.status == 200 and download.getheader("Content-Type") == "application/zip"
        assert download.getheader("Content-Disposition").startswith('attachment; filename="saessak-backup-')
        path = tmp_path / "downloaded.zip"
        path.write_bytes(download.body)
        check_against_the_documented_schema(path)
        restored = tmp_path / "restored" / "saessak-data"
        saessak("restore", str(path), data=restored)
        assert not list((data / ".backups").iterdir())  # the temporary file is gone
        # A viewer may not.
        saessak("admin", "create-user", "--username", "lee", "--password-stdin", "--family", "이씨네", data=data, stdin="a long password\n")
        saessak("admin", "add-member", "--username", "lee", "--family", "우리집", "--role", "viewer", data=data)
        ours = next(f["id"] for f in api(running, "GET", "/account", token=token)["families"] if f["name"] == "우리집")
        viewer = Browser(running)
        viewer.sign_in("lee", "a long password")
        assert viewer.request("POST", "/account/family", form={"_csrf": viewer.csrf("/settings"), "familyId": ours}).status == 303
        assert viewer.request("GET", "/settings/backup.zip").status == 403

        # On a server shared with another family, the owner's download holds their family only.
        lee = saessak("admin", "create-token", "--username", "lee", "--family", "이씨네", data=data).stdout.strip()
        theirs = api(running, "POST", "/children", {"name": "이웃집 아이", "birthDate": "2020-02-02"}, token=lee)
        api(running, "POST", "/entries", {"title": "이웃의 비밀", "body": "", "date": "2026-01-01T09:00", "childIds": [theirs["id"]]}, token=lee)
        shared = tmp_path / "shared.zip"
        shared.write_bytes(owner.request("GET", "/settings/backup.zip").body)
        check_against_the_documented_schema(shared)
        raw, _, manifest = tables(shared)
        data_tables = {name[len("data/"):-len(".json")]: json.loads(body) for name, body in raw.items()}
        assert manifest["family"] == ours
        assert [f["name"] for f in data_tables["families"]] == ["우리집"]
        assert sorted(u["username"] for u in data_tables["users"]) == ["lee", "mom"]
        assert {m["familyId"] for m in data_tables["memberships"]} == {ours}
        assert "이웃" not in json.dumps(data_tables, ensure_ascii=False)
        # Only the password hash of the owner who took it (issue 17: lee owns another family on this server).
        hashes = {u["username"]: u["passwordHash"] for u in data_tables["users"]}
        assert hashes["mom"].startswith("$2") and hashes["lee"] == "!"
        # It restores on its own, and the family signs in there: the owner at once, the others after a reset.
        alone = tmp_path / "alone" / "saessak-data"
        saessak("restore", str(shared), data=alone)
        again = Server(alone).start()
        try:
            assert Browser(again).sign_in("mom", "a long password").status == 303
            assert Browser(again).sign_in("lee", "a long password").status == 200      # the form again
            saessak("admin", "reset-password", "--username", "lee", "--password-stdin", data=alone, stdin="lee's new password\n")
            assert Browser(again).sign_in("lee", "lee's new password").status == 303
        finally:
            again.stop()
        # The command line does the same with --family.
        cli = tmp_path / "cli.zip"
        saessak("backup", str(cli), "--family", "이씨네", data=data)
        assert [f["name"] for f in json.loads(tables(cli)[0]["data/families.json"])] == ["이씨네"]
    finally:
        running.stop()


def rewritten(source, target, change):
    """A copy of a backup whose manifest (and files) `change(manifest, files)` edits: a backup of another version."""
    with zipfile.ZipFile(source) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    manifest = json.loads(files.pop("manifest.json"))
    change(manifest, files)
    with zipfile.ZipFile(target, "w") as archive:
        for name, body in files.items():
            archive.writestr(name, body)
        archive.writestr("manifest.json", json.dumps(manifest))
    return target


def test_a_backup_from_an_older_schema_is_migrated_forward(tmp_path):
    data, token, _ = family_folder(tmp_path)
    current = tmp_path / "current.zip"
    saessak("backup", str(current), data=data)

    def as_v7(manifest, files):  # before the imports table of schema v8 (and v9's columns in it; v10 and v12 back up nothing; v15's outbox neither; v18 and v19 add indexes only; v22's snapshot runs, v23's book jobs and v24's sign-in methods are server state)
        assert manifest["schema"][-17:] == ["v8 imports", "v9 imported records", "v10 shared state", "v11 videos", "v12 idempotency keys",
                                            "v13 comments and hearts", "v14 authors and reads", "v15 mail", "v16 place regions", "v17 weather",
                                            "v18 page indexes", "v19 entry lists", "v20 trash and versions", "v21 activity", "v22 snapshot runs",
                                            "v23 book jobs", "v24 sign-in methods"]
        del manifest["schema"][-17:]
        for table in ("importedItems", "comments", "hearts", "entryReads", "entryVersions", "entryVersionPhotos", "trashItems", "trashPhotos",
                      "trashContents", "activity"):  # v8's, v13's, v14's, v20's, v21's
            del files[f"data/{table}.json"], manifest["files"][f"data/{table}.json"], manifest["counts"][table]
        photos = json.loads(files["data/photos.json"])  # v11's video columns
        for row in photos:
            for column in ("durationMs", "videoCodec", "audioCodec", "rendition"):
                row.pop(column, None)
        files["data/photos.json"] = json.dumps(photos, ensure_ascii=False).encode()
        manifest["files"]["data/photos.json"] = hashlib.sha256(files["data/photos.json"]).hexdigest()
        families = json.loads(files["data/families.json"])  # v17's weather switch
        for row in families:
            row.pop("weatherLookup", None)
            row.pop("trashDays", None)  # v20's
            row.pop("strongSignIn", None)  # v24's
        files["data/families.json"] = json.dumps(families, ensure_ascii=False).encode()
        manifest["files"]["data/families.json"] = hashlib.sha256(files["data/families.json"]).hexdigest()
        memberships = json.loads(files["data/memberships.json"])  # v15's mail choices
        for row in memberships:
            for column in ("mailAddress", "mailDigest", "mailReminders", "mailLanguage", "mailSince"):
                row.pop(column, None)
        files["data/memberships.json"] = json.dumps(memberships, ensure_ascii=False).encode()
        manifest["files"]["data/memberships.json"] = hashlib.sha256(files["data/memberships.json"]).hexdigest()
        entries = json.loads(files["data/entries.json"])  # v14's author
        for row in entries:
            row.pop("authorId", None)
            row.pop("placeRegion", None)  # v16's
        files["data/entries.json"] = json.dumps(entries, ensure_ascii=False).encode()
        manifest["files"]["data/entries.json"] = hashlib.sha256(files["data/entries.json"]).hexdigest()

    old = rewritten(current, tmp_path / "v7.zip", as_v7)
    restored = tmp_path / "restored" / "saessak-data"
    saessak("restore", str(old), data=restored)
    again = tmp_path / "again.zip"
    saessak("backup", str(again), data=restored)
    # An entry of a schema before v14 has no author: the only difference (its place region, of v16, is found again
    # from its coordinates as the restore migrates it forward).
    expected = dict(tables(current)[0])
    authorless = json.loads(expected["data/entries.json"])
    for row in authorless:
        row["authorId"] = None
    assert json.loads(tables(again)[0]["data/entries.json"]) == authorless
    del expected["data/entries.json"]
    expected["data/activity.json"] = b"[\n]\n"  # a backup from before v21 restores with an empty record of who did what
    assert {k: v for k, v in tables(again)[0].items() if k != "data/entries.json"} == expected
    assert tables(again)[2]["schema"] == tables(current)[2]["schema"]

    def from_the_future(manifest, files):
        manifest["schema"].append("v99 teleportation")

    future = rewritten(current, tmp_path / "future.zip", from_the_future)
    target = tmp_path / "future" / "saessak-data"
    result = saessak("restore", str(future), data=target, check=False)
    assert result.returncode != 0 and "v99 teleportation" in result.stderr and "does not know" in result.stderr


FIXTURES = sorted((Path(__file__).resolve().parent / "fixtures" / "backups").glob("schema-*.zip"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_every_earlier_schemas_backup_restores(tmp_path, fixture):
    """Backups written by the builds of earlier schemas (scripts/make_backup_fixture.py; the v7 one has a child
    with a profile photo, which that build itself could not restore) restore, migrate and serve."""
    _, _, manifest = tables(fixture)
    restored = tmp_path / "restored" / "saessak-data"
    saessak("restore", str(fixture), data=restored)
    token = saessak("admin", "create-token", "--username", "mom", data=restored).stdout.strip()
    server = Server(restored).start()
    try:
        children = {c["name"]: c for c in api(server, "GET", "/children", token=token)["items"]}
        assert set(children) == {"하늘", "바다"}
        assert server.request("GET", f"/api/v1/children/{children['하늘']['id']}/photo", token=token).status == 200
        assert api(server, "GET", f"/children/{children['하늘']['id']}/resident-number", token=token)["residentNumber"] == NUMBER
        assert api(server, "GET", "/entries", token=token)["items"][0]["title"] == "첫 걸음"
        assert len(api(server, "GET", "/events", token=token)["items"]) == 1
    finally:
        server.stop()
    again = tmp_path / "again.zip"
    saessak("backup", str(again), data=restored)
    data, photos, now = tables(again)
    assert {f"photos/{name.split('/')[-1]}" for name in photos} == {n for n in tables(fixture)[1]}
    for name, count in manifest["counts"].items():
        assert now["counts"][name] == count + (1 if name == "apiTokens" else 0), name  # the token made above
    assert now["schema"][:len(manifest["schema"])] == manifest["schema"]


def unfinished_deflate_zip(path, name):
    """A ZIP whose one member is a deflate stream that never ends (sync-flushed, no final block): ZIPFoundation read
    on at end of file for ever on such a member (found by `make fuzz` in a Day One export)."""
    import struct
    import zlib
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = compressor.compress(b'{"format": "saessak-backup"' + b" " * 5000) + compressor.flush(zlib.Z_SYNC_FLUSH)
    encoded = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, 0, len(body), 100000, len(encoded), 0) + encoded
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, 0, len(body), 100000, len(encoded), 0, 0, 0, 0, 0, 0) + encoded
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local) + len(body), 0)
    path.write_bytes(local + body + central + end)
    return path


def test_a_backup_whose_compressed_data_never_ends_is_refused_at_once(tmp_path):
    started = time.monotonic()
    broken = unfinished_deflate_zip(tmp_path / "broken.zip", "manifest.json")
    result = saessak("restore", str(broken), data=tmp_path / "restored", check=False)
    assert result.returncode != 0 and "manifest.json cannot be read" in result.stderr, result.stderr
    assert time.monotonic() - started < 10
