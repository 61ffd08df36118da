import Foundation

public typealias PasskeyID = Identifier<Passkey>

/// A passkey a member added (WebAuthn): signs them in alone, with the phone's fingerprint, face or PIN. What the
/// settings page lists; the key itself stays in the store.
public struct Passkey: Hashable, Sendable, Codable {
    public let id: PasskeyID
    public let userID: UserID
    /// What the member called it ("내 휴대폰").
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date?

    public init(id: PasskeyID, userID: UserID, name: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.userID = userID
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// Names are short labels; 60 characters is plenty for "할머니 아이패드".
    public static let maxNameLength = 60
    /// A member rarely has more than a phone, a tablet and a laptop; 20 leaves room and bounds the sign-in lists.
    public static let maxPerUser = 20
    /// How long a challenge given to a browser stays good: the ceremony is a tap or two.
    public static let challengeLifetime: TimeInterval = 300
}

/// A passkey with what a sign-in checks: its credential id, the user handle the authenticator keeps with it, the
/// public key (COSE, as the authenticator gave it) and the signature counter last seen.
public struct StoredPasskey: Sendable {
    public let passkey: Passkey
    public let credentialID: Data
    public let userHandle: Data
    public let publicKey: Data
    public let signCount: Int64

    public init(passkey: Passkey, credentialID: Data, userHandle: Data, publicKey: Data, signCount: Int64) {
        self.passkey = passkey
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
    }
}

/// A checked passkey not stored yet: added to a member, or made with a new account (an invitation accepted with a
/// passkey instead of a password).
public struct NewPasskey: Sendable {
    public let name: String
    public let credentialID: Data
    /// What the authenticator keeps as the member's id (16 bytes, nothing personal) and gives back at each sign-in.
    public let userHandle: Data
    public let publicKey: Data
    public let signCount: Int64

    public init(name: String, credentialID: Data, userHandle: Data, publicKey: Data, signCount: Int64) {
        self.name = name
        self.credentialID = credentialID
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.signCount = signCount
    }
}

/// What a WebAuthn challenge is for: adding a passkey (bound to the member asking), signing in (anyone), or making an
/// account with a passkey (bound to the user handle the new account's passkey gets).
public enum PasskeyCeremony: String, Sendable, CaseIterable {
    case register
    case signIn = "sign-in"
    case signUp = "sign-up"
}
