import Diary
import Files
import Foundation
import NIOPosix
import Persistence
import Secrets
import Services
import Synchronization

/// Passwords and sessions, shared by the pages and the API: sign-in with throttling, password change, first-run
/// setup. bcrypt runs on NIO's thread pool, off the threads that serve requests.
struct SignIn: Sendable {
    let accounts: any AccountStore
    let sessions: any SessionStore
    let secondStep: SecondStep
    let throttle: LoginThrottle
    let setup: SetupLink
    let clock: Clock
    let hasher = PasswordHasher()
    /// Mails a member when their account signs in from a new browser; nil when the server sends no mail.
    var mail: SignInMail?

    /// `setupFile`: where the first-run link is written while it works (`saessak admin setup-link` reads it).
    init(_ database: any DiaryEngine, setupFile: URL? = nil) {
        accounts = database.stores.accounts
        sessions = database.stores.sessions
        secondStep = SecondStep(store: database.stores.secondSteps, cipher: database.cipher, clock: database.clock)
        throttle = LoginThrottle(store: database.stores.loginFailures)
        setup = SetupLink(file: setupFile)
        clock = database.clock
    }

    enum Outcome {
        case signedIn(cookie: String, session: Session)
        /// The password was right, and the member's second step is on: the code comes next.
        case needsSecondStep(UserID)
        case wrongPassword
        case throttled(retryAfter: Int)
    }

    /// Checks the password (always spending the same bcrypt time, known user or not) and starts a session,
    /// replacing `previousCookie`.
    func signIn(username: String, password: String, address: String?, previousCookie: String?) async throws -> Outcome {
        let address = address ?? "unknown"
        if let wait = try await throttle.wait(account: username, address: address, now: clock.now()) {
            return .throttled(retryAfter: wait)
        }
        let credentials = try await accounts.credentials(username: username)
        let matches = try await verify(password, against: credentials?.passwordHash ?? Self.decoyHash)
        guard let credentials, matches else {
            try await throttle.recordFailure(account: username, address: address, now: clock.now())
            return .wrongPassword
        }
        if try await secondStep.store.isConfirmed(credentials.user) { return .needsSecondStep(credentials.user) }
        try await throttle.recordSuccess(account: username)
        let (cookie, session) = try await sessions.start(user: credentials.user, replacing: previousCookie)
        return .signedIn(cookie: cookie, session: session)
    }

    /// The second step after a right password: a code from the app or a recovery code. Wrong codes count towards the
    /// same limits as wrong passwords.
    func completeSecondStep(user: UserID, code: String, address: String?, previousCookie: String?) async throws -> Outcome {
        let address = address ?? "unknown"
        let username = try await accounts.account(user).username
        let now = clock.now()
        let waits = [try await throttle.wait(account: username, address: address, now: now), try await throttle.codeWait(account: username, now: now)]
        if let wait = waits.compactMap({ $0 }).max() { return .throttled(retryAfter: wait) }
        guard try await secondStep.check(code, user: user) else {
            let wrong = try await throttle.recordCodeFailure(account: username, address: address, now: now)
            // The first time someone who has the password starts guessing codes, the member hears of it.
            if wrong == LoginThrottle.limit { try? await mail?.codesGuessed(user: user, count: wrong, at: now) }
            return .wrongPassword
        }
        try await throttle.recordSuccess(account: username)
        try await throttle.recordCodeSuccess(account: username)
        let (cookie, session) = try await sessions.start(user: user, replacing: previousCookie, with: .secondStep)
        return .signedIn(cookie: cookie, session: session)
    }

    /// Checks a signed-in member's password again before something that weakens their sign-in (turning the second
    /// step off), counted like a sign-in.
    func confirmPassword(user: UserID, password: String, address: String?) async throws {
        let address = address ?? "unknown"
        let username = try await accounts.account(user).username
        if let wait = try await throttle.wait(account: username, address: address, now: clock.now()) {
            throw Problem(status: .tooManyRequests, detail: "too many wrong passwords: try again in \(wait) s", retryAfter: wait)
        }
        guard try await verify(password, against: try await accounts.passwordHash(of: user)) else {
            try await throttle.recordFailure(account: username, address: address, now: clock.now())
            throw ValidationError(field: "currentPassword", .notCurrentPassword)
        }
    }

    /// Changes a password after checking the current one; every other session of the user ends.
    func changePassword(user: UserID, current: String, new: String, keeping session: Session?, address: String?) async throws {
        try await confirmPassword(user: user, password: current, address: address)
        if let problem = PasswordHasher.problem(with: new) { throw ValidationError(field: "newPassword", .passwordLength(problem)) }
        let hash = try await hashed(new)
        try await accounts.setPasswordHash(hash, of: user)
        try await sessions.endAll(user: user, keeping: session?.id)
    }

