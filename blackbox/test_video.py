"""Video clips through the real server (issue 21): what phones upload, read right; web renditions made by the job
queue; served with ranges; refused clearly when broken."""
import json
import subprocess
import time

import pytest

import clips
from conftest import new_child, new_entry, photo_files
from images import multipart
from openapi_contract import check

# Which further passes of `make test` run this module: on PostgreSQL (engine), with photos in object storage (photos).
pytestmark = [pytest.mark.engine, pytest.mark.photos]


def upload(server, token, files, path="/api/v1/photos"):
    content_type, body = multipart(files)
    response = server.request("POST", path, raw=body, token=token, headers={"Content-Type": content_type})
    check("POST", path, response)
    return response


def call(server, method, path, token=None, **kw):
    response = server.request(method, path, None, token, **kw)
    check(method, path, response)
    return response


def wait_for_rendition(server, token, photo_id, timeout=120):
    deadline = time.time() + timeout
    while time.time() < deadline:
        video = call(server, "GET", f"/api/v1/photos/{photo_id}", token).json()["video"]
        if video["rendition"] in ("ready", "failed", "none"):
            return video
        time.sleep(0.3)
    raise AssertionError(f"the rendition of {photo_id} was not made within {timeout} s")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("clips")


def test_android_mp4_plays_as_it_is(server, folder):
    t = server.kim
    entry = new_entry(server, t, [new_child(server, t)["id"]])
    clip = clips.h264_mp4(folder, extra=["-metadata", "creation_time=2026-11-22T00:15:30.000000Z",
                                         "-metadata", "location=+35.1796+129.0756/"])
    original = clip.read_bytes()
    response = upload(server, t, [("VID_20261122.mp4", original)], f"/api/v1/entries/{entry['id']}/photos")
    assert response.status == 201, response.body
    item = response.json()["items"][0]
    assert item["mimeType"] == "video/mp4" and (item["width"], item["height"]) == (640, 360)
    # UTC on the family's clock: 00:15 UTC is 09:15 in Seoul.
    assert item["takenAt"] == "2026-11-22T09:15:30+09:00"
    assert abs(item["latitude"] - 35.1796) < 1e-4 and abs(item["longitude"] - 129.0756) < 1e-4
    video = item["video"]
    assert video["videoCodec"] == "h264" and video["audioCodec"] == "aac" and abs(video["durationSeconds"] - 3) < 0.1
    assert video["rendition"] == "none" and video["playable"] is True and "renditionProgress" not in video

    # The original byte for byte, and what the browser plays (the same file) with ranges and an ETag.
    assert call(server, "GET", f"/api/v1/photos/{item['id']}/original", t).body == original
    played = call(server, "GET", f"/api/v1/photos/{item['id']}/video", t)
    assert played.status == 200 and played.body == original and played.headers["Content-Type"] == "video/mp4"
    assert played.headers["Accept-Ranges"] == "bytes" and played.headers["ETag"]
    part = call(server, "GET", f"/api/v1/photos/{item['id']}/video", t, headers={"Range": "bytes=100-1099"})
    assert part.status == 206 and part.body == original[100:1100]
    assert part.headers["Content-Range"] == f"bytes 100-1099/{len(original)}"
    assert call(server, "GET", f"/api/v1/photos/{item['id']}/video", t, headers={"If-None-Match": played.headers["ETag"]}).status == 304
    # A poster frame's thumbnails, as for photos.
    for size in ("small", "large"):
        thumb = call(server, "GET", f"/api/v1/photos/{item['id']}/thumbnail?size={size}", t)
        assert thumb.status == 200 and thumb.body[:3] == b"\xff\xd8\xff"
    # Another family sees nothing of it.
    assert server.request("GET", f"/api/v1/photos/{item['id']}/video", token=server.lee).status == 404


