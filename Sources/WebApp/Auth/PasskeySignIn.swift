import Diary
import Foundation
import Hummingbird
import Secrets
import WebAuthn

/// The passkey ceremonies for the pages (docs/security.md, "Passkeys"): options for the browser, then its answer
/// checked by `RelyingParty` against a single-use challenge, our origin and relying party id.
///
/// The relying party is the server's public URL (`--public-url`), or else the address the browser used. Sign-in asks
/// for a discoverable passkey with no account named, so nothing said before the ceremony depends on whether an
/// account has a passkey; failed answers count towards the password sign-in's limits.
struct PasskeySignIn: Sendable {
    let passkeys: any PasskeyStore
    let signIn: SignIn
    let publicURL: URL?

    /// What a failed sign-in says, whatever failed: a neutral answer gives a guesser nothing to tell cases apart.
    static let refusal = "the passkey was not accepted"

    /// Who we are to the browser, for this request.
    func relyingParty(_ request: Request) throws -> RelyingParty {
        let scheme: String, host: String, port: Int?
        if let publicURL, let publicHost = publicURL.host {
            scheme = publicURL.scheme ?? "https"
            host = publicHost
            port = publicURL.port
        } else {
            guard let authority = request.head.authority, let parsed = Self.split(authority) else {
                throw Problem(status: .badRequest, detail: "the request names no host")
            }
            scheme = WebCredentials.isSecure(request) ? "https" : "http"
            (host, port) = parsed
        }
        let lowered = host.lowercased()
        // Browsers refuse an IP address as a relying party id: passkeys need the app's name (localhost or a domain).
        let isName = lowered.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" }
        let isAddress = lowered.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == "." }
        guard !lowered.isEmpty, isName, !isAddress else {
            throw Problem(
                status: .badRequest,
                detail: "passkeys need the app opened by its name (a domain, or localhost), not by an IP address: set --public-url")
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let origin = "\(scheme)://\(lowered)" + (port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
        return RelyingParty(id: lowered, origin: origin)
    }

    /// `host` or `host:port` of a `Host` header (an IPv6 literal is no relying party: nil).
    private static func split(_ authority: String) -> (String, Int?)? {
        guard !authority.hasPrefix("[") else { return nil }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (String(parts[0]), nil)
        case 2:
            guard let port = Int(parts[1]), (1...65535).contains(port) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }

    // MARK: Adding a passkey

    /// `PublicKeyCredentialCreationOptions` for a signed-in member, as JSON with bytes in base64url (passkey.js turns
    /// them into buffers).
    func creationOptions(_ request: Request, user: UserID, username: String) async throws -> CreationOptions {
        let party = try relyingParty(request)
        let challenge = try await passkeys.issueChallenge(for: .register, user: user)
        let existing = try await passkeys.credentialIDs(of: user)
        return CreationOptions(
            challenge: Base64URL.encode(Array(challenge)), rp: .init(id: party.id, name: "새싹 Saessak"),
            user: .init(id: Base64URL.encode(Self.handle(user)), name: username, displayName: username),
            pubKeyCredParams: COSEKey.Algorithm.allCases.map { .init(type: "public-key", alg: $0.rawValue) },
            timeout: Int(Passkey.challengeLifetime * 1000), attestation: "none",
            authenticatorSelection: .init(residentKey: "required", requireResidentKey: true, userVerification: "required"),
            excludeCredentials: existing.map { .init(type: "public-key", id: Base64URL.encode(Array($0))) })
    }

    /// Checks the browser's answer and stores the passkey under `name`.
    func register(_ request: Request, user: UserID, answer: Registration) async throws -> Passkey {
        let name = try Self.name(answer.name)
        let party = try relyingParty(request)
        guard let clientData = Base64URL.decode(answer.clientDataJSON), let attestation = Base64URL.decode(answer.attestationObject),
            let challenge = RelyingParty.challenge(inClientData: clientData),
            try await passkeys.takeChallenge(Data(challenge), for: .register, user: user) != nil
        else { throw Problem(status: .badRequest, detail: "the passkey's answer is for no challenge of ours: try again") }
        return try await passkeys.add(
            user: user, try Self.checked(party, name: name, clientData: clientData, attestation: attestation, challenge: challenge, handle: Self.handle(user)))
    }

    /// A registration's answer checked into a passkey to store (a `Problem` naming what is wrong otherwise).
    private static func checked(
        _ party: RelyingParty, name: String, clientData: [UInt8], attestation: [UInt8], challenge: [UInt8], handle: [UInt8]
    ) throws -> NewPasskey {
        do {
            let credential = try party.register(clientDataJSON: clientData, attestationObject: attestation, challenge: challenge)
            return NewPasskey(
                name: name, credentialID: Data(credential.id), userHandle: Data(handle), publicKey: Data(credential.publicKeyBytes),
                signCount: Int64(credential.signCount))
        } catch let failure as RelyingParty.Failure {
            throw Problem(status: .badRequest, detail: failure.description)
        }
    }

    /// A passkey's name, checked: 1–60 characters, no control characters.
    static func name(_ given: String) throws -> String {
        let name = given.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Passkey.maxNameLength).contains(name.count), name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
            throw Problem(status: .unprocessableContent, detail: "name: 1–\(Passkey.maxNameLength) characters", field: "name")
        }
        return name
    }

    // MARK: An account made with a passkey

    /// Options for a new account's passkey (an invitation accepted without a password): a fresh user handle, kept with
    /// the challenge, so the answer can only make the account it was asked for.
    func signUpOptions(_ request: Request, username: String) async throws -> CreationOptions {
        let party = try relyingParty(request)
        let handle = TokenGenerator.randomBytes(16)
        let challenge = try await passkeys.issueChallenge(for: .signUp, user: nil, userHandle: handle)
        return CreationOptions(
            challenge: Base64URL.encode(Array(challenge)), rp: .init(id: party.id, name: "새싹 Saessak"),
            user: .init(id: Base64URL.encode(Array(handle)), name: username, displayName: username),
            pubKeyCredParams: COSEKey.Algorithm.allCases.map { .init(type: "public-key", alg: $0.rawValue) },
            timeout: Int(Passkey.challengeLifetime * 1000), attestation: "none",
            authenticatorSelection: .init(residentKey: "required", requireResidentKey: true, userVerification: "required"),
            excludeCredentials: [])
    }

    /// Checks a new account's passkey answer: the passkey to store with the account.
    func signUp(_ request: Request, clientDataJSON: String, attestationObject: String, name: String) async throws -> NewPasskey {
        let party = try relyingParty(request)
        guard let clientData = Base64URL.decode(clientDataJSON), let attestation = Base64URL.decode(attestationObject),
            let challenge = RelyingParty.challenge(inClientData: clientData),
            let handle = try await passkeys.takeChallenge(Data(challenge), for: .signUp, user: nil), handle.count == 16
        else { throw Problem(status: .badRequest, detail: "the passkey's answer is for no challenge of ours: try again") }
        return try Self.checked(
            party, name: try Self.name(name), clientData: clientData, attestation: attestation, challenge: challenge, handle: Array(handle))
    }

    // MARK: Signing in

    func requestOptions(_ request: Request, address: String?) async throws -> RequestOptions {
        // Each answer stores a challenge: an address that failed too often, or asks faster than a person signs in,
        // waits (issue 66: a row a request, unthrottled).
        let address = address ?? "unknown"
        let now = signIn.clock.now()
        if let wait = try await signIn.throttle.wait(account: nil, address: address, now: now) {
            throw Problem(status: .tooManyRequests, detail: "too many failed sign-ins: try again in \(wait) s", retryAfter: wait)
        }
        if let wait = try await signIn.throttle.challengeWait(address: address, now: now) {
            throw Problem(status: .tooManyRequests, detail: "too many sign-ins asked for at once: try again in \(wait) s", retryAfter: wait)
        }
        let party = try relyingParty(request)
        let challenge = try await passkeys.issueChallenge(for: .signIn, user: nil)
        return RequestOptions(
            challenge: Base64URL.encode(Array(challenge)), rpId: party.id, timeout: Int(Passkey.challengeLifetime * 1000),
            userVerification: "required")
    }

    enum Outcome {
        case signedIn(cookie: String, session: Session)
        case refused
        case throttled(retryAfter: Int)
    }

    /// Checks an assertion and starts a session for the passkey's member, replacing `previousCookie`.
    func signIn(_ request: Request, answer: Assertion, address: String?, previousCookie: String?) async throws -> Outcome {
        let address = address ?? "unknown"
        let now = signIn.clock.now()
        if let wait = try await signIn.throttle.wait(account: nil, address: address, now: now) { return .throttled(retryAfter: wait) }
        let party = try relyingParty(request)
        guard let credentialID = Base64URL.decode(answer.id), let clientData = Base64URL.decode(answer.clientDataJSON),
            let authenticatorData = Base64URL.decode(answer.authenticatorData), let signature = Base64URL.decode(answer.signature),
            let challenge = RelyingParty.challenge(inClientData: clientData),
            try await passkeys.takeChallenge(Data(challenge), for: .signIn, user: nil) != nil,
            let stored = try await passkeys.passkey(credentialID: Data(credentialID))
        else {
            try await signIn.throttle.recordFailure(account: nil, address: address, now: now)
            return .refused
        }
        let username = try await signIn.accounts.account(stored.passkey.userID).username
        if let wait = try await signIn.throttle.wait(account: username, address: address, now: now) { return .throttled(retryAfter: wait) }
        let handleMatches = answer.userHandle.map { Base64URL.decode($0) == Array(stored.userHandle) } ?? true
        guard handleMatches, let key = try? COSEKey(bytes: stored.publicKey), let previous = UInt32(exactly: stored.signCount),
            let count = try? party.authenticate(
                clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature, challenge: challenge,
                publicKey: key, storedSignCount: previous),
            try await passkeys.recordUse(stored.passkey.id, signCount: Int64(count), previous: stored.signCount)
        else {
            try await signIn.throttle.recordFailure(account: username, address: address, now: now)
            return .refused
        }
        try await signIn.throttle.recordSuccess(account: username)
        let (cookie, session) = try await signIn.sessions.start(user: stored.passkey.userID, replacing: previousCookie, with: .passkey)
        return .signedIn(cookie: cookie, session: session)
    }

    /// The user handle a member's added passkeys carry: their id (16 bytes, nothing personal). An account made with a
    /// passkey has a random one instead (it had no id yet when the authenticator was given it).
    static func handle(_ user: UserID) -> [UInt8] {
        withUnsafeBytes(of: user.uuid.uuid) { Array($0) }
    }

    // MARK: What the browser sends and gets

    struct CreationOptions: Encodable {
        struct Party: Encodable { let id: String, name: String }
        struct User: Encodable { let id: String, name: String, displayName: String }
        struct Parameter: Encodable { let type: String, alg: Int }
        struct Selection: Encodable { let residentKey: String, requireResidentKey: Bool, userVerification: String }
        struct Descriptor: Encodable { let type: String, id: String }
        let challenge: String
        let rp: Party
        let user: User
        let pubKeyCredParams: [Parameter]
        let timeout: Int
        let attestation: String
        let authenticatorSelection: Selection
        let excludeCredentials: [Descriptor]
    }

    struct RequestOptions: Encodable {
        let challenge: String
        let rpId: String
        let timeout: Int
        let userVerification: String
    }

    /// A new passkey from `navigator.credentials.create`, bytes in base64url.
    struct Registration: Decodable {
        let name: String
        let clientDataJSON: String
        let attestationObject: String
    }

    /// A sign-in from `navigator.credentials.get`, bytes in base64url.
    struct Assertion: Decodable {
        let id: String
        let clientDataJSON: String
        let authenticatorData: String
        let signature: String
        let userHandle: String?
        let next: String?
    }
}
