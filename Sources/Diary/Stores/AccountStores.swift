import Foundation
import KoreanCalendar

// Accounts, sessions, and what a family shares with others. Each is implemented for SQLite by `SQLite…Store` (DiaryStore);
// everything else — routes, pages, services, backup, importers — speaks only these protocols and domain types.

/// Families, users, memberships and API tokens.
public protocol AccountStore: Sendable {
    /// Creates a user with a new family they own, in one transaction: either both exist afterwards or neither. With
    /// `passkey`, the user's passkey is stored in the same transaction (the first owner made with a passkey).
    func createUser(username: String, passwordHash: String, familyName: String, passkey: NewPasskey?) async throws -> (User, Family)

    /// Whether anybody can sign in yet (a fresh data folder offers the owner's setup link until then).
    func hasUsers() async throws -> Bool

    /// The user and stored password hash for a username (compared without regard to case), or nil.
    func credentials(username: String) async throws -> (user: UserID, passwordHash: String)?

    func passwordHash(of user: UserID) async throws -> String

    func setPasswordHash(_ hash: String, of user: UserID) async throws

    /// Signs a user out everywhere, API tokens included: every session, every token and every calendar feed of theirs
    /// (a feed's secret URL outlived a stolen session, issue 33), in every family, ends at once. With `passwordHash`,
    /// sets it in the same transaction (a password reset).
    func signOutEverywhere(_ user: UserID, passwordHash: String?) async throws

    /// The user of a name (the command line's password reset).
    func user(named username: String) async throws -> UserID

    /// The user's name and families with their role in each, oldest membership first.
    func account(_ user: UserID) async throws -> (username: String, families: [(family: Family, role: Role)])

    /// The members of a family and their roles, owners first, then by name.
    func members(family: FamilyID) async throws -> [(username: String, role: Role)]

    func addMember(username: String, familyName: String, role: Role) async throws -> Bool

    /// Changes a member's role (never the family's last owner to less); returns the role they had. Recorded in the
    /// family's activity as done `by` the member asking, in the same transaction.
    func setRole(family: FamilyID, username: String, role: Role, by actor: UserID?) async throws -> Role

    /// Takes a member out of the family (never its last owner): their sessions stop acting for it, and their tokens
    /// and calendar feeds of the family end at once. What they wrote stays the family's. Recorded like `setRole`.
    func removeMember(family: FamilyID, username: String, by actor: UserID?) async throws

    /// Issues an API token acting for `username` in a family they belong to, limited to `role` when given.
    /// Returns the token (shown once).
    /// - Parameter familyName: nil picks the user's only family.
    func createToken(username: String, familyName: String?, name: String, role: Role?) async throws -> (String, APIToken)

    /// Issues a token for the member a request acts for (`member.role` is already limited by the token that asks),
    /// limited to `role` (which must not exceed theirs) or, without one, to theirs.
    func createToken(for member: Membership, name: String, role: Role?) async throws -> (String, APIToken)

    /// The member's own tokens in their family, newest first.
    func tokens(of member: Membership) async throws -> [APIToken]

    /// Revokes a token at once. Members revoke their own; an owner any of the family's.
    func revokeToken(_ id: APITokenID, by member: Membership) async throws

    /// Revokes a user's tokens with the given label (the command line's way); returns how many there were.
    func revokeTokens(username: String, familyName: String?, name: String) async throws -> Int

    /// Who a bearer token acts for, or nil for an unknown (or revoked) token. Looked up on every request, so that a
    /// revocation or a change of role takes effect at once.
    func membership(forToken token: String) async throws -> Membership?

    /// The family named, or the only family in the data folder when no name is given.
    func family(named name: String?) async throws -> Family

    /// Whether the family asks its owners and editors to sign in with a passkey or the second step.
    func strongSignIn(family: FamilyID) async throws -> Bool

    func setStrongSignIn(_ on: Bool, family: FamilyID) async throws
}

/// Web sessions in SQLite. The cookie holds 256 random bits; only their SHA-256 is stored, like API tokens.
public protocol SessionStore: Sendable {
    /// Starts a session for a user (acting for their first family), replacing `previous` (a login rotates the
    /// cookie). Returns the cookie's value, shown to nobody but the browser.
    func start(user: UserID, replacing previous: String?, with method: SignInMethod) async throws -> (cookie: String, session: Session)

    /// The live session a cookie names, or nil (unknown, idle too long, or past its absolute end; such rows go).
    func session(forCookie cookie: String) async throws -> Session?

    /// Signs a browser out.
    func end(_ id: String) async throws

    /// Signs a user out everywhere but `keeping` (after a password change).
    func endAll(user: UserID, keeping: String?) async throws

    /// Makes the session act for another of the user's families.
    func switchFamily(_ session: Session, to family: FamilyID) async throws

    /// The browser a user just signed in from, by its device cookie (`given`, nil for a browser that has none): a
    /// device of theirs seen before is touched; any other becomes one, with `label` (what the browser said it was),
    /// and the sign-in goes into the activity of each of their families. Returns the cookie to keep (a new one for a
    /// new device) and whether it was new.
    func recognise(device given: String?, user: UserID, label: String) async throws -> (cookie: String, isNew: Bool)