def test_iphone_hevc_mov_gets_a_web_rendition(server, folder):
    t = server.kim
    entry = new_entry(server, t, [new_child(server, t)["id"]])
    clip = clips.hevc_mov(folder)
    original = clip.read_bytes()
    response = upload(server, t, [("IMG_0001.MOV", original)], f"/api/v1/entries/{entry['id']}/photos")
    assert response.status == 201, response.body
    item = response.json()["items"][0]
    # Turned 90°: shown portrait. Apple's creation date keeps the phone's own clock and offset.
    assert item["mimeType"] == "video/quicktime" and (item["width"], item["height"]) == (360, 640)
    assert item["takenAt"] == "2026-05-05T14:30:12+09:00"
    assert abs(item["latitude"] - 37.5665) < 1e-4 and abs(item["longitude"] - 126.978) < 1e-4
    assert item["cameraMake"] == "Apple" and item["cameraModel"] == "iPhone 15 Pro"
    assert item["video"]["videoCodec"] == "hevc" and item["video"]["rendition"] == "pending"
    assert item["video"]["playable"] is False

    video = wait_for_rendition(server, t, item["id"])
    assert video["rendition"] == "ready" and video["playable"] is True
    played = call(server, "GET", f"/api/v1/photos/{item['id']}/video", t)
    assert played.status == 200 and played.headers["Content-Type"] == "video/mp4"
    body = played.body
    # faststart: the index (moov) before the data (mdat); H.264 inside; upright and portrait.
    assert body.find(b"moov") < body.find(b"mdat")
    assert b"avc1" in body[: body.find(b"mdat")]
    # The original is kept byte for byte.
    assert call(server, "GET", f"/api/v1/photos/{item['id']}/original", t).body == original
    assert len(photo_files(server.data, "renditions")) >= 1


@pytest.mark.parametrize("make, name, status, words", [
    (lambda folder: clips.truncated(clips.h264_mp4(folder, "whole.mp4"), "cut.mp4"), "cut.mp4", 422, "cut short"),
    (lambda folder: clips.truncated(clips.h264_mp4(folder, "whole-fs.mp4", seconds=5, faststart=True), "cut-fs.mp4"), "cut-fs.mp4", 422, "cut short"),
    (lambda folder: (folder / "notes.mov").write_text("첫 걸음 메모\n" * 20) and folder / "notes.mov", "notes.mov", 415, "text"),
])
def test_broken_clips_are_refused_by_name(server, folder, make, name, status, words):
    before = sorted(photo_files(server.data, "originals"))
    response = upload(server, server.kim, [(name, make(folder).read_bytes())])
    assert response.status == status, response.body
    assert words in response.json()["detail"]
    assert sorted(photo_files(server.data, "originals")) == before


def test_webm_plays_as_it_is(server, folder):
    response = upload(server, server.kim, [("recording.webm", clips.webm(folder).read_bytes())])
    assert response.status == 201, response.body
    item = response.json()["items"][0]
    assert item["mimeType"] == "video/webm" and item["video"]["videoCodec"] == "vp9" and item["video"]["audioCodec"] == "opus"
    assert item["video"]["rendition"] == "none"
    assert call(server, "GET", f"/api/v1/photos/{item['id']}/video", server.kim).headers["Content-Type"] == "video/webm"


