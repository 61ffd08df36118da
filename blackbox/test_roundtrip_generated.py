"""Generated round trips (issue 16): hypothesis builds random families holding every kind of data Saessak stores —
children (solar, lunar, leap-month births, profile photos, resident numbers), entries with ordered photos and video
clips (one that plays as it is, one that needs a web rendition), tags,
places and weather, events and visits with prescription photos, vaccinations with choices and skips, measurements,
anniversaries, memos, members and roles (one taken out), invitations, share links, tokens, feeds, imported source keys, the
record of who did what and the trash
(an entry, a photo taken off one, a memo, a comment deleted; the family's days) — then
backup → restore into an empty folder → backup again must give identical content, for the whole folder and for
`--family`, and the restored server must answer the same API reads; the first three families are also snapshotted
with restic and restored from the snapshot, which must give the same backup. ROUNDTRIP_EXAMPLES sets how many families
(default 20); a failure prints the family that failed."""
import datetime
import json
import os
import random
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

import clips
from conftest import ENGINE, Server, drop_database, make_family, saessak
from images import image, multipart

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]

EXAMPLES = int(os.environ.get("ROUNDTRIP_EXAMPLES", "20"))
FAMILY = "우리집"

# Words that make trouble: Korean, emoji, combining and prepended marks next to markup characters, quotes, CP949-only
# syllables, a Windows line end.
WORDS = ["아기", "걸음마", "똠방각하", "첫돌", "🎉", "e\u0301", "\u0600<", "&amp;", '"따옴표"', "'", "tab\there", "x\r\ny", "ÅÄÖ",
         "百日", "a<b>c", "  spaced  "]
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join).map(str.strip).filter(bool)
# Names people read hold no control or formatting character (issue 33): the same words less those.
name_text = st.lists(st.sampled_from([w for w in WORDS if w not in ("\u0600<", "tab\there", "x\r\ny")]), min_size=1, max_size=5
                     ).map(" ".join).map(str.strip).filter(bool)
day = st.dates(min_value=datetime.date(2016, 1, 1), max_value=datetime.date(2026, 11, 20))
# Lunar months that have a leap month after them, with days every lunar month has.
LEAP_MONTHS = [(2020, 4), (2023, 2), (2025, 6)]


@st.composite
def child(draw):
    kind = draw(st.sampled_from(["solar", "lunar", "leap"]))
    body = {"name": draw(name_text)[:100], "sex": draw(st.sampled_from(["female", "male"]))}
    if kind == "solar":
        body["birthDate"] = draw(day).isoformat()
    else:
        year, month = draw(st.sampled_from(LEAP_MONTHS))
        body |= {"birthDate": f"{year}-{month:02d}-{draw(st.integers(1, 29)):02d}", "birthCalendar": "lunar", "isLeapMonth": kind == "leap"}
    if draw(st.booleans()):
        body["residentNumber"] = "240229-4123456"
    if draw(st.booleans()):
        body |= {"birthTime": f"{draw(st.integers(0, 23)):02d}:{draw(st.integers(0, 59)):02d}", "hospital": draw(text), "nickname": draw(name_text)}
    return body


