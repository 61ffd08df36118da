import Diary
import Foundation
import Logging
import Mail
import MailFormat
import Persistence
import Photos
import Secrets
import ServiceLifecycle
import Synchronization

/// What one round of the mail loop did.
public struct MailRound: Sendable, Equatable {
    public var queued = 0
    public var sent = 0
    public var retrying = 0
    public var failed = 0
    public var unknown = 0
}

/// The mail loop of `saessak serve` (and one round of it for `saessak mail run`): writes the digests and reminders
/// that are due into the outbox, then sends what the outbox holds. Several servers on one database share the work:
/// a key is queued once (a unique index) and a message claimed by one sender. A message is marked `sending` before
/// its first byte leaves and is never sent again once it may have arrived.
public struct MailDispatcher: Service {
    let stores: DiaryStores
    let composer: MailComposer
    let sender: MailSender
    let clock: Clock
    let logger: Logger

    /// A `sending` older than this belongs to a sender that died (one message takes at most the SMTP timeout).
    static let staleAfter: TimeInterval = 15 * 60
    /// Waits before the 1st, 2nd, … retry; after the last, the message has failed.
    static let backoff: [TimeInterval] = [60, 300, 1_800, 7_200, 21_600, 43_200, 86_400]
    /// How long a stop lets the message under way hear its answer: an SMTP server answers a delivered message at
    /// once, and a stop in between would leave it `unknown`; a slow or silent one is not waited for longer.
    static let graceOnStop: Duration = .seconds(5)
    /// Dealt-with messages are forgotten after this long (their keys are dated: nothing is written again).
    static let keepFor: TimeInterval = 90 * 86_400

    /// `sender` hands messages over (`MailSender.smtp` from the configuration when not given); `clock` says when a
    /// round runs.
    public init(
        stores: DiaryStores, photos: PhotoService, cipher: FieldCipher, configuration: MailConfiguration, sender: MailSender? = nil,
        clock: Clock = .live, logger: Logger
    ) throws {
        self.stores = stores
        self.composer = MailComposer(stores: stores, photos: photos, cipher: cipher, configuration: configuration)
        self.sender = try sender ?? .smtp(configuration.smtp)
        self.clock = clock
        self.logger = logger
    }

