import Diary
import Foundation

/// `ActivityStore` over either engine: the family's record of who did what, newest first.
public struct SQLActivityStore: ActivityStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func record(
        family: FamilyID, actor: UserID?, action: ActivityAction, kind: ActivityKind, subjectID: String?, label: String, detail: String
    ) async throws {
        let now = database.clock.now()
        try await database.write { db in
            try Self.record(db, family: family, actor: actor, at: now, action: action, kind: kind, subjectID: subjectID, label: label, detail: detail)
        }
    }

    /// A line written inside another write's transaction (a member taken out of the family with what they held).
    static func record(
        _ db: any SQLSession, family: FamilyID, actor: UserID?, at time: Date, action: ActivityAction, kind: ActivityKind,
        subjectID: String?, label: String, detail: String
    ) throws {
        try db.execute(
            """
            INSERT INTO activity (id, familyId, actorId, at, action, kind, subjectId, label, detail)
            VALUES (\(ActivityID()), \(family), \(actor), \(time), \(action.rawValue), \(kind.rawValue), \(subjectID),
                \(Activity.label(label)), \(detail))
            """)
    }

    public func list(family: FamilyID, filter: ActivityFilter, after cursor: PageCursor?, limit: Int) async throws -> Page<Activity> {
        var conditions: SQL = "activity.familyId = \(family)"
        if let actor = filter.actor { conditions += " AND activity.actorId = \(actor)" }
        if let kind = filter.kind { conditions += " AND activity.kind = \(kind.rawValue)" }
        if let month = filter.month {
            let (start, end) = month.interval
            conditions += " AND activity.at >= \(start) AND activity.at < \(end)"
        }
        if let cursor {
            guard let at = StoredTime.date(cursor.sortKey) else {
                throw ValidationError(field: "cursor", "is not a cursor this server gave out")
            }
            conditions += " AND (activity.at, activity.id) < (\(at), \(cursor.id))"
        }
        let fixed = conditions
        return try await database.read { db in
            var condition = fixed
            if let name = filter.actorName {
                condition += " AND activity.actorId IN (SELECT id FROM users WHERE \(db.dialect.equalsIgnoringCase("username", name)))"
            }
            let rows = try db.rows(
                """
                SELECT activity.*, users.username AS actorName FROM activity LEFT JOIN users ON users.id = activity.actorId
                WHERE \(condition) ORDER BY activity.at DESC, activity.id DESC LIMIT \(raw: String(limit + 1))
                """)
            let items = try rows.prefix(limit).map(Self.decode)
            let next = rows.count > limit ? items.last.map { PageCursor(sortKey: StoredTime.text($0.at), id: $0.id.description) } : nil
            return Page(items: items, next: next)
        }
    }

    public func sweep() async throws -> Int {
        let due = database.clock.now().addingTimeInterval(-Activity.keptFor)
        return try await database.write { db in try db.execute("DELETE FROM activity WHERE at < \(due)") }
    }

    static func decode(_ row: SQLRow) throws -> Activity {
        try readBack("activity") {
            guard let action = ActivityAction(rawValue: try row.string("action")), let kind = ActivityKind(rawValue: try row.string("kind")) else {
                throw StoreError.unreadable("activity: an action or kind this version does not know")
            }
            return Activity(
                id: try row.id("id"), familyID: try row.id("familyId"), actor: try row.optionalID("actorId"),
                actorName: try row.optionalString("actorName"), at: try row.timestamp("at"), action: action, kind: kind,
                subjectID: try row.optionalString("subjectId"), label: try row.string("label"), detail: try row.string("detail"))
        }
    }
}