@st.composite
def families(draw):
    children = draw(st.lists(child(), min_size=1, max_size=3))
    photo_count = draw(st.integers(0, 6))
    # Each upload is a photo or a clip (H.264 MP4 plays as it is; HEVC QuickTime needs a web rendition).
    kinds = draw(st.lists(st.sampled_from(["jpg", "jpg", "mp4", "mov"]), min_size=photo_count, max_size=photo_count))
    order = draw(st.permutations(list(range(photo_count))))
    cut = sorted(draw(st.lists(st.integers(0, photo_count), min_size=3, max_size=3)))
    # Each photo goes to one place: entries, visits, a profile, or nowhere (an upload not yet used).
    entry_photos, event_photos, profile_photos = order[:cut[0]], order[cut[0]:cut[1]], order[cut[1]:cut[2]]
    entries = []
    for index in range(draw(st.integers(0, 4))):
        entries.append({
            "title": draw(text)[:200], "body": draw(text),
            "date": f"{draw(day).isoformat()}T{draw(st.integers(0, 23)):02d}:{draw(st.integers(0, 59)):02d}",
            "children": draw(st.lists(st.integers(0, len(children) - 1), min_size=1, max_size=len(children), unique=True)),
            "tags": draw(st.lists(st.sampled_from(["걸음마", "병원", "🎂", "여행", "e\u0301"]), max_size=3, unique=True)),
            "place": draw(st.one_of(st.none(), st.just({"name": "집"}), st.just({"name": "한강공원", "latitude": 37.5283, "longitude": 126.9341}))),
            "weather": draw(st.one_of(st.none(), st.sampled_from(["맑음", "비", "눈 -3℃"]))),
            "timeZone": draw(st.sampled_from(["Asia/Seoul", "Europe/Paris"])),
            "photos": [p for i, p in enumerate(entry_photos) if i % 4 == index],
        })
    return {
        "children": children,
        "photo_count": photo_count,
        "kinds": kinds,
        "entries": entries,
        "events": [{"child": draw(st.integers(0, len(children) - 1)), "kind": draw(st.sampled_from(["hospital", "milestone", "other"])),
                    "title": draw(text), "date": draw(day).isoformat(), "hospital": draw(text), "photos": list(event_photos) if i == 0 else []}
                   for i in range(draw(st.integers(0, 2)))],
        "profiles": {i: p for i, p in zip(range(len(children)), profile_photos)},
        "doses": draw(st.lists(st.tuples(st.sampled_from(["bcg", "hepB", "dtapIpv", "pcv", "rv1", "mmr"]), day), max_size=3)),
        "choice": draw(st.one_of(st.none(), st.sampled_from([("rotavirus", "rv5"), ("japaneseEncephalitis", "ljev")]))),
        "skip": draw(st.booleans()),
        "measurements": draw(st.lists(st.tuples(st.sampled_from([("weight", "kg", 3.5), ("height", "cm", 75.2), ("head", "cm", 44.1)]), day), max_size=3)),
        "anniversaries": draw(st.lists(st.tuples(text, st.sampled_from(["solar", "lunar"]), st.integers(1, 12), st.integers(1, 28), st.booleans()), max_size=2)),
        "memos": draw(st.lists(st.tuples(text, text), max_size=2)),
        "members": draw(st.lists(st.sampled_from(["owner", "editor", "viewer"]), max_size=2)),
        # A member who writes a memo, has their role changed and is taken out (their lines stay, nameless in a family
        # backup).
        "leaver": draw(st.booleans()),
        "invitations": draw(st.lists(st.sampled_from(["editor", "viewer"]), max_size=2)),
        "share": draw(st.booleans()),
        "tokens": draw(st.lists(st.sampled_from(["owner", "editor", "viewer"]), max_size=2)),
        "feeds": draw(st.lists(st.booleans(), max_size=2)),
        "imported": draw(st.lists(day, max_size=2, unique=True)),
        # Comments and hearts: (on an entry or the first photo, by the owner or a member, text) and who hearts what.
        "comments": draw(st.lists(st.tuples(st.booleans(), st.booleans(), text.filter(lambda t: t.strip() and "\0" not in t)), max_size=3)),
        "hearts": draw(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=3, unique=True)),
        # E-mail choices of the owner and (when there is one) the first member: digest, reminders, language, address.
        "weather": draw(st.booleans()),
        # The family's sign-in rule (owners and editors need a passkey or the second step).
        "strongSignIn": draw(st.booleans()),
        "mail": draw(st.lists(st.tuples(st.sampled_from(["off", "daily", "weekly"]), st.booleans(), st.sampled_from(["ko", "en"]),
                                        st.from_regex(r"[a-z0-9][a-z0-9+_-]{0,15}", fullmatch=True)), max_size=2)),
        # What goes to the trash at the end, in this order, and how long the family keeps it.
        "trash": draw(st.lists(st.sampled_from(["entry", "photo", "memo", "comment", "child", "visit"]), max_size=4, unique=True)),
        "trashDays": draw(st.sampled_from([None, 7, 365])),
    }


