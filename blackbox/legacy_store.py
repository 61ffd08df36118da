"""Builds the legacy iPhotoDiary app's Core Data stores (../shared/spec/legacy-iphotodiary.md) for the importer's
tests: the oldest model exactly as the app shipped it, and the last (2.1) with every attribute the spec lists."""
import plistlib
import sqlite3
from datetime import datetime, timedelta, timezone

KST = timezone(timedelta(hours=9))
APPLE_EPOCH = datetime(2001, 1, 1, tzinfo=timezone.utc)

OLDEST = {
    "ANNIVERSARYDATA": "ZALARMSETTING INTEGER, ZHOLIDAYFLAG INTEGER, ZANNIVERSARYDATE TIMESTAMP, ZANNIVERSARYTYPE DECIMAL, ZANNIVERSARYNAME VARCHAR",
    "CHILDDATA": "ZHEIGHT INTEGER, ZGENDER INTEGER, ZWEIGHT INTEGER, ZIMAGE INTEGER, ZBIRTHDAY TIMESTAMP, ZHOSPITAL VARCHAR, ZLOCATION VARCHAR, ZCHILDNAME VARCHAR, ZDOCTOR VARCHAR, ZIDNUM VARCHAR, ZNICKNAME VARCHAR, ZTHUMBNAILIMAGE BLOB",
    "DIARYDATA": "ZCHILD INTEGER, ZWRITEDATE TIMESTAMP, ZTAG VARCHAR, ZCONTENT VARCHAR, ZTHUMBNAILIMAGE BLOB",
    "DIARYIMAGE": "ZDIARY INTEGER, ZIMAGE BLOB",
    "EVENTDATA": "ZCHILD INTEGER, ZEVENTDATE TIMESTAMP, ZEVENTTYPE DECIMAL, ZEVENTMEMO VARCHAR, ZEVENTNAME VARCHAR",
    "IMAGE": "ZCHILDDATA INTEGER, ZIMAGE BLOB",
}

LAST = {
    "ANNIVERSARYDATA": OLDEST["ANNIVERSARYDATA"],
    "CHILDDATA": "ZCHILDNAME VARCHAR, ZNICKNAME VARCHAR, ZBIRTHDAY TIMESTAMP, ZISLUNAR INTEGER, ZBIRTHDAYSOLAR VARCHAR, ZBIRTHDAYLUNAR VARCHAR, ZGENDER INTEGER, ZHEIGHT FLOAT, ZWEIGHT FLOAT, ZIDNUM VARCHAR, ZLOCATION VARCHAR, ZHOSPITAL VARCHAR, ZDOCTOR VARCHAR, ZTHUMBNAILIMAGE BLOB",
    "IMAGE": "ZCHILDDATA INTEGER, ZIMAGE BLOB",
    "DIARYDATA": "ZCHILD INTEGER, ZTAG VARCHAR, ZSUBJECT VARCHAR, ZCONTENT VARCHAR, ZWRITEDATE TIMESTAMP, ZSECTIONDATE VARCHAR, ZCONDITIONDATE VARCHAR, ZCHILDNAME VARCHAR, ZLATITUDE FLOAT, ZLONGITUDE FLOAT, ZREVERSEADDR VARCHAR, ZWEATHERDESC VARCHAR, ZWEATHERICON VARCHAR, ZTHUMBNAILIMAGE BLOB",
    "DIARYIMAGE": "ZDIARY INTEGER, ZIMAGE BLOB, ZLATITUDE VARCHAR, ZLONGITUDE VARCHAR",
    "EVENTDATA": "ZCHILD INTEGER, ZEVENTNAME VARCHAR, ZEVENTMEMO VARCHAR, ZEVENTDATE TIMESTAMP, ZCONDITIONDATE VARCHAR, ZSECTIONDATE VARCHAR, ZCHILDNAME VARCHAR, ZEVENTTYPE DECIMAL, ZSTARTDATE TIMESTAMP, ZENDDATE TIMESTAMP, ZLOCATION VARCHAR, ZMYSTATE VARCHAR, ZNOTIFYMETHOD VARCHAR, ZNOTIFYTIME VARCHAR, ZPUBLICITY VARCHAR, ZREPEATRATE VARCHAR, ZGOOGLECALENDAR VARCHAR",
    "VACCINATIONDATA": "ZCHILD INTEGER, ZCHILDNAME VARCHAR, ZVACCINDESCIPRTION VARCHAR, ZCOMPLETEDATE TIMESTAMP, ZVACCINATIONLOC VARCHAR, ZVACCINATIONCOUNT INTEGER, ZVACCINATIONDATE TIMESTAMP, ZVACCINNAME VARCHAR",
    "TREATMENTDATA": "ZCHILD INTEGER, ZHOSPITALIMAGE INTEGER, ZTREATMENTRESULT VARCHAR, ZTREATMENTSUBJECT VARCHAR, ZCHILDNAME VARCHAR, ZHOSPITALNAME VARCHAR, ZTREATMENTCOUNT INTEGER, ZDOCTORNAME VARCHAR, ZHOSPITALADDRESS VARCHAR, ZTREATMENTDATE TIMESTAMP, ZDRUGSTORE VARCHAR, ZHOSPITALTEL VARCHAR, ZPRESCRIPTION VARCHAR",
    "HOSPITALIMAGE": "ZTREATMENT INTEGER, ZIMAGE BLOB",
    "PRESCRIPTIONIMAGE": "ZTREATMENT INTEGER, ZIMAGE BLOB",
}


def stamp(year, month, day, hour=0, minute=0):
    """A Core Data TIMESTAMP for a Korean wall-clock time: seconds since 2001-01-01 UTC."""
    return (datetime(year, month, day, hour, minute, tzinfo=KST) - APPLE_EPOCH).total_seconds()


class Store:
    """A Core Data SQLite store with the given entities; `add` inserts a row and returns its Z_PK."""

    def __init__(self, path, entities, uuid="8C3C5A1E-0000-4000-8000-000000000001"):
        self.db = sqlite3.connect(path)
        self.entities = list(entities)
        self.pk = {}
        for number, (entity, columns) in enumerate(entities.items(), start=1):
            self.db.execute(f"CREATE TABLE Z{entity} (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, {columns})")
        self.db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        self.db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        self.db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (uuid, plistlib.dumps({"NSStoreType": "SQLite"}, fmt=plistlib.FMT_BINARY)))

    def add(self, entity, pk=None, **values):
        ent = self.entities.index(entity) + 1
        pk = pk or self.pk.get(entity, 0) + 1
        self.pk[entity] = max(pk, self.pk.get(entity, 0))
        columns = ["Z_PK", "Z_ENT", "Z_OPT"] + [f"Z{name.upper()}" for name in values]
        self.db.execute(
            f"INSERT INTO Z{entity} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [pk, ent, 1, *values.values()])
        return pk

    def close(self):
        for number, entity in enumerate(self.entities, start=1):
            name = "".join(part.capitalize() for part in entity.lower().split("data")) + ("Data" if entity.endswith("DATA") else "")
            self.db.execute("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)", (number, name, self.pk.get(entity, 0)))
        self.db.commit()
        self.db.close()


def ann_data(path, entries):
    """AnnData.plist: {"M. D.": {name: {date, name, lunar, holy}}} with the empty "AnnData" sentinel."""
    root = {"AnnData": {}}
    for date, name, lunar, holy in entries:
        root.setdefault(date, {})[name] = {"date": date, "name": name, "lunar": lunar, "holy": holy}
    path.write_bytes(plistlib.dumps(root, fmt=plistlib.FMT_XML))
    return path
