import Diary
import Foundation
import KoreanCalendar
import Secrets

/// `ChildStore` over either engine. The resident number is sealed with the field cipher before it reaches the
/// database and opened on the way out.
public struct SQLChildStore: ChildStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func list(family: FamilyID, after cursor: PageCursor?, limit: Int) async throws -> Page<Child> {
        let paging = KeysetPage(sortKey: "createdAt", descending: false, cursor: cursor, limit: limit)
        let cipher = database.cipher
        return try await database.read { db in
            let (rows, next) = try FamilyTable.children.page(db, family: family, paging: paging)
            return Page(items: try rows.map { try Self.decode($0, cipher: cipher) }, next: next)
        }
    }

    public func get(family: FamilyID, id: ChildID) async throws -> Child {
        let cipher = database.cipher
        return try await database.read { db in try Self.decode(try FamilyTable.children.row(db, family: family, id: id), cipher: cipher) }
    }

    public func create(family: FamilyID, profile: ChildProfile) async throws -> Child {
        let now = database.clock.now()
        let child = Child(familyID: family, profile: profile, createdAt: now, modifiedAt: now)
        let sealed = try Self.seal(profile.residentNumber, with: database.cipher)
        try await database.write { db in try Self.insert(db, child, sealed: sealed) }
        return child
    }

    /// `create` inside a transaction the caller holds (an import brings children with their entries), the resident
    /// number already sealed.
    public static func insert(_ db: any SQLSession, _ child: Child, sealed: Data?) throws {
        let profile = child.profile
        try db.execute(
            """
            INSERT INTO children (id, familyId, name, nickname, birthDate, birthCalendar, isLeapMonth, birthTime, sex,
                birthplace, hospital, residentNumberSealed, photoId, createdAt, modifiedAt)
            VALUES (\(child.id), \(child.familyID), \(profile.name), \(profile.nickname), \(profile.birthDate.iso),
                \(profile.birthDate.calendar.rawValue), \(profile.birthDate.isLeapMonth), \(profile.birthTime?.iso), \(profile.sex?.rawValue),
                \(profile.birthplace), \(profile.hospital), \(sealed), \(child.photoID), \(child.createdAt), \(child.modifiedAt))
            """)
    }

    public func update(family: FamilyID, id: ChildID, profile: ChildProfile) async throws -> Child {
        let now = database.clock.now()
        let cipher = database.cipher
        let sealed = try Self.seal(profile.residentNumber, with: cipher)
        return try await database.write { db in
            let changed = try db.execute(
                """
                UPDATE children SET name = \(profile.name), nickname = \(profile.nickname), birthDate = \(profile.birthDate.iso),
                    birthCalendar = \(profile.birthDate.calendar.rawValue), isLeapMonth = \(profile.birthDate.isLeapMonth),
                    birthTime = \(profile.birthTime?.iso), sex = \(profile.sex?.rawValue), birthplace = \(profile.birthplace),
                    hospital = \(profile.hospital), residentNumberSealed = \(sealed), modifiedAt = \(now)
                WHERE id = \(id) AND familyId = \(family)
                """)
            try FamilyTable.children.requireChanged(changed, id: id)
            return try Self.decode(try FamilyTable.children.row(db, family: family, id: id), cipher: cipher)
        }
    }

    public func delete(family: FamilyID, id: ChildID, by user: UserID?) async throws -> TrashItem {
        let deletion = Trashing.Deletion(family: family, user: user, at: database.clock.now())
        return try await database.write { db in try Trashing.child(db, id, deletion) }
    }

    public static func seal(_ number: ResidentNumber?, with cipher: FieldCipher) throws -> Data? {
        try number.map { try cipher.seal($0.formatted) }
    }

    static func decode(_ row: SQLRow, cipher: FieldCipher) throws -> Child {
        try readBack("child") {
            let birthDate = try BirthDate(
                iso: try row.string("birthDate"), calendar: CalendarKind(rawValue: try row.string("birthCalendar")) ?? .solar,
                isLeapMonth: try row.bool("isLeapMonth"))
            let profile = try ChildProfile(
                name: try row.string("name"), nickname: try row.optionalString("nickname"), birthDate: birthDate,
                birthTime: try row.optionalString("birthTime").map { try ClockTime(iso: $0) },
                sex: try row.optionalString("sex").flatMap(Sex.init(rawValue:)), birthplace: try row.optionalString("birthplace"),
                hospital: try row.optionalString("hospital"),
                residentNumber: try row.optionalData("residentNumberSealed").map { try ResidentNumber(try cipher.open($0)) })
            return Child(
                id: try row.id("id"), familyID: try row.id("familyId"), profile: profile, photoID: try row.optionalID("photoId"),
                createdAt: try row.timestamp("createdAt"), modifiedAt: try row.timestamp("modifiedAt"))
        }
    }
}