def api(server, method, path, body=None, token=None, raw=None, headers=None):
    response = server.request(method, "/api/v1" + path, body, token, raw=raw, headers=headers)
    assert response.status < 300, (method, path, body, response.status, response.body[:300])
    return response.json() if response.body else None


def build(data, plan, picture, scratch, movies):
    """Makes `plan` through the API and the CLI; returns the owner's token and what the trash took (`trashed`: items,
    entries and comment rows). `movies`: a clip's bytes by kind."""
    trashed = {"items": 0, "entries": 0, "comments": 0, "hearts": 0, "events": 0}
    token = make_family(data, "mom", FAMILY)
    for number, role in enumerate(plan["members"]):
        saessak("admin", "create-user", "--username", f"member{number}", "--password-stdin", data=data, stdin="a long password\n")
        saessak("admin", "add-member", "--username", f"member{number}", "--family", FAMILY, "--role", role, data=data)
    if plan["leaver"]:
        saessak("admin", "create-user", "--username", "leaver", "--password-stdin", data=data, stdin="a long password\n")
        saessak("admin", "add-member", "--username", "leaver", "--family", FAMILY, "--role", "editor", data=data)
        leaver = saessak("admin", "create-token", "--username", "leaver", "--family", FAMILY, data=data).stdout.strip()
    server = Server(data).start()
    try:
        children = [api(server, "POST", "/children", body, token)["id"] for body in plan["children"]]
        photos = []
        for number, kind in enumerate(plan["kinds"]):
            # Bytes after the end of the file make each upload distinct (photos and clips alike read past them).
            content = movies[kind] if kind in movies else picture
            content_type, body = multipart([(f"{number}.{kind}", content + f"photo-{number}-{random.random()}".encode())])
            photos.append(api(server, "POST", "/photos", raw=body, token=token, headers={"Content-Type": content_type})["items"][0]["id"])
        entries = []
        for entry in plan["entries"]:
            body = {key: value for key, value in entry.items() if key not in ("children", "photos") and value is not None}
            body |= {"childIds": [children[i] for i in entry["children"]], "photoIds": [photos[i] for i in entry["photos"]]}
            entries.append(api(server, "POST", "/entries", body, token)["id"])
        for event in plan["events"]:
            api(server, "POST", "/events", {"childId": children[event["child"]], "kind": event["kind"], "title": event["title"],
                                            "date": event["date"], "hospital": event["hospital"], "photoIds": [photos[i] for i in event["photos"]]}, token)
        for index, photo in plan["profiles"].items():
            api(server, "PUT", f"/children/{children[index]}/photo", {"photoId": photos[photo]}, token)
        first = children[0]
        for product, when in plan["doses"]:
            api(server, "POST", f"/children/{first}/vaccinations", {"product": product, "date": when.isoformat()}, token)
        if plan["choice"]:
            api(server, "PUT", f"/children/{first}/vaccinations/choices", {"choice": plan["choice"][0], "vaccine": plan["choice"][1]}, token)
        if plan["skip"]:
            api(server, "PUT", f"/children/{first}/vaccinations/skips", {"vaccine": "hepA", "number": 2, "skipped": True}, token)
        for (kind, unit, value), when in plan["measurements"]:
            api(server, "POST", f"/children/{first}/measurements", {"kind": kind, "value": value, "unit": unit, "date": when.isoformat()}, token)
        for name, calendar, month, day_of_month, holiday in plan["anniversaries"]:
            api(server, "POST", "/anniversaries", {"name": name, "calendar": calendar, "month": month, "day": day_of_month, "isHoliday": holiday}, token)
        memos = [api(server, "POST", "/memos", {"title": title[:200], "body": body}, token)["id"] for title, body in plan["memos"]]
        for role in plan["invitations"]:
            api(server, "POST", "/invitations", {"role": role}, token)
        if plan["share"] and entries:
            api(server, "POST", "/share-links", {"entryIds": entries[:2], "label": "할머니"}, token)
        for number, role in enumerate(plan["tokens"]):
            api(server, "POST", "/tokens", {"name": f"token {number}", "role": role}, token)
        for number, holidays in enumerate(plan["feeds"]):
            api(server, "POST", "/feeds", {"label": f"feed {number}", "holidays": holidays}, token)
        if plan["leaver"]:
            api(server, "POST", "/memos", {"title": "떠나는 사람의 메모", "body": ""}, leaver)
            api(server, "PUT", "/members/leaver", {"role": "viewer"}, token)
            api(server, "DELETE", "/members/leaver", None, token)
        # Comments and hearts, by the owner or (when there is one) the first member, on an entry or the first photo.
        member = None
        if plan["members"]:
            member = saessak("admin", "create-token", "--username", "member0", "--family", FAMILY, data=data).stdout.strip()
        targets = [f"/entries/{e}" for e in entries[:1]] + [f"/photos/{p}" for p in photos[:1]]
        comments = []  # (id, what it is on)
        for on_photo, by_member, words in plan["comments"]:
            if targets:
                target = targets[-1] if on_photo else targets[0]
                made = api(server, "POST", f"{target}/comments", {"text": words[:2000]}, member if by_member and member else token)
                comments.append((made["id"], target))
        hearts = set()  # (what it is on, whose)
        for on_photo, by_member in plan["hearts"]:
            if targets:
                target, who = targets[-1] if on_photo else targets[0], member if by_member and member else token
                api(server, "PUT", f"{target}/heart", token=who)
                hearts.add((target, who))
        if plan["weather"]:
            api(server, "PUT", "/family/weather", {"on": True}, token)
        if plan["strongSignIn"]:
            api(server, "PUT", "/family/sign-in", {"strongSignIn": True}, token)
        if plan["trashDays"]:
            api(server, "PUT", "/trash/settings", {"days": plan["trashDays"]}, token)
        # The trash: what goes takes along what hangs on it (an entry its comments and hearts, a child the entries and
        # visits only theirs), and nothing already gone is deleted again.
        live = set(range(len(entries)))
        visits = [e for e in api(server, "GET", "/events?limit=200", token=token)["items"]]

        def entry_goes(index):
            live.discard(index)
            trashed["entries"] += 1
            target = f"/entries/{entries[index]}"
            trashed["comments"] += sum(1 for _, on in comments if on == target)
            comments[:] = [(c, on) for c, on in comments if on != target]
            trashed["hearts"] += sum(1 for on, _ in hearts if on == target)
            hearts.difference_update({(on, who) for on, who in hearts if on == target})

        for kind in plan["trash"]:
            with_photos = [i for i in sorted(live) if plan["entries"][i]["photos"]]
            if kind == "memo" and memos:
                api(server, "DELETE", f"/memos/{memos.pop(0)}", token=token)
            elif kind == "comment" and comments:
                api(server, "DELETE", f"/comments/{comments.pop(0)[0]}", token=token)
                trashed["comments"] += 1
            elif kind == "photo" and with_photos:
                index = with_photos[0]
                api(server, "DELETE", f"/entries/{entries[index]}/photos/{photos[plan['entries'][index]['photos'][0]]}", token=token)
            elif kind == "entry" and live:
                index = max(live)
                api(server, "DELETE", f"/entries/{entries[index]}", token=token)
                entry_goes(index)
            elif kind == "visit" and visits:
                api(server, "DELETE", f"/events/{visits.pop(0)['id']}", token=token)
                trashed["events"] += 1
            elif kind == "child" and len(children) > 1:
                last = len(children) - 1
                api(server, "DELETE", f"/children/{children[last]}", token=token)
                for index in sorted(live):
                    if plan["entries"][index]["children"] == [last]:
                        entry_goes(index)
                gone = [v for v in visits if v["childId"] == children[last]]
                trashed["events"] += len(gone)
                visits[:] = [v for v in visits if v["childId"] != children[last]]
            else:
                continue
            trashed["items"] += 1
        for who, (digest, reminders, language, local) in zip((token, member), plan["mail"]):
            if who:
                api(server, "PUT", "/account/mail", {"address": f"{local}@example.kr", "digest": digest, "reminders": reminders,
                                                     "language": language}, who)
    finally:
        server.stop()
    if plan["imported"]:
        diary = scratch / "diary.txt"
        diary.write_text("".join(f"{when.isoformat()}\n옛날 일기 {when}\n\n" for when in plan["imported"]), encoding="utf-8")
        saessak("import", "text", str(diary), "--child", plan["children"][0]["name"], "--family", FAMILY, data=data)
    return token, trashed


