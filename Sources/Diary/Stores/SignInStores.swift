import Foundation

/// Members' passkeys, and the single-use challenges their ceremonies answer. Server state like sessions: a backup
/// leaves them out (a restored server signs members in with their passwords, and they add passkeys again).
public protocol PasskeyStore: Sendable {
    /// Adds a checked passkey. A credential id already stored (for anyone) is a conflict; so is a member's 21st.
    func add(user: UserID, _ passkey: NewPasskey) async throws -> Passkey

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

    /// A new random challenge for a ceremony (bound to `user` when adding a passkey, to `userHandle` when making an
    /// account), good for `Passkey.challengeLifetime`.
    func issueChallenge(for ceremony: PasskeyCeremony, user: UserID?, userHandle: Data?) async throws -> Data

    /// Takes a challenge: once for a live challenge of that ceremony (and user), nil ever after. Gives the user handle
    /// it was issued with (empty when none).
    func takeChallenge(_ challenge: Data, for ceremony: PasskeyCeremony, user: UserID?) async throws -> Data?
}

extension PasskeyStore {
    public func issueChallenge(for ceremony: PasskeyCeremony, user: UserID?) async throws -> Data {
        try await issueChallenge(for: ceremony, user: user, userHandle: nil)
    }
}

/// The second step of a password sign-in: a TOTP secret (RFC 6238, what authenticator apps show; sealed with the field
/// cipher), the last time step a code was accepted for (so that each code works once), and one-time recovery codes
/// (only their SHA-256). Server state like passkeys.
public protocol SecondStepStore: Sendable {
    /// Starts setting up: `secret` is kept, unconfirmed, replacing an unconfirmed one. A member whose second step is
    /// confirmed must remove it first (a conflict).
    func begin(user: UserID, secret: String) async throws

    /// The member's secret, whether it is confirmed, and the last step used; nil when none was begun.
    func secret(of user: UserID) async throws -> (secret: String, confirmed: Bool, lastStep: Int64)?

    /// Confirms the secret with the step of the code that proved the app has it, and stores the recovery codes' digests
    /// (replacing any). False when there was nothing unconfirmed to confirm.
    func confirm(user: UserID, step: Int64, recoveryDigests: [Data]) async throws -> Bool

    /// Takes a time step: true once, for a step after the last one used, of a confirmed second step.
    func use(user: UserID, step: Int64) async throws -> Bool

    /// Takes a recovery code by its digest: true once.
    func useRecoveryCode(user: UserID, digest: Data) async throws -> Bool

    /// How many recovery codes are left unused.
    func recoveryCodesLeft(of user: UserID) async throws -> Int

    /// New recovery codes for a confirmed second step (the old ones stop working).
    func replaceRecoveryCodes(user: UserID, digests: [Data]) async throws

    /// Turns the second step off: the secret and the recovery codes go.
    func remove(user: UserID) async throws

    /// Whether a password sign-in of this member needs the second step.
    func isConfirmed(_ user: UserID) async throws -> Bool
}