    public func run() async throws {
        logger.info("mail", metadata: ["sender": "\(sender.description)"])
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // A stop claims no further message and gives the one under way `graceOnStop` to hear its answer; then
            // the send is cancelled (a message not yet handed over is tried again later; one that was is never sent
            // again) and its outcome still recorded.
            let stop = StopSignal()
            await withGracefulShutdownHandler {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { _ = await round(now: clock.now(), stop: stop) }
                    group.addTask {
                        while !stop.isRaised, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(100)) }
                        try? await Task.sleep(for: Self.graceOnStop)
                    }
                    await group.next()
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                stop.raise()
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: composer.configuration.interval) }
        }
    }

    /// Raised when the server begins to stop: the round claims no further message.
    final class StopSignal: Sendable {
        private let raised = Mutex(false)
        var isRaised: Bool { raised.withLock { $0 } }
        func raise() { raised.withLock { $0 = true } }
    }

    /// Writes what is due at `now` and sends what is queued. Failures are logged, never thrown: the next round tries again.
    public func round(now: Date) async -> MailRound { await round(now: now, stop: StopSignal()) }

    func round(now: Date, stop: StopSignal) async -> MailRound {
        var round = MailRound()
        do {
            let abandoned = try await stores.mail.abandonStale(claimedBefore: now.addingTimeInterval(-Self.staleAfter))
            if abandoned > 0 { logger.warning("mail: a sender stopped mid-message; not sent again", metadata: ["messages": "\(abandoned)"]) }
            _ = try await stores.mail.forget(before: now.addingTimeInterval(-Self.keepFor))
            round.queued = try await compose(now: now)
        } catch {
            logger.error("mail: cannot write the due mail", metadata: ["error": "\(error)"])
        }
        // What was queued just now is due too (its time is the clock's, a moment after `now`).
        let now = max(now, clock.now())
        do {
            while !Task.isCancelled, !stop.isRaised, let mail = try await stores.mail.claimNext(now: now) {
                let result = await send(mail, now: now)
                // Recorded even when the round was cancelled meanwhile (a new task does not inherit the cancellation).
                try await Task { try await stores.mail.finish(id: mail.id, result: result) }.value
                switch result {
                case .sent: round.sent += 1
                case .retry: round.retrying += 1
                case .failed: round.failed += 1
                case .unknown: round.unknown += 1
                }
            }
        } catch {
            logger.error("mail: the outbox cannot be read", metadata: ["error": "\(error)"])
        }
        return round
    }

    /// Queues each member's due digest and reminders; returns how many messages were queued.
    func compose(now: Date) async throws -> Int {
        var queued = 0
        for recipient in try await stores.mail.recipients() {
            guard let text = recipient.choice.address, let address = try? MailAddress(text) else { continue }
            do {
                if let key = composer.digestKey(for: recipient, at: now),
                    try await !stores.mail.hasMail(family: recipient.family, user: recipient.user, key: key)
                {
                    let message = try await composer.digest(for: recipient, address: address, now: now)
                    let added = try await stores.mail.enqueue(
                        family: recipient.family, user: recipient.user, key: key, recipient: address.value, messageID: message?.messageID ?? "",
                        message: message?.rendered() ?? Data(), state: message == nil ? .skipped : .queued, digestUntil: now)
                    if added, message != nil { queued += 1 }
                }
                for (key, message) in try await composer.reminders(for: recipient, address: address, now: now)
                where try await !stores.mail.hasMail(family: recipient.family, user: recipient.user, key: key) {
                    if try await stores.mail.enqueue(
                        family: recipient.family, user: recipient.user, key: key, recipient: address.value, messageID: message.messageID,
                        message: message.rendered(), state: .queued, digestUntil: nil)
                    {
                        queued += 1
                    }
                }
            } catch {
                // One member's trouble (a photo store hiccup) does not keep the others' mail.
                logger.error("mail: cannot write a member's mail", metadata: ["member": "\(recipient.user)", "error": "\(error)"])
            }
        }
        return queued
    }

    private func send(_ mail: OutboxMail, now: Date) async -> SendResult {
        guard let recipient = try? MailAddress(mail.recipient) else { return .failed("the address is no longer valid") }
        let outcome = await sender.send(mail.message, composer.configuration.from, recipient)
        // Logged by the outbox id and key only: the address and the words stay out of the log.
        let metadata: Logger.Metadata = ["mail": "\(mail.id)", "key": "\(mail.key)", "attempt": "\(mail.attempts)"]
        switch outcome {
        case .sent:
            logger.info("mail sent", metadata: metadata)
            return .sent
        case .refused(let why):
            logger.error("mail refused by the SMTP server", metadata: metadata.merging(["reason": "\(Self.code(why))"]) { $1 })
            return .failed(why)
        case .unknown(let why):
            logger.warning("mail may have been sent (no answer after the message); not sent again", metadata: metadata)
            return .unknown(why)
        case .retry(let why):
            guard mail.attempts <= Self.backoff.count else {
                logger.error("mail given up after \(mail.attempts) attempts", metadata: metadata)
                return .failed(why)
            }
            logger.warning("mail not sent; will retry", metadata: metadata.merging(["reason": "\(Self.code(why))"]) { $1 })
            return .retry(at: now.addingTimeInterval(Self.backoff[max(0, mail.attempts - 1)]), error: why)
        }
    }

    /// The SMTP step and code of a failure, without the server's words (they may repeat the address).
    static func code(_ why: String) -> String {
        let parts = why.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return "connection" }
        let code = parts[1].trimmingCharacters(in: .whitespaces).prefix(3)
        return "\(parts[0]) \(code.allSatisfy(\.isNumber) ? String(code) : "")"
    }
}

/// Hands a rendered message to whoever delivers it: an SMTP server (`smtp`), or what a test records.
public struct MailSender: Sendable, CustomStringConvertible {
    public var send: @Sendable (_ message: Data, _ from: MailAddress, _ to: MailAddress) async -> SMTPOutcome
    /// Where mail goes, for the log (no secrets).
    public let description: String

    public init(description: String, send: @escaping @Sendable (_ message: Data, _ from: MailAddress, _ to: MailAddress) async -> SMTPOutcome) {
        self.description = description
        self.send = send
    }

    /// The SMTP server of the settings.
    public static func smtp(_ settings: SMTPSettings) throws -> MailSender {
        let client = try SMTPClient(settings: settings)
        return MailSender(description: "smtp \(settings.host):\(settings.port) (\(settings.security))") { message, from, to in
            await client.send(message, from: from, to: to)
        }
    }
}