def test_day_one_videos_are_imported_with_their_entry(tmp_path, folder):
    """Day One's `videos` array: the clip joins its entry after the photos, read like an upload, and its rendition
    is made once a server runs."""
    from conftest import Server, family_with_children, saessak
    from dayone_export import entry, export
    from images import image_bytes

    data = tmp_path / "saessak-data"
    token = family_with_children(data, "하늘")
    movie = clips.hevc_mov(folder, "dayone.mov").read_bytes()
    photo = image_bytes(tmp_path, ".jpg", 320, 240)
    path = export(tmp_path / "export.zip", {"Journal.json": [
        entry("V1", "2026-05-05T05:30:00Z", "첫 걸음\n드디어 걸었다", photos=[("P1", photo, "jpeg")], videos=[("V-1", movie, "mov")]),
    ]})
    report = json.loads(saessak("import", "dayone", str(path), "--json", data=data).stdout)
    assert report["added"] == {"entries": 1, "photos": 2}, report
    running = Server(data).start()
    try:
        item = call(running, "GET", "/api/v1/entries?limit=10", token).json()["items"][0]
        assert item["title"] == "첫 걸음" and item["body"] == "드디어 걸었다"
        listed = call(running, "GET", f"/api/v1/entries/{item['id']}/photos", token).json()["items"]
        assert [p["mimeType"] for p in listed] == ["image/jpeg", "video/quicktime"]
        assert listed[1]["takenAt"] == "2026-05-05T14:30:12+09:00"
        assert call(running, "GET", f"/api/v1/photos/{listed[1]['id']}/original", token).body == movie
        assert wait_for_rendition(running, token, listed[1]["id"])["rendition"] == "ready"
    finally:
        running.stop()
    # The command line lists the entry's photos and clips.
    lines = saessak("photos", "list", "--entry", item["id"], data=data).stdout.splitlines()
    assert len(lines) == 2 and "image/jpeg" in lines[0]
    assert "video/quicktime  360×640  ▶ 0:03  hevc, web version ready  2026-05-05 14:30" in lines[1]
    listed_json = json.loads(saessak("photos", "list", "--entry", item["id"], "--json", data=data).stdout)["items"]
    assert listed_json[1]["video"]["durationSeconds"] == 3
    assert "📷 1 ▶ 1" in saessak("entries", "list", data=data).stdout
    refused = saessak("photos", "list", "--entry", "nonsense", data=data, check=False)
    assert refused.returncode != 0 and "--entry 'nonsense' is not an id" in refused.stderr


def test_a_rendition_cut_off_by_kill_9_is_finished_after_the_restart(tmp_path, folder):
    """The job queue: progress shows while ffmpeg works; SIGKILL takes ffmpeg down with the server; after the restart
    the claim runs out and the rendition is made again from the original, which is untouched."""
    import subprocess
    from conftest import Server, make_family

    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    clip = clips.hevc_mov(folder, "long.MOV", seconds=40, size="1280x720")
    original = clip.read_bytes()
    server = Server(data).start()
    try:
        item = upload(server, token, [("long.MOV", original)]).json()["items"][0]
        seen = []
        deadline = time.time() + 60
        while time.time() < deadline:
            video = call(server, "GET", f"/api/v1/photos/{item['id']}", token).json()["video"]
            assert video["rendition"] == "pending", video
            if video["renditionProgress"] > 0:
                seen.append(video["renditionProgress"])
                break
            time.sleep(0.1)
        assert seen, "no progress was shown"
        assert call(server, "GET", f"/api/v1/photos/{item['id']}/video", token).status == 409
        server.stop(kill=True)
    finally:
        server.stop()
    time.sleep(0.5)
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert not [line for line in running.splitlines() if line.startswith("/usr/bin/ffmpeg") and str(data) in line], running

    server = Server(data).start()
    try:
        video = wait_for_rendition(server, token, item["id"], timeout=120)
        assert video["rendition"] == "ready"
        played = call(server, "GET", f"/api/v1/photos/{item['id']}/video", token)
        assert played.headers["Content-Type"] == "video/mp4" and played.body.find(b"moov") < played.body.find(b"mdat")
        assert call(server, "GET", f"/api/v1/photos/{item['id']}/original", token).body == original
        assert len(photo_files(data, "renditions")) == 1
    finally:
        server.stop()


TAGS = ["-metadata", "location=+37.5665+126.9780/", "-metadata", "title=우리 집 앞 놀이터", "-metadata", "comment=할머니 댁 주소",
        "-metadata:s:v", "title=stream secret"]


