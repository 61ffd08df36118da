"""Builds Day One JSON exports (a ZIP of journal JSON files, photos/<md5>.<type> and videos/<md5>.<type>) for the
importer's tests and the import benchmark."""
import hashlib
import json
import zipfile


def entry(uuid, created, text, time_zone="Asia/Seoul", photos=(), videos=(), **fields):
    """One entry; `photos` and `videos` are (identifier, bytes, type) and are referenced from the text as Day One does
    (`dayone-moment://ID` for a photo, `dayone-moment:/video/ID` for a clip)."""
    def refs(items):
        return [{"identifier": identifier, "md5": hashlib.md5(data).hexdigest(), "type": kind, "orderInEntry": order}
                for order, (identifier, data, kind) in enumerate(items)]
    text = text + "".join(f"\n![](dayone-moment://{identifier})" for identifier, _, _ in photos)
    text = text + "".join(f"\n![](dayone-moment:/video/{identifier})" for identifier, _, _ in videos)
    files = {f"photos/{hashlib.md5(data).hexdigest()}.{kind}": data for _, data, kind in photos}
    files.update({f"videos/{hashlib.md5(data).hexdigest()}.{kind}": data for _, data, kind in videos})
    extra = {"videos": refs(videos)} if videos else {}
    return {"uuid": uuid, "creationDate": created, "modifiedDate": created, "timeZone": time_zone, "text": text,
            "photos": refs(photos), **extra, **fields}, files


def export(path, journals):
    """journals: {"Journal.json": [(entry, files), …]}"""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, entries in journals.items():
            archive.writestr(name, json.dumps({"metadata": {"version": "1.0"}, "entries": [e for e, _ in entries]}, ensure_ascii=False))
            for _, files in entries:
                for file_name, data in files.items():
                    if file_name not in archive.namelist():
                        archive.writestr(file_name, data, compress_type=zipfile.ZIP_STORED)
    return path