def contents(path):
    """A backup's tables (parsed), its photos' names and bytes' digests, and its manifest without the time it was made."""
    with zipfile.ZipFile(path) as archive:
        tables = {name: json.loads(archive.read(name)) for name in archive.namelist() if name.startswith("data/")}
        photos = sorted(name for name in archive.namelist() if name.startswith("photos/"))
        manifest = json.loads(archive.read("manifest.json"))
    for key in ("createdAt", "created", "app"):
        manifest.pop(key, None)
    return tables, photos, manifest


READS = ["/children", "/entries?limit=200", "/timeline?limit=200", "/events", "/anniversaries", "/memos", "/invitations",
         "/share-links", "/feeds", "/tokens", "/account", "/account/mail", "/family/weather", "/family/sign-in", "/today?date=2026-11-22&days=400", "/search?q=아기",
         "/trash", "/trash/settings"]


def normalised(value):
    """An API answer without what a restore remakes (thumbnails, a clip's web rendition) or a read itself changes (when a
    token was last used)."""
    if isinstance(value, dict):
        remade = ("thumbnailsReady", "lastUsedAt", "rendition", "renditionProgress", "playable")
        return {k: normalised(v) for k, v in value.items() if k not in remade}
    if isinstance(value, list):
        return [normalised(v) for v in value]
    return value


