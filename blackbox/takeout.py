"""Google Photos Takeouts made for the tests: what `saessak import photos` reads of one, written down as the generator.

The format, as Takeouts of 2019–2025 have it (and as import tools' issue trackers document it: immich-go #652 and
#677, ente #4953, PhotoPrism #2133, GooglePhotosTakeoutHelper #449):

- The export is split into ZIP parts of the size asked for (`takeout-20250101T000000Z-001.zip`, `-002.zip`, …). Each
  part holds `Takeout/Google Photos/<folder>/…`; one folder's files may be spread over several parts, a photo in one
  and its sidecar in the next.
- Folders: one per year, `Photos from 2021`, holding every photo; and one per album, named after it, holding a copy
  of the album's photos (the same bytes as in the year folder) and a `metadata.json` whose `title` is the album's name.
- Each photo has a JSON sidecar beside it: `IMG_0001.JPG.json` until 2024, `IMG_0001.JPG.supplemental-metadata.json`
  since. Its `photoTakenTime.timestamp` is the taken time in seconds since 1970 as a string (UTC: Takeout keeps no
  zone), `geoData` the place (0.0, 0.0 when there is none), `description` the caption typed in Google Photos.
- Long names are cut: the sidecar's whole name is kept to about 46–51 characters, so its photo's name inside it is
  cut short (`…_n.j.json` for `…_n.jpg`), and a cut `.supplemental-metadata` leaves any part of itself (`.supple`, `.s`).
- A second photo of the same name in a folder is `IMG_0003(1).JPG`, and its sidecar `IMG_0003.JPG(1).json`: the
  number moves to after the extension.
- An edited copy is `IMG_0004-edited.JPG` beside the original, with no sidecar of its own.
- A Live Photo is its still (`IMG_0005.HEIC`) and its clip (`IMG_0005.MP4`); only the still has a sidecar.
- Photos whose EXIF Google did not keep have only the sidecar's time; a photo without a sidecar has only its own.
"""
import json
import zipfile
from pathlib import Path

# Google's cut of a sidecar's name: this many characters, `.json` kept.
SIDECAR_LIMIT = 51


def sidecar_name(photo_name, style="supplemental", copy=None):
    """The name Takeout gives the sidecar of `photo_name` (`style` "old": `NAME.json`; "supplemental": the 2024 one),
    cut short as Takeout cuts it; `copy` is the number of a second photo of the same name (its `(1)`)."""
    stem = photo_name + (".supplemental-metadata" if style == "supplemental" else "")
    number = f"({copy})" if copy else ""
    whole = stem + number + ".json"
    if len(whole) > SIDECAR_LIMIT:
        stem = stem[:SIDECAR_LIMIT - len(number) - len(".json")]
    return stem + number + ".json"


def sidecar(taken_utc_seconds, latitude=0.0, longitude=0.0, description="", title="photo"):
    """A photo's sidecar as Takeout writes it."""
    return json.dumps({
        "title": title,
        "description": description,
        "imageViews": "3",
        "creationTime": {"timestamp": str(taken_utc_seconds + 3600), "formatted": "…"},
        "photoTakenTime": {"timestamp": str(taken_utc_seconds), "formatted": "…"},
        "geoData": {"latitude": latitude, "longitude": longitude, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
        "geoDataExif": {"latitude": latitude, "longitude": longitude, "altitude": 0.0, "latitudeSpan": 0.0, "longitudeSpan": 0.0},
        "url": "https://photos.google.com/photo/AF1Qip",
        "googlePhotosOrigin": {"mobileUpload": {"deviceType": "ANDROID_PHONE"}},
    }, ensure_ascii=False, indent=2)


def album_metadata(title):
    """An album folder's `metadata.json`."""
    return json.dumps({"title": title, "description": "", "access": "protected",
                       "date": {"timestamp": "1620000000", "formatted": "…"}}, ensure_ascii=False)


def write_parts(folder: Path, parts):
    """Writes each part (a dict of path inside `Takeout/Google Photos/` → bytes or text, or (bytes, the member's
    date and time as the ZIP records it)) as `takeout-20250101T000000Z-00N.zip`; returns their paths."""
    paths = []
    for number, files in enumerate(parts, start=1):
        path = Path(folder) / f"takeout-20250101T000000Z-{number:03d}.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, content in files.items():
                when = (2025, 1, 1, 0, 0, 0)
                if isinstance(content, tuple):
                    content, when = content
                info = zipfile.ZipInfo("Takeout/Google Photos/" + name, date_time=when)
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, content.encode() if isinstance(content, str) else content)
        paths.append(path)
    return paths