    /// Creates the owner and their family from the first-run setup link, and signs them in.
    /// The link is taken before the slow bcrypt, atomically: of several requests at once only one gets it (four
    /// parallel POSTs made four owners and four families, issue 33). A refused username gives it back.
    func setUp(token: String, username: String, password: String, familyName: String) async throws -> (cookie: String, session: Session) {
        if let problem = PasswordHasher.problem(with: password) {
            guard setup.matches(token) else { throw Problem(status: .notFound, detail: "this setup link is no longer valid") }
            throw ValidationError(field: "password", .passwordLength(problem))
        }
        return try await setUp(token: token, username: username, familyName: familyName) { try await hashed(password) } passkey: { nil }
    }

    /// The first owner made with a passkey instead of a password (`passkey` checks the browser's answer after the link
    /// is claimed, so that an answer for a link already used makes nothing).
    func setUp(token: String, username: String, familyName: String, passkey: () async throws -> NewPasskey) async throws
        -> (cookie: String, session: Session)
    {
        try await setUp(token: token, username: username, familyName: familyName) { BackupCatalogue.noPassword } passkey: { try await passkey() }
    }

    private func setUp(
        token: String, username: String, familyName: String, passwordHash: () async throws -> String,
        passkey: () async throws -> NewPasskey?
    ) async throws -> (cookie: String, session: Session) {
        guard let claimed = setup.claim(token) else { throw Problem(status: .notFound, detail: "this setup link is no longer valid") }
        do {
            guard try await !accounts.hasUsers() else { throw Problem(status: .notFound, detail: "this setup link is no longer valid") }
            let hash = try await passwordHash()
            let made = try await passkey()
            let (user, _) = try await accounts.createUser(username: username, passwordHash: hash, familyName: familyName, passkey: made)
            setup.retire()
            return try await sessions.start(user: user.id, replacing: nil, with: made == nil ? .password : .passkey)
        } catch let error as ValidationError {
            setup.giveBack(claimed)
            throw error
        } catch let error as StoreError {
            setup.giveBack(claimed)
            throw error
        } catch let error as Problem {
            setup.giveBack(claimed)
            throw error
        }
    }

    private func verify(_ password: String, against hash: String) async throws -> Bool {
        // An account restored from a family backup without its hash (`DiaryDatabase.noPassword`) matches nothing.
        guard hash.hasPrefix("$2") else { return false }
        let hasher = hasher
        return try await NIOThreadPool.singleton.runIfActive { hasher.verify(password, against: hash) }
    }

    func hash(_ password: String) async throws -> String { try await hashed(password) }

    private func hashed(_ password: String) async throws -> String {
        let hasher = hasher
        return try await NIOThreadPool.singleton.runIfActive { hasher.hash(password) }
    }

    /// Checked when the username is unknown, so that an answer takes as long either way.
    static let decoyHash = PasswordHasher().hash(TokenGenerator.make().token)
}

/// The one-time link that creates the first owner of an empty data folder. It lives in memory: printed when the
/// server starts with no users (and written to the data folder's `setup-link`, 0600, for `saessak admin setup-link`
/// on a server whose output went to the journal), gone once used (a restart prints a new one while nobody has signed
/// up).
final class SetupLink: Sendable {
    private let digest = Mutex<Data?>(nil)
    let file: URL?

    init(file: URL? = nil) { self.file = file }

    /// Writes the link where `saessak admin setup-link` finds it.
    func publish(_ link: String) throws {
        guard let file else { return }
        try AtomicFile.write(Data((link + "\n").utf8), to: file, permissions: 0o600)
    }

    /// The owner exists: the written link goes.
    func retire() {
        if let file { try? FileManager.default.removeItem(at: file) }
    }

    /// A new link token (the previous one stops working).
    func issue() -> String {
        let (token, tokenDigest) = TokenGenerator.make()
        digest.withLock { $0 = tokenDigest }
        return token
    }

    func matches(_ token: String) -> Bool {
        let given = TokenGenerator.digest(of: token)
        return digest.withLock { $0 == given }
    }

    /// Takes the link if `token` is it: afterwards it matches nothing, for every other request at once. Returns what
    /// `giveBack` needs.
    func claim(_ token: String) -> Data? {
        let given = TokenGenerator.digest(of: token)
        return digest.withLock { current in
            guard current == given else { return nil }
            current = nil
            return given
        }
    }

    /// Makes a claimed link work again (the owner typed a name that cannot be used), unless a new one was issued.
    func giveBack(_ claimed: Data) { digest.withLock { if $0 == nil { $0 = claimed } } }
}
