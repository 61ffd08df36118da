import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Persistence

/// `ChildStore` over PostgreSQL. The resident number is sealed with the field cipher before it reaches the database.
public struct PostgresChildStore: ChildStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Child> {
        let paging = PostgresKeysetPage(sortKey: "createdAt", descending: false, cursor: cursor, limit: limit)
        let (rows, next) = try await database.readAsync { db in try await PostgresFamilyTable.children.page(db, family: family, paging: paging) }
        return Page(items: try rows.map(decodeChild), next: next)
    }

    public func get(family: FamilyID, id: ChildID) async throws -> Child {
        try decodeChild(try await database.readAsync { db in try await PostgresFamilyTable.children.row(db, family: family, id: id) })
    }

    public func create(family: FamilyID, profile: ChildProfile) async throws -> Child {
        let now = database.clock.now()
        let child = Child(familyID: family, profile: profile, createdAt: now, modifiedAt: now)
        let sealed = try seal(profile.residentNumber)
        try await database.writeAsync { db in try await Self.insert(db, child, sealed: sealed) }
        return child
    }

    /// `create` inside a transaction the caller holds (an import brings children with their entries).
    static func insert(_ db: PostgresTransaction, _ child: Child, sealed: Data?) async throws {
        try await db.execute(
            """
            INSERT INTO children (id, familyId, name, nickname, birthDate, birthCalendar, isLeapMonth, birthTime, sex,
                birthplace, hospital, residentNumberSealed, photoId, createdAt, modifiedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [child.id.sql, child.familyID.sql] + profileArguments(child.profile, sealed)
                + [child.photoID?.sql, child.createdAt.stored, child.modifiedAt.stored])
    }

    public func update(family: FamilyID, id: ChildID, profile: ChildProfile) async throws -> Child {
        let now = database.clock.now()
        let sealed = try seal(profile.residentNumber)
        let row = try await database.writeAsync { db in
            let changed = try await db.execute(
                """
                UPDATE children SET name = ?, nickname = ?, birthDate = ?, birthCalendar = ?, isLeapMonth = ?,
                    birthTime = ?, sex = ?, birthplace = ?, hospital = ?, residentNumberSealed = ?, modifiedAt = ?
                WHERE id = ? AND familyId = ? RETURNING 1
                """,
                Self.profileArguments(profile, sealed) + [now.stored, id.sql, family.sql])
            guard changed == 1 else { throw PostgresFamilyTable.children.notFound(id) }
            return try await PostgresFamilyTable.children.row(db, family: family, id: id)
        }
        return try decodeChild(row)
    }

    /// As `SQLiteChildStore.delete`: the child, entries about no other child (with their photos), events, anniversaries,
    /// measurements and the profile photo; entries shared with a sibling stay, without this child.
    @discardableResult
    public func delete(family: FamilyID, id: ChildID) async throws -> [ReleasedPhotoFile] {
        try await database.writeAsync { db in
            let child = try await PostgresFamilyTable.children.row(db, family: family, id: id)
            let onlyThisChild = """
                SELECT entryId FROM entryChildren WHERE childId = ?
                EXCEPT SELECT entryId FROM entryChildren WHERE childId <> ?
                """
            var photos = try await db.strings(
                "SELECT photoId FROM entryPhotos WHERE entryId IN (\(onlyThisChild))", [id.sql, id.sql])
            if let profile = try child.optionalString("photoId") { photos.append(profile) }
            photos += try await db.strings(
                "SELECT photoId FROM eventPhotos JOIN events ON events.id = eventPhotos.eventId WHERE events.childId = ?", [id.sql])
            try await db.execute("DELETE FROM entries WHERE familyId = ? AND id IN (\(onlyThisChild))", [family.sql, id.sql, id.sql])
            try await PostgresFamilyTable.children.delete(db, family: family, id: id)
            try await PostgresEntryStore.deleteUnusedTags(db, family: family)
            return try await db.session { [photos] in try SQLPhotoStore.deleteUnreferenced($0, candidates: photos) }
        }
    }

    /// Which of `ids` are not children of the family (for a clear error naming them).
    static func missing(_ ids: [ChildID], family: FamilyID, in db: PostgresTransaction) async throws -> [ChildID] {
        guard !ids.isEmpty else { return [] }
        let found = Set(try await db.strings("SELECT id FROM children WHERE familyId = ? AND id = ANY(?)", [family.sql, ids.map(\.sql)]))
        return ids.filter { !found.contains($0.sql) }
    }

    private func seal(_ number: ResidentNumber?) throws -> Data? {
        try number.map { try database.cipher.seal($0.formatted) }
    }

    private static func profileArguments(_ profile: ChildProfile, _ sealed: Data?) -> [SQLArgument] {
        [
            profile.name, profile.nickname, profile.birthDate.iso, profile.birthDate.calendar.rawValue,
            profile.birthDate.isLeapMonth, profile.birthTime?.iso, profile.sex?.rawValue, profile.birthplace,
            profile.hospital, sealed,
        ]
    }

    private func decodeChild(_ row: PostgresRecord) throws -> Child {
        try readBack("child") {
            let calendar = CalendarKind(rawValue: try row.string("birthCalendar")) ?? .solar
            let birthDate = try BirthDate(iso: try row.string("birthDate"), calendar: calendar, isLeapMonth: try row.bool("isLeapMonth"))
            let sealed = try row.optionalData("residentNumberSealed")
            let profile = try ChildProfile(
                name: try row.string("name"),
                nickname: try row.optionalString("nickname"),
                birthDate: birthDate,
                birthTime: try row.optionalString("birthTime").map { try ClockTime(iso: $0) },
                sex: try row.optionalString("sex").flatMap(Sex.init(rawValue:)),
                birthplace: try row.optionalString("birthplace"),
                hospital: try row.optionalString("hospital"),
                residentNumber: try sealed.map { try ResidentNumber(try database.cipher.open($0)) })
            return Child(
                id: try row.id("id"), familyID: try row.id("familyId"), profile: profile, photoID: try row.optionalID("photoId"),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
