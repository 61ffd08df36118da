"""Issue 33: files that make ffmpeg read what they should not. `<!--free-->` and a DASH manifest passed the sniff as
QuickTime; ffprobe and ffmpeg then chose the DASH demuxer themselves and read the file its `<BaseURL>` named — another
family's clip came back as the uploader's thumbnail. Every trick below goes through both upload paths (a form upload
and tus) dressed as each container we accept: each is refused, or taken as the clip its own bytes hold, and nothing
of the other family's clip comes back. Then every program the server runs is listed and each call checked: the input
pinned to its container, only the `file` protocol, one input."""
import base64
import os
import re
import shlex
import struct
import subprocess
import time
from pathlib import Path

import pytest

import clips
from conftest import Server, engine_environment, make_family, new_child, new_entry, photo_files
from images import multipart

ROOT = Path(__file__).resolve().parent.parent
TUS = {"Tus-Resumable": "1.0.0"}

# What a file can start with to pass as each container we accept: an MP4 `ftyp`, old QuickTime's leading atoms as
# text (the probe's spelling) and as real atoms, and WebM's EBML header.
PREFIXES = {
    "mp4": b"\x00\x00\x00\x14ftypisom\x00\x00\x02\x00isom",
    "mov-free-comment": b"<!--free-->",
    "mov-moov-comment": b"<!--moov-->",
    "mov-mdat-comment": b"<!--mdat-->",
    "mov-wide-comment": b"<!--wide-->",
    "mov-free-atom": b"\x00\x00\x00\x08free\x00\x00\x00\x00mdat",
    "webm": bytes([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0xF2, 0x81, 0x04,
                   0x42, 0xF3, 0x81, 0x08, 0x42, 0x82, 0x84]) + b"webm",
    "none": b"",
}


def dash(address):
    return (f'<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" '
            f'minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period><AdaptationSet mimeType="video/mp4">'
            f'<Representation id="1" bandwidth="100000" codecs="avc1.64000d" width="320" height="240"><BaseURL>{address}</BaseURL>'
            f'<SegmentBase/></Representation></AdaptationSet></Period></MPD>\n').encode()


def hls(address):
    return f"#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n{address}\n#EXT-X-ENDLIST\n".encode()


def concat(address):
    return f"ffconcat version 1.0\nfile '{address}'\n".encode()


def avi_gab2(address):
    """An AVI whose subtitle stream is a GAB2 block: ffmpeg opens the block as a file of its own (the CVE-2017-9993
    road to an HLS playlist)."""
    playlist = hls(address)
    gab2 = b"GAB2\x00\x02\x00" + struct.pack("<I", 8) + b"x\x00y\x00z\x00\x00\x00" + b"\x04\x00" + struct.pack("<I", len(playlist)) + playlist
    chunk = b"02tx" + struct.pack("<I", len(gab2)) + gab2
    movi = b"LIST" + struct.pack("<I", 4 + len(chunk)) + b"movi" + chunk
    return b"RIFF" + struct.pack("<I", 4 + len(movi)) + b"AVI " + movi


TRICKS = {"dash": dash, "hls": hls, "concat": concat, "avi-gab2": avi_gab2}


def addresses(secret):
    return {"file-url": f"file://{secret}", "file": f"file:{secret}", "path": str(secret),
            "subfile": f"subfile,,start,0,end,0,,:{secret}"}


def boxes(data, start=0, end=None):
    """(type, start, end) of the ISO boxes between start and end."""
    end = len(data) if end is None else end
    found = []
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        if size < 8:
            break
        found.append((kind.decode("latin-1"), start, start + size))
        start += size
    return found


