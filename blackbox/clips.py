"""Video clips made by ffmpeg for the tests: what phones write (H.264 MP4, HEVC QuickTime with a rotation, a capture
time and a place), a browser's WebM, and broken ones (cut short, a text file named .mov)."""
import subprocess
from pathlib import Path

FFMPEG = ["ffmpeg", "-nostdin", "-v", "error", "-y"]


def _source(seconds, size, rate=30):
    return ["-f", "lavfi", "-i", f"testsrc=size={size}:rate={rate}:duration={seconds}",
            "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}"]


def h264_mp4(folder, name="clip.mp4", seconds=3, size="640x360", faststart=False, extra=()):
    """Android's kind: H.264 and AAC in MP4, `creation_time` in UTC."""
    out = Path(folder) / name
    flags = ["-movflags", "+faststart"] if faststart else []
    subprocess.run(FFMPEG + _source(seconds, size) + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                   "-c:a", "aac", "-shortest", *flags, *extra, str(out)], check=True)
    return out


def hevc_mov(folder, name="IMG_0001.MOV", seconds=3, size="640x360", rotate=90,
             created="2026-05-05T14:30:12+0900", location="+37.5665+126.9780+012.000/"):
    """An iPhone's kind: HEVC (hvc1) and AAC in QuickTime, turned by a display matrix, with Apple's creation date and
    ISO 6709 location. Two passes: ffmpeg 5.1 writes the rotation only when copying streams."""
    plain = Path(folder) / ("plain-" + name)
    subprocess.run(FFMPEG + _source(seconds, size) + ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error",
                   "-tag:v", "hvc1", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-f", "mov", str(plain)], check=True)
    out = Path(folder) / name
    subprocess.run(FFMPEG + ["-i", str(plain), "-c", "copy", "-metadata:s:v:0", f"rotate={rotate}",
                   "-metadata", f"com.apple.quicktime.creationdate={created}",
                   "-metadata", f"com.apple.quicktime.location.ISO6709={location}",
                   "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15 Pro",
                   "-movflags", "use_metadata_tags", "-f", "mov", str(out)], check=True)
    plain.unlink()
    return out


def webm(folder, name="clip.webm", seconds=2, size="320x240", extra=()):
    out = Path(folder) / name
    subprocess.run(FFMPEG + _source(seconds, size) + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                   "-b:v", "300k", "-c:a", "libopus", "-shortest", *extra, str(out)], check=True)
    return out


def truncated(source, name, keep=0.6):
    """The first `keep` of a clip's bytes, as an upload cut off mid-way leaves it."""
    data = Path(source).read_bytes()
    out = Path(source).parent / name
    out.write_bytes(data[: int(len(data) * keep)])
    return out
