/// Something a member gives that acts on the family without them: a link, a credential, a job. Each names its grantor
/// and lives only while the grantor keeps the right to give it (issue 66: an owner removed from the family came back
/// through the owner invitation they had made). Removing a member ends all of theirs; lowering their role ends those
/// the new role may not give; both in the transaction that changes the membership, and the links are checked against
/// their grantor's membership again each time they are used.
public enum Grant: String, CaseIterable, Sendable {
    /// An invitation to join with a role (owners give them, up to their own role).
    case invitation
    /// A read-only link to chosen entries (owners and editors).
    case shareLink
    /// A calendar app's subscription to the family's dates (any member).
    case calendarFeed
    /// An API token acting as its member, at most with their current role (any member).
    case apiToken
    /// A book or archive being made or waiting for download (owners and editors).
    case book
    /// An import of photos confirmed on 가져오기, running in the background (owners and editors).
    case photoImport

    /// The least role that may give it: it ends when its grantor's role falls below.
    public var grantedBy: Role {
        switch self {
        case .invitation: .owner
        case .shareLink, .book, .photoImport: .editor
        case .calendarFeed, .apiToken: .viewer
        }
    }

    /// Whether it ends when its grantor signs out everywhere or has their password reset: what acts as the member
    /// (tokens and feeds) or lets someone else in as one (invitations not yet used), since a stolen session may have
    /// made them. Share links, books and imports are the family's: a share link is offered for ending on the
    /// settings page instead.
    public var endsWithSignIns: Bool {
        switch self {
        case .invitation, .calendarFeed, .apiToken: true
        case .shareLink, .book, .photoImport: false
        }
    }

    /// Whether a member with `role` (nil: no longer a member) keeps the right to give it.
    public func isHeld(by role: Role?) -> Bool { role?.includes(grantedBy) ?? false }
}