def with_external_dref(data, address):
    """A real MP4/QuickTime clip (moov after mdat) whose data reference names another file (`url ` without the
    self-contained flag): the sample offsets would be read from there."""
    data = bytearray(data)
    path = ["moov", "trak", "mdia", "minf", "dinf", "dref"]
    chain, start, end = [], 0, len(data)
    for name in path:
        box = next(b for b in boxes(data, start, end) if b[0] == name)
        chain.append(box)
        start, end = box[1] + (16 if name == "dref" else 8), box[2]
    dref_start, dref_end = chain[-1][1], chain[-1][2]
    location = address.encode() + b"\x00"
    entry = struct.pack(">I4sI", 12 + len(location), b"url ", 0) + location
    dref = struct.pack(">I4sII", 16 + len(entry), b"dref", 0, 1) + entry
    grown = len(dref) - (dref_end - dref_start)
    data[dref_start:dref_end] = dref
    for _, box_start, _ in chain[:-1]:
        size = struct.unpack(">I", data[box_start:box_start + 4])[0]
        data[box_start:box_start + 4] = struct.pack(">I", size + grown)
    return bytes(data)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tricks")
    data = folder / "saessak-data"
    kim, lee = make_family(data, "kim", "김씨네"), make_family(data, "lee", "이씨네")
    running = Server(data).start()
    running.kim, running.lee, running.folder = kim, lee, folder
    # Kim's clip: red from end to end, so that any frame of it is known at sight.
    red = folder / "red.mp4"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=red:size=320x240:rate=25:duration=2",
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(red)], check=True)
    entry = new_entry(running, kim, [new_child(running, kim)["id"]])
    assert upload(running, kim, "red.mp4", red.read_bytes(), f"/api/v1/entries/{entry['id']}/photos")[0] == 201
    running.secret = next(Path(p) for p in photo_files(data, "originals") if p.endswith(".mp4"))
    yield running
    running.stop()


def upload(server, token, name, data, path="/api/v1/photos"):
    content_type, body = multipart([(name, data)])
    response = server.request("POST", path, raw=body, token=token, headers={"Content-Type": content_type})
    return response.status, response


