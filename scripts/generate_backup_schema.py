#!/usr/bin/env python3
"""Writes docs/backup-schema.json: the JSON Schema of a Saessak backup's manifest.json and data/<table>.json files.

Run after a migration changes a backed-up table:
    python3 scripts/generate_backup_schema.py .build/debug/saessak > docs/backup-schema.json
It makes a fresh data folder with the given binary and reads each table's columns (PRAGMA table_info); a test
(blackbox/test_backup.py) validates every file of a real backup against the result, so the two cannot drift apart.
"""
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

# The tables a backup holds, as BackupCatalogue lists them (one list, read from the Swift source).
_catalogue = (Path(__file__).resolve().parent.parent / "Sources/Persistence/Backup/BackupCatalogue.swift").read_text()
TABLES = re.findall(r'"(\w+)"', re.search(r"public static let tables = \[(.*?)\]", _catalogue, re.S).group(1))
# What a table or column means, where its name does not say it (kept here so that regenerating keeps it).
TABLE_NOTES = {
    "comments": "Comments on an entry or one photo (exactly one of entryId and photoId is set).",
    "hearts": "One member's heart on an entry or one photo.",
    "entryReads": "Which member has opened which entry (what is new to them is the rest).",
    "trashItems": "What the family deleted, until it is restored or purged (docs/trash.md): each item with its rows as "
                  "they were.",
    "trashPhotos": "The photos a trashed item holds: their files stay until it is purged.",
    "entryVersions": "What an entry said before each edit (content: JSON of its title, body, date, time zone, children, "
                     "tags, place and weather), the newest 50 and every one younger than a year.",
    "entryVersionPhotos": "The photos each earlier version showed, in order: their files stay while a version holds them.",
    "activity": "The family's record of who did what (docs/trash.md), kept a year: who (actorId), when, the action and kind, "
                "the subject's id, a few words to know it by (label) and the program's words for the rest (detail). Never "
                "a password, a token or a resident number.",
    "trashContents": "What a trashed item holds, by kind and id (itself, and a child's entries, visits and anniversaries).",
}
COLUMN_NOTES = {
    ("entries", "authorId"): "who wrote the entry; null for imports, older entries, a deleted account or (a family backup) a "
                             "member no longer in the family",
    ("entries", "placeRegion"): "the Korean place the coordinates lie in (시도 시군구 읍면동), written with the entry from the "
                                "bundled place data; search finds the entry by it",
    ("photos", "durationMs"): "a video clip's length; null for a photo",
    ("photos", "videoCodec"): "a clip's video codec, as ffmpeg names it (h264, hevc, vp9); null for a photo",
    ("photos", "audioCodec"): "a clip's audio codec (aac, opus); null for a silent clip or a photo",
    ("photos", "rendition"): "whether a clip needs a web rendition (pending) or plays as it is (none); renditions are not in "
                             "backups and are made again after a restore",
    ("comments", "authorId"): "null once the author's account is gone, or (a family backup) when the author is no longer in "
                              "the family",
    ("families", "weatherLookup"): "whether new entries get the day's weather from the archive (docs/place.md); the answers "
                                   "kept are not backed up",
    ("memberships", "mailAddress"): "where the member's e-mail goes (null: none); the outbox itself is not backed up",
    ("memberships", "mailDigest"): "off, daily or weekly",
    ("memberships", "mailReminders"): "reminders a few days before milestones, birthdays, anniversaries and vaccinations",
    ("memberships", "mailLanguage"): "ko or en: the language of the member's mail",
    ("memberships", "mailSince"): "where the member's next digest starts (null: when they joined)",
    ("families", "trashDays"): "how many days the trash keeps what is deleted (7-365)",
    ("families", "strongSignIn"): "1: the family's owners and editors must sign in with a passkey or a password and the second step",
    ("trashItems", "kind"): "entry, photo (taken off an entry), memo, comment, child, event, anniversary, measurement or "
                            "vaccination",
    ("trashItems", "itemId"): "the id the item had and gets back",
    ("trashItems", "parentKind"): "what the item belonged to (a photo's or comment's entry), which must be back first",
    ("trashItems", "deletedBy"): "the member who deleted it; null when the command line did, or (a family backup) a "
                                 "member no longer in the family",
    ("trashItems", "shareLinks"): "how many share links showed the item (they do not show it again)",
    ("trashItems", "snapshot"): "JSON: the rows that went with the item, table by table, as this backup's data files "
                                "hold rows, and an entry's tags by name",
}
SEALED = {("children", "residentNumberSealed"): "residentNumber", ("trashItems", "residentNumberSealed"): "residentNumber"}
LEFT_OUT = {("photos", "thumbnails")}
BLOB = {"type": "object", "additionalProperties": False, "required": ["base64"],
        "properties": {"base64": {"type": "string", "contentEncoding": "base64"}}}


def column_schema(declared):
    declared = declared.upper()
    if "INT" in declared or declared == "BOOLEAN":
        return {"type": "integer"}
    if "REAL" in declared or "DOUBLE" in declared or "FLOA" in declared:
        return {"type": "number"}
    if "BLOB" in declared:
        return BLOB
    return {"type": "string"}


def main(binary):
    folder = Path(tempfile.mkdtemp()) / "data"
    subprocess.run([binary, "admin", "create-user", "--data", str(folder), "--username", "schema", "--password-stdin"],
                   input="a long password\n", text=True, check=True, capture_output=True)
    database = sqlite3.connect(folder / "saessak.sqlite")
    tables = {}
    for table in TABLES:
        properties, required = {}, []
        for _, name, declared, not_null, _, _ in database.execute(f"PRAGMA table_info({table})"):
            if (table, name) in LEFT_OUT:
                continue
            if (table, name) in SEALED:
                properties[SEALED[(table, name)]] = {
                    "type": "string", "description": "Only in a backup made with --include-sensitive, as plain text."}
                continue
            schema = column_schema(declared)
            properties[name] = schema if not_null else {"anyOf": [schema, {"type": "null"}]}
            if (table, name) in COLUMN_NOTES:
                properties[name] = {**properties[name], "description": COLUMN_NOTES[(table, name)]}
            if not_null:
                required.append(name)
        tables[table] = {"type": "array", **({"description": TABLE_NOTES[table]} if table in TABLE_NOTES else {}), "items": {
            "type": "object", "additionalProperties": False, "required": required, "properties": properties}}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Saessak backup, format version 1",
        "description": "manifest.json and data/<table>.json of a Saessak backup ZIP (docs/backup.md). Generated by "
                       "scripts/generate_backup_schema.py from the schema; dates are the database's text forms.",
        "$defs": {
            "manifest": {
                "type": "object", "additionalProperties": False,
                "required": ["format", "version", "app", "schema", "createdAt", "includesSensitive", "counts", "files"],
                "properties": {
                    "format": {"const": "saessak-backup"},
                    "version": {"const": 1},
                    "app": {"type": "string"},
                    "schema": {"type": "array", "items": {"type": "string"},
                               "description": "The database migrations, oldest first; a backup restores into the same."},
                    "createdAt": {"type": "string", "format": "date-time"},
                    "includesSensitive": {"type": "boolean"},
                    "family": {"type": "string", "description": "Only in a family backup: the ID of the one family it holds."},
                    "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
                    "files": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
                              "description": "Every other file of the archive → the SHA-256 of its bytes."},
                },
            },
            "tables": {"type": "object", "properties": tables},
        },
    }
    json.dump(schema, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
