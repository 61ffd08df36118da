import Foundation

/// A signed-in browser: who, which of their families it acts for, and the token its forms must send back.
public struct Session: Hashable, Sendable {
    public let id: String
    public let userID: UserID
    /// The family the browser acts for, with the user's role in it; nil for a user in no family yet.
    public let membership: Membership?
    /// Sent back by every form and script write (CSRF): a page of another site cannot know it.
    public let csrfToken: String
    public let expiresAt: Date
    /// How the browser signed in.
    public let signedInWith: SignInMethod
    /// The family it acts for asks its owners and editors to sign in with more than a password, this member is one,
    /// and this session is a password's alone: it reaches nothing of the family until the member signs in again with a
    /// passkey or the second step.
    public let mustStrengthen: Bool
    /// The member has a passkey or the second step. A session held back (`mustStrengthen`) may add a first one only
    /// when this is false; it never removes one or changes the password (issue 66: a password alone enrolled its own
    /// second step, then removed the member's passkey).
    public let hasStrongMethod: Bool

    /// Whether this session may change how its member signs in: add a passkey or the second step.
    public var mayEnrol: Bool { !mustStrengthen || !hasStrongMethod }

    /// A session ends after this long without a request…
    public static let idleLifetime: TimeInterval = 14 * 24 * 3600
    /// …and after this long in any case.
    public static let absoluteLifetime: TimeInterval = 60 * 24 * 3600
    /// When it was last used is written at most this often, so reading pages does not mean writing the database.
    public static let touchInterval: TimeInterval = 60

    public init(
        id: String, userID: UserID, membership: Membership?, csrfToken: String, expiresAt: Date, signedInWith: SignInMethod = .password,
        mustStrengthen: Bool = false, hasStrongMethod: Bool = false
    ) {
        self.signedInWith = signedInWith
        self.mustStrengthen = mustStrengthen
        self.hasStrongMethod = hasStrongMethod
        self.id = id
        self.userID = userID
        self.membership = membership
        self.csrfToken = csrfToken
        self.expiresAt = expiresAt
    }
}

/// How a session was signed in: a password alone, a passkey (the device and its fingerprint, face or PIN), or a password
/// and the second step (a code from an authenticator app, or a recovery code).
public enum SignInMethod: String, Sendable, CaseIterable, Codable {
    case password
    case passkey
    case secondStep = "second-step"

    /// More than a password: what a family that asks for strong sign-in wants of its owners and editors.
    public var isStrong: Bool { self != .password }
}

/// One of a member's signed-in browsers, as the devices list shows it.
public struct SessionSummary: Hashable, Sendable {
    public let id: String
    /// What the browser said it was when it signed in ("Chrome · Android").
    public let label: String
    public let signedInWith: SignInMethod
    public let createdAt: Date
    public let lastSeenAt: Date

    public init(id: String, label: String, signedInWith: SignInMethod, createdAt: Date, lastSeenAt: Date) {
        self.id = id
        self.label = label
        self.signedInWith = signedInWith
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}
