import Diary

/// What a backup holds, the same for every engine: the tables (parents before children), their columns
/// (`BackupCatalogue+Columns.swift`, generated from SQLite's schema), the sealed columns, and how one family's rows
/// are found.
public enum BackupCatalogue {
    /// The tables a backup holds, parents before children. Left out: sessions (a restored server signs everyone in
    /// again), the browsers users signed in from (`devices`: a restored server meets them as new) and the search index
    /// (rebuilt from the entries and memos).
    public static let tables = [
        "families", "users", "memberships", "apiTokens", "children", "entries", "entryChildren", "tags", "entryTags",
        "photos", "entryPhotos", "events", "eventPhotos", "anniversaries", "memos", "growthMeasurements", "vaccinations",
        "vaccinationChoices", "vaccinationSkips", "invitations", "shareLinks", "shareLinkEntries", "calendarFeeds",
        "importedItems", "comments", "hearts", "entryReads", "entryVersions", "entryVersionPhotos",
        "trashItems", "trashPhotos", "trashContents", "activity",
    ]

    /// The schema a backup names is SQLite's list of migrations, whichever engine wrote it: the names up to the one
    /// whose tables this version's backups hold (a PostgreSQL dump carries the same names, and restores into either).
    /// StoreTests check that SQLite's migrator has exactly these, in this order; a migration that changes a
    /// backed-up table adds its name here, with the PostgreSQL twin.
    public static let migrations = [
        "v1 foundation", "v2 photos", "v3 search", "v4 accounts", "v5 vaccinations", "v6 calendar feeds",
        "v7 event photos", "v8 imports", "v9 imported records", "v10 shared state", "v11 videos",
        "v12 idempotency keys", "v13 comments and hearts", "v14 authors and reads", "v15 mail", "v16 place regions",
        "v17 weather", "v18 page indexes", "v19 entry lists", "v20 trash and versions", "v21 activity",
        "v22 snapshot runs", "v23 book jobs", "v24 sign-in methods",
    ]

    /// The password hash of an account whose hash a family backup left out: it matches no password.
    public static let noPassword = "!"

    /// Columns holding values sealed with the field cipher: every field marked sensitive.
    public static let sealedColumns: [(table: String, column: String)] = [
        ("children", "residentNumberSealed"), ("trashItems", "residentNumberSealed"),
    ]

    /// Columns PostgreSQL keeps as `boolean` (SQLite and backups as 0 and 1), as `table.column`.
    public static let booleanColumns: Set<String> = [
        "families.weatherLookup", "families.strongSignIn", "memberships.mailReminders", "children.isLeapMonth", "anniversaries.isLeapMonth",
        "anniversaries.isHoliday", "calendarFeeds.includesHolidays",
    ]

    /// `residentNumberSealed` → `residentNumber`: the column a backup carries a sealed value in, as plain text.
    public static func plainColumn(_ sealed: String) -> String {
        sealed.hasSuffix("Sealed") ? String(sealed.dropLast("Sealed".count)) : sealed + "Plain"
    }

    /// The condition that keeps one family's rows of a table (everything without a family), for either engine: the
    /// family itself, its members' accounts, measurements through their children, and every row with its family.
    public static func scope(table: String, family: FamilyID?) throws -> SQL {
        guard let family else { return "" }
        switch table {
        case "families": return "WHERE id = \(family)"
        case "users": return "WHERE id IN (SELECT userId FROM memberships WHERE familyId = \(family))"
        case "growthMeasurements": return "WHERE childId IN (SELECT id FROM children WHERE familyId = \(family))"
        // A heart is its member's: one who left the family takes it along (their account is not in the backup).
        case "hearts", "entryReads": return "WHERE familyId = \(family) AND userId IN (SELECT userId FROM memberships WHERE familyId = \(family))"
        default:
            guard columns[table]?.contains("familyId") == true else {
                throw StoreError.conflict(field: table, message: "has no family to scope a backup by")
            }
            return "WHERE familyId = \(family)"
        }
    }
}