def reads(data, token, engine=None, restoring=False):
    """The API's answers to `READS` and what hangs on each child and entry; `restoring`: then everything in the trash is
    put back and the diary read again (which changes the folder: the last thing a test does with it)."""
    server = Server(data, engine=engine).start()
    try:
        answers = {path: server.request("GET", "/api/v1" + path, token=token) for path in READS}
        children = answers["/children"].json()["items"]
        for item in children:
            for sub in ("", "/vaccinations", "/growth", "/resident-number"):
                answers[f"/children/{item['id']}{sub}"] = server.request("GET", f"/api/v1/children/{item['id']}{sub}", token=token)
        for item in answers["/entries?limit=200"].json()["items"]:
            for sub in ("/photos", "/comments", "/hearts"):
                answers[f"/entries/{item['id']}{sub}"] = server.request("GET", f"/api/v1/entries/{item['id']}{sub}", token=token)
            for photo in item.get("photoIds", []):
                for sub in ("/comments", "/hearts"):
                    answers[f"/photos/{photo}{sub}"] = server.request("GET", f"/api/v1/photos/{photo}{sub}", token=token)
        # Everything in the trash comes back as it went (its entry first for a photo), and the diary reads the same again.
        for item in answers["/trash"].json()["items"] if restoring else []:
            answers[f"restore {item['label']}"] = server.request("POST", f"/api/v1/trash/{item['id']}/restore?withParent=true", token=token)
        for path in ("/entries?limit=200", "/memos", "/search?q=아기", "/trash") if restoring else ():
            answers[f"after restores {path}"] = server.request("GET", "/api/v1" + path, token=token)
        for item in answers["after restores /entries?limit=200"].json()["items"] if restoring else []:
            for sub in ("/photos", "/comments", "/hearts"):
                answers[f"after restores /entries/{item['id']}{sub}"] = server.request("GET", f"/api/v1/entries/{item['id']}{sub}", token=token)
        return {path: (r.status, normalised(r.json()) if r.body else None) for path, r in answers.items()}
    finally:
        server.stop()


