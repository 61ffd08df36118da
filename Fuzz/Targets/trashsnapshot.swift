// libFuzzer target: a trashed item's rows as a restore reads them back (`trashItems.snapshot`, which a backup from
// outside brings in) and puts them into a real diary: for each kind of item, the snapshot decoded and its rows
// written where that kind's parts say, inside a transaction that is then rolled back (Sources/Persistence/Trash).
@testable import DiaryStore
import Diary
import Foundation
import GRDB
@testable import Persistence

private let family = "0a000000-0000-4000-8000-000000000001"
private let child = "0a000000-0000-4000-8000-000000000002"
private let entry = "0a000000-0000-4000-8000-000000000003"

/// One diary for every input: a family with a child and an entry (what a photo or a comment comes back to).
private let database: DiaryDatabase? = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-fuzz-trash-\(getpid())")
    guard let database = try? DiaryDatabase(folder: folder) else { return nil }
    try? database.writer.write { db in
        try db.execute(sql: "INSERT INTO families (id, name, createdAt) VALUES (?, '우리집', '2026-01-01 00:00:00.000')", arguments: [family])
        try db.execute(
            sql: """
                INSERT INTO children (id, familyId, name, birthDate, birthCalendar, createdAt, modifiedAt)
                VALUES (?, ?, '하늘', '2025-03-01', 'solar', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                """, arguments: [child, family])
        try db.execute(
            sql: """
                INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, createdAt, modifiedAt)
                VALUES (?, ?, '첫 걸음', '', '2026-05-05T10:30', 'Asia/Seoul', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                """, arguments: [entry, family])
    }
    return database
}()

private struct RollBack: Error {}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrashSnapshot(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let database, let familyID = FamilyID(family) else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let row = SQLRow(columns: SQLColumns(["snapshot"]), values: [.text(text)])
    for kind in TrashKind.allCases {
        let item = TrashItem(
            id: TrashID(), familyID: familyID, kind: kind, itemID: "0a000000-0000-4000-8000-00000000000\(kind == .photo ? 4 : 5)",
            parent: kind == .photo || kind == .comment ? TrashParent(kind: .entry, id: entry) : nil, label: "", deletedBy: nil,
            deletedByName: nil, deletedAt: Date(timeIntervalSince1970: 0), photoIDs: [], shareLinks: 0)
        _ = try? database.writer.write { db in
            var leftOut: [String] = []
            _ = try? Trashing.restore(SQLiteSession(db: db), row, item: item, leftOut: &leftOut)
            throw RollBack()
        }
    }
    return 0
}
