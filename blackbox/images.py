"""Test images made with the libvips and exiftool command-line tools (Debian libvips-tools, libimage-exiftool-perl)."""
import struct
import subprocess
import uuid
import zlib
from pathlib import Path


def run(*args):
    subprocess.run(args, check=True, capture_output=True)


def image(folder: Path, suffix: str, width=640, height=480) -> Path:
    """A noisy colour image in the format the suffix names."""
    noise = folder / f"{uuid.uuid4()}.v"
    colour = folder / f"{uuid.uuid4()}.v"
    out = folder / f"{uuid.uuid4()}{suffix}"
    run("vips", "gaussnoise", str(noise), str(width), str(height))
    run("vips", "bandjoin_const", str(noise), str(colour), "40 200")
    run("vips", "copy", str(colour), str(out))
    noise.unlink()
    colour.unlink()
    return out


def image_bytes(folder: Path, suffix: str, width: int, height: int) -> bytes:
    """The bytes of `image` (for stores and archives that hold photos inside them), leaving no file behind."""
    path = image(folder, suffix, width, height)
    data = path.read_bytes()
    path.unlink()
    return data


def jpeg_with_exif(folder: Path, orientation=6, width=600, height=400) -> Path:
    path = image(folder, ".jpg", width, height)
    run("exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2024:02:10 09:30:15", "-OffsetTimeOriginal=+09:00",
        "-GPSLatitude=37.5665", "-GPSLatitudeRef=N", "-GPSLongitude=126.978", "-GPSLongitudeRef=E",
        f"-Orientation#={orientation}", "-Make=Apple", "-Model=iPhone 15 Pro", str(path))
    return path


def png_declaring(folder: Path, width: int, height: int) -> Path:
    """A valid PNG whose header declares width×height: a decompression bomb."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    body = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00")) + chunk(b"IEND", b""))
    path = folder / f"bomb-{width}x{height}.png"
    path.write_bytes(body)
    return path


def size_of(path_or_bytes) -> tuple:
    """(width, height) read by vipsheader."""
    data = path_or_bytes
    path = Path(f"/tmp/{uuid.uuid4()}.jpg")
    path.write_bytes(data)
    try:
        out = subprocess.run(["vipsheader", "-f", "width", str(path)], capture_output=True, text=True, check=True).stdout
        out2 = subprocess.run(["vipsheader", "-f", "height", str(path)], capture_output=True, text=True, check=True).stdout
        meta = subprocess.run(["vipsheader", "-a", str(path)], capture_output=True, text=True, check=True).stdout
        return int(out), int(out2), meta
    finally:
        path.unlink()


def multipart(files, fields=None):
    """(content type, body) of a multipart/form-data request."""
    boundary = f"saessak-{uuid.uuid4().hex}"
    parts = []
    for name, value in (fields or {}).items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for index, (filename, data) in enumerate(files):
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo{index}"; filename="{filename}"\r\n'
                     f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(parts)