def upload_by_tus(server, token, name, data):
    metadata = f"filename {base64.b64encode(name.encode()).decode()}"
    created = server.request("POST", "/api/v1/uploads", token=token,
                             headers={**TUS, "Upload-Length": str(len(data)), "Upload-Metadata": metadata})
    assert created.status == 201, created.text
    answer = server.request("PATCH", created.headers["Location"], token=token, raw=data, headers={
        **TUS, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"})
    if answer.status == 204:
        done = server.request("GET", created.headers["Location"], token=token).json()
        return (201 if done.get("photo") else done["refusal"]["status"]), done
    return answer.status, answer


def not_the_secret(server, token, photo_id):
    """The photo made of a trick is not a frame of Kim's red clip."""
    thumbnail = server.request("GET", f"/api/v1/photos/{photo_id}/thumbnail?size=small", token=token)
    assert thumbnail.status == 200
    path = server.folder / f"thumb-{photo_id}.jpg"
    path.write_bytes(thumbnail.body)
    red, green, blue = (float(v) for v in subprocess.run(
        ["vips", "getpoint", str(path), "4", "4"], capture_output=True, text=True, check=True).stdout.split()[:3])
    assert not (red > 180 and green < 80 and blue < 80), "a frame of another family's clip came back"


def photo_id(status, answer):
    if hasattr(answer, "json"):
        return answer.json()["items"][0]["id"]
    return answer["photo"]["id"]


def cases(secret):
    for trick, make in TRICKS.items():
        for how, address in addresses(secret).items():
            for container, prefix in PREFIXES.items():
                yield f"{trick}-{how}-{container}", prefix + b"\n" + make(address)


@pytest.mark.parametrize("path", ["form", "tus"])
def test_playlists_and_manifests_read_nothing_else(site, path):
    seen = {}
    for name, data in cases(site.secret):
        status, answer = (upload(site, site.lee, name + ".mp4", data) if path == "form"
                          else upload_by_tus(site, site.lee, name + ".mp4", data))
        seen[name] = status
        if status == 201:
            not_the_secret(site, site.lee, photo_id(status, answer))
    assert set(seen.values()) <= {415, 422}, {name: status for name, status in seen.items() if status not in (415, 422)}


@pytest.mark.parametrize("container", ["mp4", "mov"])
@pytest.mark.parametrize("path", ["form", "tus"])
def test_an_external_data_reference_is_not_followed(site, container, path):
    source = site.folder / f"own.{container}"
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=2",
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-f", container, str(source)], check=True)
    for how, address in addresses(site.secret).items():
        data = with_external_dref(source.read_bytes(), address)
        name = f"dref-{how}.{container}"
        status, answer = upload(site, site.lee, name, data) if path == "form" else upload_by_tus(site, site.lee, name, data)
        assert status in (201, 415, 422), (name, status)
        if status == 201:
            not_the_secret(site, site.lee, photo_id(status, answer))


# Every program the server starts, by the name the test knows it by; ToolRun is the only place that starts one.
PROGRAMS = {"ffprobe", "ffmpeg", "saessak"}


def test_every_program_the_server_runs_reads_only_its_pinned_input(tmp_path):
    sources = "\n".join(p.read_text() for p in (ROOT / "Sources").rglob("*.swift"))
    launchers = sorted({str(p.relative_to(ROOT)) for p in (ROOT / "Sources").rglob("*.swift") if "Process()" in p.read_text()})
    assert launchers == ["Sources/Photos/Video/ToolRun.swift"], launchers
    tools = re.search(r"public enum Tool: String, Sendable \{\s*case ([a-z, ]+)\n", sources).group(1)
    assert {t.strip() for t in tools.split(",")} | {"saessak"} == PROGRAMS
    assert re.findall(r"ToolRun\.run\(\s*program:", sources) and "read-untrusted" in sources

    # The server runs ffprobe and ffmpeg through wrappers that write down every call, on clips of every container.
    wrappers = tmp_path / "bin"
    wrappers.mkdir()
    # Each call writes its own file: the server runs several at once, and lines appended to one file interleave.
    calls = tmp_path / "calls"
    calls.mkdir()
    for tool in ("ffprobe", "ffmpeg"):
        wrapper = wrappers / tool
        wrapper.write_text(f'#!/bin/sh\nprintf "%s\\0" {tool} "$@" > "$(mktemp {shlex.quote(str(calls))}/call.XXXXXXXX)"\n'
                           f'exec /usr/bin/{tool} "$@"\n')
        wrapper.chmod(0o755)
    data = tmp_path / "saessak-data"
    token = make_family(data, "mom", "우리집")
    environment = {**engine_environment(data), "PATH": f"{wrappers}:{os.environ['PATH']}"}
    server = Server(data, env=environment).start()
    try:
        entry = new_entry(server, token, [new_child(server, token)["id"]])
        made = [clips.h264_mp4(tmp_path, "a.mp4", seconds=1), clips.webm(tmp_path, "b.webm", seconds=1),
                clips.hevc_mov(tmp_path, "c.mov", seconds=1)]
        for clip in made:
            assert upload(server, token, clip.name, clip.read_bytes(), f"/api/v1/entries/{entry['id']}/photos")[0] == 201
        link = server.request("POST", "/api/v1/share-links", {"entryIds": [entry["id"]]}, token).json()["url"]
        page = server.request("GET", link.split(str(server.port), 1)[1]).body.decode()
        for video in re.findall(r'src="(/s/[^"]+/videos/[^"]+)"', page):
            for _ in range(120):
                if server.request("GET", video).status != 409:
                    break
                time.sleep(0.5)
    finally:
        server.stop()
    invocations = [call.read_text().split("\0")[:-1] for call in calls.iterdir()]
    assert {call[0] for call in invocations} == {"ffprobe", "ffmpeg"} and len(invocations) >= 8
    for call in invocations:
        inputs = [i for i, argument in enumerate(call) if argument == "-i"]
        assert len(inputs) == 1, call
        before = call[:inputs[0]]
        assert before.count("-f") == 1, call
        start = before.index("-f")
        assert before[start:start + 6] in (
            ["-f", "mov", "-format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2", "-protocol_whitelist", "file"],
            ["-f", "matroska", "-format_whitelist", "matroska,webm", "-protocol_whitelist", "file"]), call
        assert before[start + 6:] in ([], ["-enable_drefs", "0"]), call
        assert call[inputs[0] + 1].startswith("file:/"), call