SNAPSHOT_EXAMPLES = 3
SNAPSHOTTED = []


def snapshot_restores_the_same_backup(original, scratch):
    from conftest import BIN, engine_environment
    secret = {"SAESSAK_SNAPSHOT_PASSWORD": "a passphrase for the round trips"}
    target, copy = scratch / "snapshots", scratch / "from-snapshot"
    drop_database(copy)
    subprocess.run([BIN, "snapshots", "run", "--snapshots", str(target), "--snapshot-include-sensitive", "--data", str(original)],
                   env=engine_environment(original) | secret, check=True, capture_output=True, timeout=600)
    subprocess.run([BIN, "restore", "--from", str(target), "--data", str(copy)], env=engine_environment(copy) | secret, check=True,
                   capture_output=True, timeout=600)
    live, again = scratch / "live.zip", scratch / "from-snapshot.zip"
    saessak("backup", str(live), "--include-sensitive", data=original)
    saessak("backup", str(again), "--include-sensitive", data=copy)
    assert contents(again) == contents(live)


# No shrinking: each example costs seconds (a server, three backups, two restores); the failing family is printed whole.
@settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True, phases=[Phase.generate], print_blob=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plan=families())
def test_backup_restore_backup_is_identical_for_every_kind_of_data(plan, picture, movies):
    scratch = Path(tempfile.mkdtemp(prefix="saessak-roundtrip-"))
    try:
        original = scratch / "original"
        token, trashed = build(original, plan, picture, scratch, movies)
        for scope in ([], ["--family", FAMILY]):
            first, second = scratch / "first.zip", scratch / "second.zip"
            restored = scratch / "restored"
            for path in (first, second):
                path.unlink(missing_ok=True)
            shutil.rmtree(restored, ignore_errors=True)
            drop_database(restored)
            saessak("backup", str(first), "--include-sensitive", *scope, data=original)
            saessak("restore", str(first), data=restored)
            saessak("backup", str(second), "--include-sensitive", *scope, data=restored)
            one, two = contents(first), contents(second)
            assert one[0] == two[0], [name for name in one[0] if one[0][name] != two[0].get(name)]
            assert one[1:] == two[1:]
            assert len(one[1]) == plan["photo_count"]
            held = {name.removeprefix("data/").removesuffix(".json"): len(rows) for name, rows in one[0].items()}
            assert held["children"] == len(plan["children"]) - (1 if "child" in plan["trash"] and len(plan["children"]) > 1 else 0)
            assert held["events"] == len(plan["events"]) - trashed["events"]
            assert held["entries"] == len(plan["entries"]) - trashed["entries"] + len(plan["imported"])
            assert held["importedItems"] == len(plan["imported"]) and held["trashItems"] == trashed["items"]
            # Each member also owns the family `admin create-user` made for them, which only the whole backup holds.
            assert held["memberships"] == 1 + len(plan["members"]) * (1 if scope else 2) + (1 if plan["leaver"] and not scope else 0)
            assert held.get("activity", 0) >= len(plan["children"]) + len(plan["memos"]) + 3 * plan["leaver"]
            # The first member's token (for their comments and hearts) is one more.
            assert held["apiTokens"] == 1 + len(plan["tokens"]) + (1 if plan["members"] else 0)
            has_target = bool(plan["entries"] or plan["photo_count"])
            assert held["comments"] == (len(plan["comments"]) if has_target else 0) - trashed["comments"]
            hearts = {(on_photo and plan["photo_count"] > 0 or not plan["entries"], by and bool(plan["members"])) for on_photo, by in plan["hearts"]}
            assert held["hearts"] == (len(hearts) if has_target else 0) - trashed["hearts"]
            # The restored server answers every read as the original did (a family backup holds all the owner sees).
            assert reads(original, token) == reads(restored, token)
        # The first families of a run are also snapshotted with restic (issue 37) and restored from it: the same backup.
        if len(SNAPSHOTTED) < SNAPSHOT_EXAMPLES:
            SNAPSHOTTED.append(True)
            snapshot_restores_the_same_backup(original, scratch)
        # And what the trash held comes back the same from the restored family as from the original.
        assert reads(original, token, restoring=True) == reads(restored, token, restoring=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="module")
