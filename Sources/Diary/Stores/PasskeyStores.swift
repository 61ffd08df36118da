import Foundation

/// Members' passkeys, and the single-use challenges their ceremonies answer. Server state like sessions: a backup
/// leaves them out (a restored server signs members in with their passwords, and they add passkeys again).
public protocol PasskeyStore: Sendable {
    /// Adds a checked passkey. A credential id already stored (for anyone) is a conflict; so is a member's 21st.
    func add(user: UserID, name: String, credentialID: Data, publicKey: Data, signCount: Int64) async throws -> Passkey

    /// The member's passkeys, oldest first.
    func passkeys(of user: UserID) async throws -> [Passkey]

    /// The credential ids of the member's passkeys (a browser is told not to make a second one on the same
    /// authenticator).
    func credentialIDs(of user: UserID) async throws -> [Data]

    /// The passkey a credential id names, or nil.
    func passkey(credentialID: Data) async throws -> StoredPasskey?

    /// Stores a sign-in's counter, only if it is still `previous`: of two sign-ins racing with one assertion (a
    /// replay), one wins. Returns whether this one did.
    func recordUse(_ id: PasskeyID, signCount: Int64, previous: Int64) async throws -> Bool

    /// Removes one of the member's passkeys, refused (a conflict) when it is their last way to sign in: no other
    /// passkey and no password.
    func remove(_ id: PasskeyID, of user: UserID) async throws

    /// A new random challenge for a ceremony (bound to `user` when adding a passkey), good for
    /// `Passkey.challengeLifetime`.
    func issueChallenge(for ceremony: PasskeyCeremony, user: UserID?) async throws -> Data

    /// Takes a challenge: true once for a live challenge of that ceremony (and user), false ever after.
    func takeChallenge(_ challenge: Data, for ceremony: PasskeyCeremony, user: UserID?) async throws -> Bool
}