    /// Names a session by what its browser said it was (at sign-in).
    func label(session: String, _ label: String) async throws

    /// The member's live sessions, the most recently used first.
    func sessions(of user: UserID) async throws -> [SessionSummary]

    /// Ends one of the member's own sessions; false when they have none by that id.
    func end(_ id: String, of user: UserID) async throws -> Bool
}

/// A family's record of who did what (`Activity`), kept a year.
public protocol ActivityStore: Sendable {
    /// Adds a line, stamped now.
    func record(
        family: FamilyID, actor: UserID?, action: ActivityAction, kind: ActivityKind, subjectID: String?, label: String, detail: String
    ) async throws

    /// The lines `filter` keeps, newest first.
    func list(family: FamilyID, filter: ActivityFilter, after cursor: PageCursor?, limit: Int) async throws -> Page<Activity>

    /// Deletes the lines older than `Activity.keptFor`; returns how many went.
    func sweep() async throws -> Int
}

/// Invitations into a family and read-only share links. Their secrets are shown once; only hashes are stored.
public protocol SharingStore: Sendable {
    func invite(by member: Membership, role: Role, days: Int) async throws -> (token: String, invitation: Invitation)

    func invitations(family: FamilyID) async throws -> [Invitation]

    func revokeInvitation(_ id: InvitationID, family: FamilyID) async throws

    /// The open invitation a link names, with its family's name; nil when unknown, used, expired or revoked.
    func openInvitation(token: String) async throws -> (invitation: Invitation, familyName: String)?

    /// Uses an invitation for `user` (or for a new user made here from `newUser`), in one transaction: the
    /// invitation can be used once even when two browsers race. A user already in the family keeps their role.
    /// With `passkey`, the new user's passkey is stored in the same transaction (an account made with a passkey).
    func accept(token: String, user: UserID?, newUser: (username: String, passwordHash: String)?, passkey: NewPasskey?) async throws
        -> (user: UserID, membership: Membership)

    func share(by member: Membership, entries: [EntryID], label: String?, days: Int) async throws -> (token: String, link: ShareLink)

    func shareLinks(family: FamilyID) async throws -> [ShareLink]

    /// Revokes a link: it stops working at once.
    func revokeShareLink(_ id: ShareLinkID, family: FamilyID) async throws

    /// The live links a user made, in every family: after "sign out everywhere" someone who held their session may
    /// have made some, and the settings page offers to revoke them.
    func shareLinks(createdBy user: UserID) async throws -> [ShareLink]

    /// Revokes every link a user made, in every family; returns how many.
    func revokeShareLinks(createdBy user: UserID) async throws -> Int

    /// The live link a token names (unknown, expired and revoked links are nil); entries deleted since drop out.
    func openShareLink(token: String) async throws -> ShareLink?

    func makeFeed(by member: Membership, label: String?, includesHolidays: Bool) async throws -> (token: String, feed: CalendarFeedLink)

    func feeds(family: FamilyID) async throws -> [CalendarFeedLink]

    /// Revokes a feed: its URL is 404 at once.
    /// Revokes a feed of the member's family: one they made, or any if they are an owner (issue 17: a viewer could
    /// stop the owner's). Another member's feed is 404 to anyone else, as if it were not there.
    func revokeFeed(_ id: CalendarFeedID, by member: Membership) async throws

    func openFeed(token: String) async throws -> CalendarFeedLink?
}

/// Recent wrong passwords, by key ("account:mina", "address:203.0.113.9"): sign-in throttling that every server of
/// one database sees.
public protocol LoginFailureStore: Sendable {
    /// The times of each key's failures at or after `since`, oldest first (older ones are deleted on the way).
    func failures(keys: [String], since: Date) async throws -> [String: [Date]]

    func recordFailure(keys: [String], at time: Date) async throws

    /// Forgets a key's failures (a right password clears its account's).
    func clear(key: String) async throws
}

// The arguments most callers leave out.

extension AccountStore {
    public func createUser(username: String, passwordHash: String, familyName: String) async throws -> (User, Family) {
        try await createUser(username: username, passwordHash: passwordHash, familyName: familyName, passkey: nil)
    }

    public func signOutEverywhere(_ user: UserID) async throws { try await signOutEverywhere(user, passwordHash: nil) }

    public func createToken(username: String, familyName: String?) async throws -> (String, APIToken) {
        try await createToken(username: username, familyName: familyName, name: "cli", role: nil)
    }
}

extension SharingStore {
    public func accept(token: String, user: UserID?, newUser: (username: String, passwordHash: String)?) async throws
        -> (user: UserID, membership: Membership)
    {
        try await accept(token: token, user: user, newUser: newUser, passkey: nil)
    }
}

extension SessionStore {
    public func start(user: UserID, replacing previous: String? = nil) async throws -> (cookie: String, session: Session) {
        try await start(user: user, replacing: previous, with: .password)
    }

    public func endAll(user: UserID) async throws { try await endAll(user: user, keeping: nil) }
}