def picture(tmp_path_factory):
    """A small JPEG; each upload appends different bytes after its end marker, so every photo is distinct."""
    return image(tmp_path_factory.mktemp("picture"), ".jpg", 64, 48).read_bytes()


@pytest.fixture(scope="module")
def movies(tmp_path_factory):
    """Two short clips: an Android-like H.264 MP4 and an iPhone-like HEVC QuickTime file."""
    folder = tmp_path_factory.mktemp("movies")
    return {"mp4": clips.h264_mp4(folder, seconds=1, size="160x120").read_bytes(),
            "mov": clips.hevc_mov(folder, seconds=1, size="160x120").read_bytes()}


def sorted_rows(tables):
    """Tables with their rows in one order: engines list rows in their own (SQLite by insertion, PostgreSQL by key)."""
    return {name: sorted(rows, key=lambda row: json.dumps(row, sort_keys=True, ensure_ascii=False)) for name, rows in tables.items()}


@pytest.mark.skipif(ENGINE != "sqlite" or "SAESSAK_TEST_POSTGRES_URL" not in os.environ, reason="the move starts on SQLite and needs PostgreSQL")
@settings(max_examples=max(3, EXAMPLES // 5), deadline=None, database=None, derandomize=True, phases=[Phase.generate],
          print_blob=False, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plan=families())
def test_moving_between_engines_keeps_every_kind_of_data(plan, picture, movies):
    """SQLite → backup → restore into PostgreSQL → backup → restore into SQLite → backup: the same data each time (the
    backup format is the contract between the engines), and each server answers the same API reads."""
    scratch = Path(tempfile.mkdtemp(prefix="saessak-move-"))
    try:
        original = scratch / "original"
        token, _ = build(original, plan, picture, scratch, movies)
        saessak("backup", str(scratch / "sqlite.zip"), "--include-sensitive", data=original)
        moved = scratch / "on-postgres"
        drop_database(moved, "postgres")
        saessak("restore", str(scratch / "sqlite.zip"), data=moved, engine="postgres")
        saessak("backup", str(scratch / "postgres.zip"), "--include-sensitive", data=moved, engine="postgres")
        back = scratch / "back-on-sqlite"
        saessak("restore", str(scratch / "postgres.zip"), data=back, engine="sqlite")
        saessak("backup", str(scratch / "back.zip"), "--include-sensitive", data=back, engine="sqlite")
        first, second, third = (contents(scratch / name) for name in ("sqlite.zip", "postgres.zip", "back.zip"))
        assert sorted_rows(first[0]) == sorted_rows(second[0]) == sorted_rows(third[0])
        assert first[1] == second[1] == third[1]

        def manifest(content):
            # The tables' checksums are of their bytes, and the engines list rows in their own order.
            return {**content[2], "files": {k: v for k, v in content[2]["files"].items() if not k.startswith("data/")}}

        assert manifest(first) == manifest(second) == manifest(third)
        assert reads(moved, token, engine="postgres") == reads(original, token)
        drop_database(moved, "postgres")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
