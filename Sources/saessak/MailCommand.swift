import ArgumentParser
import Diary
import Foundation
import Logging
import Photos
import Services

struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail", abstract: "E-mail digests and reminders: send what is due now, list the outbox.",
        subcommands: [RunMail.self, ListOutbox.self])
}

/// `saessak mail run`: one round of what `saessak serve` does every minute — write the digests and reminders due
/// and send the outbox. For a server run without `--smtp-host` (mail from cron), and for tests (`--now`).
struct RunMail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Write the mail due now and send what the outbox holds, once.")

    @OptionGroup var data: DataOptions
    @OptionGroup var mail: MailOptions

    @Option(help: ArgumentHelp("Act as if it were this moment (ISO 8601 with its offset: 2026-11-30T07:30:00+09:00).", valueName: "TIME"))
    var now: String?

    func validate() throws {
        guard mail.smtpHost != nil else { throw ValidationError("--smtp-host is needed to send mail") }
        if let now, Self.instant(now) == nil { throw ValidationError("--now '\(now)' is not an ISO 8601 time with an offset") }
    }

    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    func run() async throws {
        guard let configuration = try mail.configuration() else { return }
        let database = try await data.openExisting()
        let logger = Logger(label: "saessak")
        let photos = try PhotoService(storage: try await data.photoStorage(), store: database.stores.photos, logger: logger)
        let dispatcher = try MailDispatcher(
            stores: database.stores, photos: photos, cipher: database.cipher, configuration: configuration, clock: database.clock,
            logger: logger)
        let round = await dispatcher.round(now: now.flatMap(Self.instant) ?? database.clock.now())
        print("queued \(round.queued), sent \(round.sent), retrying \(round.retrying), failed \(round.failed), unknown \(round.unknown)")
    }
}

/// `saessak mail outbox`: the messages written, newest first, and where each stands.
struct ListOutbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "outbox", abstract: "List the mail outbox, newest first.")

    @OptionGroup var data: DataOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "How many messages to list.") var limit = 50

    func validate() throws {
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be 1–10000 (got \(limit))") }
    }

    struct Row: Encodable {
        let id: String
        let key: String
        let recipient: String
        let messageId: String
        let state: OutboxState
        let attempts: Int
        let lastError: String?
        let createdAt: Date
        let sentAt: Date?
        let bytes: Int
    }

    func run() async throws {
        let database = try await data.openExisting()
        let rows = try await database.stores.mail.outbox(limit: limit).map {
            Row(
                id: $0.id, key: $0.key, recipient: $0.recipient, messageId: $0.messageID, state: $0.state, attempts: $0.attempts,
                lastError: $0.lastError, createdAt: $0.createdAt, sentAt: $0.sentAt, bytes: $0.message.count)
        }
        if output.json {
            print(try JSONShapes.text(rows))
            return
        }
        for row in rows {
            print("\(StoredTimeText.minute(row.createdAt))  \(row.state.rawValue)  \(row.key)  \(row.recipient)  tries \(row.attempts)"
                + (row.lastError.map { "  (\($0))" } ?? ""))
        }
    }
}