@pytest.mark.parametrize("make, name, content_type", [
    (lambda folder: clips.h264_mp4(folder, "shared.mp4", seconds=2, extra=[*TAGS, "-movflags", "use_metadata_tags"]), "shared.mp4", "video/mp4"),
    (lambda folder: clips.webm(folder, "shared.webm", extra=TAGS), "shared.webm", "video/webm"),
])
def test_a_share_link_plays_the_entrys_clip_without_its_tags_and_nothing_else(server, folder, make, name, content_type):
    """Issue 33: a clip that plays as it is (MP4 H.264/AAC, WebM) was sent to a share link as uploaded — the phone's
    GPS, title and comment included. Members still get the original; a share link a copy of its streams, untagged."""
    t = server.kim
    entry = new_entry(server, t, [new_child(server, t)["id"]])
    original = make(folder).read_bytes()
    assert b"37.5665" in original
    item = upload(server, t, [(name, original)], f"/api/v1/entries/{entry['id']}/photos").json()["items"][0]
    other = upload(server, t, [("other.mp4", clips.h264_mp4(folder, "other.mp4", seconds=1).read_bytes())]).json()["items"][0]
    link = server.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]], "label": "할머니께"}, t).json()["url"]
    path = link.split(str(server.port), 1)[1]
    page = server.request("GET", path).body.decode()
    assert f'src="{path}/videos/{item["id"]}"' in page and "<video controls" in page
    played = server.request("GET", f"{path}/videos/{item['id']}")
    assert played.status == 200 and played.headers["Content-Type"] == content_type
    for secret in ["37.5665", "우리 집 앞 놀이터", "할머니 댁 주소", "stream secret", "loci"]:
        assert secret.encode() not in played.body, secret
    copy = folder / ("played-" + name)
    copy.write_bytes(played.body)
    probed = json.loads(subprocess.run(["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", str(copy)],
                                       capture_output=True, check=True).stdout)
    assert [s["codec_type"] for s in probed["streams"]] == ["video", "audio"]
    assert abs(float(probed["format"]["duration"]) - 2) < 0.3
    ranged = server.request("GET", f"{path}/videos/{item['id']}", headers={"Range": "bytes=0-99"})
    assert ranged.status == 206 and ranged.body == played.body[:100]
    # Outsiders learn nothing of the content's hash, and the link's cache life is short.
    assert item["sha256"] not in played.headers["ETag"] and "max-age=300" in played.headers["Cache-Control"]
    assert server.request("GET", f"{path}/videos/{other['id']}").status == 404
    # The family's own page still plays the original, tags and all.
    mine = server.request("GET", f"/api/v1/photos/{item['id']}/video", token=t)
    assert mine.status == 200 and mine.body == original


def test_the_owner_sets_the_limits_and_a_clip_over_them_is_refused_naming_them(tmp_path, folder):
    from conftest import Server, make_family, saessak

    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    for bad, words in ((["--max-video-size", "0"], "--max-video-size must be 1–16384 MB"),
                       (["--max-video-minutes", "999"], "--max-video-minutes must be 1–240")):
        refused = saessak("serve", *bad, data=data, check=False)
        assert refused.returncode != 0 and words in refused.stderr
    long_clip = clips.h264_mp4(folder, "long.mp4", seconds=70, size="64x48", extra=["-b:a", "16k"])
    # Over the byte limit: the upload is stopped as its bytes pass it, whatever follows them.
    big_clip = clips.h264_mp4(folder, "big.mp4", seconds=1).read_bytes() + bytes(2 << 20)
    assert len(long_clip.read_bytes()) < 1 << 20 < len(big_clip)
    server = Server(data)
    server.extra_args = ["--max-video-size", "1", "--max-video-minutes", "1"]
    server.start()
    try:
        too_long = upload(server, token, [("long.mp4", long_clip.read_bytes())])
        assert too_long.status == 413 and too_long.json()["detail"] == "the video runs 1:10, longer than the 1:00 limit"
        too_big = upload(server, token, [("big.mp4", big_clip)])
        assert too_big.status == 413 and "larger than the 1.0 MB limit" in too_big.json()["detail"]
        assert photo_files(data, "originals") == [] and photo_files(data, "incoming") == []
    finally:
        server.stop()
