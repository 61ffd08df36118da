import Diary
import Foundation

/// Where each `Grant` lives in the tables, and how it ends: written once for every path that changes who may give
/// what (a member removed or given a lesser role, signing out everywhere, a password reset), always inside that
/// path's transaction. A new kind of grant does not compile until it says how it ends here.
enum SQLGrants {
    /// Ends what `grantor` gave in `family` that `role` (nil: no longer a member) may not give.
    static func end(_ db: any SQLSession, family: FamilyID, grantor: UserID, keeping role: Role?, now: Date) throws {
        for grant in Grant.allCases where !grant.isHeld(by: role) {
            try end(grant, db, family: family, grantor: grantor, now: now)
        }
    }

    /// Ends, in every family, what `grantor` gave that acts as them or lets someone in (`Grant.endsWithSignIns`).
    static func endWithSignIns(_ db: any SQLSession, grantor: UserID, now: Date) throws {
        for grant in Grant.allCases where grant.endsWithSignIns {
            try end(grant, db, family: nil, grantor: grantor, now: now)
        }
    }

    private static func end(_ grant: Grant, _ db: any SQLSession, family: FamilyID?, grantor: UserID, now: Date) throws {
        let inFamily: SQL = family.map { " AND familyId = \($0)" } ?? ""
        switch grant {
        case .invitation:
            // An invitation already used made a membership, which the membership's own change governs.
            try db.execute("DELETE FROM invitations WHERE createdBy = \(grantor) AND acceptedAt IS NULL\(inFamily)")
        case .shareLink:
            try db.execute("DELETE FROM shareLinks WHERE createdBy = \(grantor)\(inFamily)")
        case .calendarFeed:
            try db.execute("DELETE FROM calendarFeeds WHERE createdBy = \(grantor)\(inFamily)")
        case .apiToken:
            try db.execute("DELETE FROM apiTokens WHERE userId = \(grantor)\(inFamily)")
        case .book:
            // A book being made stops at its next renewal; a finished one is no longer handed out, and the book
            // worker's sweep deletes it with its file (`BookJobStore.removeExpired`).
            try db.execute("DELETE FROM bookJobs WHERE requestedBy = \(grantor) AND status IN ('queued', 'running')\(inFamily)")
            try db.execute("UPDATE bookJobs SET expiresAt = \(now) WHERE requestedBy = \(grantor) AND status = 'ready'\(inFamily)")
        case .photoImport:
            // Its job is a file beside the staged upload, not a row: the job asks for its grantor's role before it
            // writes anything (`ImportJobs`), so a removed or demoted member's import stops there.
            break
        }
    }

    /// The condition (SQL starting with AND) that a link's grantor, in `grantorColumn` of `table`, still holds the right
    /// to give `grant` in the link's family: checked each time a link is used, beside the ending above.
    static func held(_ grant: Grant, table: String, grantorColumn: String = "createdBy") -> SQL {
        let roles = Role.allCases.filter { $0.includes(grant.grantedBy) }.map(\.rawValue)
        return """
             AND EXISTS (SELECT 1 FROM memberships AS grantor WHERE grantor.familyId = \(raw: table).familyId
                AND grantor.userId = \(raw: table).\(raw: grantorColumn) AND grantor.role IN \(list: roles))
            """
    }
}
