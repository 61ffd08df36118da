import Diary
import Foundation
import GRDB
import KoreanCalendar
import Persistence

/// `ChildStore` over the SQLite database (`DiaryDatabase`).
public struct SQLiteChildStore: ChildStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Child> {
        let paging = KeysetPage(sortKey: "createdAt", descending: false, cursor: cursor, limit: limit)
        return try await database.writer.read { db in
            let (rows, next) = try FamilyTable.children.page(db, family: family, paging: paging)
            return Page(items: try rows.map(decodeChild), next: next)
        }
    }

    public func get(family: FamilyID, id: ChildID) async throws -> Child {
        try await database.writer.read { db in try fetch(db, family: family, id: id) }
    }

    public func create(family: FamilyID, profile: ChildProfile) async throws -> Child {
        let now = database.clock.now()
        let child = Child(familyID: family, profile: profile, createdAt: now, modifiedAt: now)
        try await database.writer.write { db in try insert(db, child) }
        return child
    }

    /// `create` inside a transaction the caller holds (an import brings children with their entries).
    func insert(_ db: Database, _ child: Child) throws {
        let sealed = try seal(child.profile.residentNumber)
        try db.execute(
            sql: """
                INSERT INTO children (id, familyId, name, nickname, birthDate, birthCalendar, isLeapMonth, birthTime, sex,
                    birthplace, hospital, residentNumberSealed, photoId, createdAt, modifiedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [child.id.sql, child.familyID.sql] + profileArguments(child.profile, sealed)
                + [child.photoID?.sql, child.createdAt.stored, child.modifiedAt.stored])
    }

    public func update(family: FamilyID, id: ChildID, profile: ChildProfile) async throws -> Child {
        let now = database.clock.now()
        let sealed = try seal(profile.residentNumber)
        return try await database.writer.write { db in
            try db.execute(
                sql: """
                    UPDATE children SET name = ?, nickname = ?, birthDate = ?, birthCalendar = ?, isLeapMonth = ?,
                        birthTime = ?, sex = ?, birthplace = ?, hospital = ?, residentNumberSealed = ?, modifiedAt = ?
                    WHERE id = ? AND familyId = ?
                    """,
                arguments: profileArguments(profile, sealed) + [now.stored, id.sql, family.sql])
            try FamilyTable.children.requireChanged(db, id: id)
            return try fetch(db, family: family, id: id)
        }
    }

    /// Deletes the child and what belongs only to the child: entries about no other child (with their photos),
    /// events (with theirs), the child's anniversaries, measurements and profile photo. Entries shared with a sibling stay, without
    /// this child. Returns the photo files whose last row went.
    @discardableResult
    public func delete(family: FamilyID, id: ChildID) async throws -> [ReleasedPhotoFile] {
        try await database.writer.write { db in
            let child = try FamilyTable.children.row(db, family: family, id: id)
            let onlyThisChild = """
                SELECT entryId FROM entryChildren WHERE childId = ?1
                EXCEPT SELECT entryId FROM entryChildren WHERE childId <> ?1
                """
            var photos = try String.fetchAll(
                db, sql: "SELECT photoId FROM entryPhotos WHERE entryId IN (\(onlyThisChild))", arguments: [id.sql])
            if let profile: String = try child.decode(forColumn: "photoId") { photos.append(profile) }
            photos += try String.fetchAll(
                db, sql: "SELECT photoId FROM eventPhotos JOIN events ON events.id = eventPhotos.eventId WHERE events.childId = ?",
                arguments: [id.sql])
            try db.execute(sql: "DELETE FROM entries WHERE familyId = ?2 AND id IN (\(onlyThisChild))", arguments: [id.sql, family.sql])
            try FamilyTable.children.delete(db, family: family, id: id)
            try SQLiteEntryStore.deleteUnusedTags(db, family: family)
            return try SQLPhotoStore.deleteUnreferenced(SQLiteSession(db: db), candidates: photos)
        }
    }

    /// Which of `ids` are not children of the family (for a clear error naming them).
    static func missing(_ ids: [ChildID], family: FamilyID, in db: Database) throws -> [ChildID] {
        guard !ids.isEmpty else { return [] }
        let found = try Set(
            String.fetchAll(
                db, sql: "SELECT id FROM children WHERE familyId = ? AND id IN (\(databaseQuestionMarks(count: ids.count)))",
                arguments: StatementArguments([family.sql] + ids.map(\.sql))))
        return ids.filter { !found.contains($0.sql) }
    }

    private func fetch(_ db: Database, family: FamilyID, id: ChildID) throws -> Child {
        try decodeChild(try FamilyTable.children.row(db, family: family, id: id))
    }

    private func seal(_ number: ResidentNumber?) throws -> Data? {
        try number.map { try database.cipher.seal($0.formatted) }
    }

    private func profileArguments(_ profile: ChildProfile, _ sealed: Data?) -> StatementArguments {
        [
            profile.name, profile.nickname, profile.birthDate.iso, profile.birthDate.calendar.rawValue,
            profile.birthDate.isLeapMonth, profile.birthTime?.iso, profile.sex?.rawValue, profile.birthplace,
            profile.hospital, sealed,
        ]
    }

    private func decodeChild(_ row: Row) throws -> Child {
        try readBack("child") {
            let calendar = CalendarKind(rawValue: try row.decode(forColumn: "birthCalendar")) ?? .solar
            let birthDate = try BirthDate(
                iso: try row.decode(forColumn: "birthDate"), calendar: calendar, isLeapMonth: try row.decode(forColumn: "isLeapMonth"))
            let sealed: Data? = try row.decode(forColumn: "residentNumberSealed")
            let profile = try ChildProfile(
                name: try row.decode(forColumn: "name"),
                nickname: try row.decode(forColumn: "nickname"),
                birthDate: birthDate,
                birthTime: try (row.decode(String?.self, forColumn: "birthTime")).map { try ClockTime(iso: $0) },
                sex: (try row.decode(String?.self, forColumn: "sex")).flatMap(Sex.init(rawValue:)),
                birthplace: try row.decode(forColumn: "birthplace"),
                hospital: try row.decode(forColumn: "hospital"),
                residentNumber: try sealed.map { try ResidentNumber(try database.cipher.open($0)) })
            return Child(
                id: try row.id("id"), familyID: try row.id("familyId"), profile: profile, photoID: try row.optionalID("photoId"),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
