import Foundation
import MailFormat
import NIOCore
import NIOPosix
import NIOSSL

/// Where and how `saessak serve` hands its mail over: an SMTP submission server.
public struct SMTPSettings: Sendable {
    public enum Security: String, Sendable, CaseIterable {
        /// Plain connection upgraded by STARTTLS (port 587); refused if the server does not offer it.
        case starttls
        /// TLS from the first byte (port 465).
        case tls
        /// No encryption: only for a relay on this machine or a trusted network.
        case none
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// From the environment (`SAESSAK_SMTP_USERNAME`, `SAESSAK_SMTP_PASSWORD`), never the command line.
    public var username: String?
    public var password: String?
    /// A PEM file of certificates to trust besides the system's (a home server's own CA).
    public var trustedCertificates: String?
    /// The name this server gives in EHLO.
    public var heloName: String
    /// How long one message may take, connection to QUIT.
    public var timeout: TimeAmount

    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil,
        trustedCertificates: String? = nil, heloName: String = "saessak.localhost", timeout: TimeAmount = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.trustedCertificates = trustedCertificates
        self.heloName = heloName
        self.timeout = timeout
    }
}

/// What became of one message.
public enum SMTPOutcome: Sendable, Equatable {
    /// The server took it (250 after the message's last line).
    case sent
    /// Not taken, and it may work later (a 4yz reply, no connection, a timeout before the message was handed over).
    case retry(String)
    /// Not taken, and it will not work however often it is tried (a 5yz reply).
    case refused(String)
    /// The message went out whole but no answer came: it may have been taken. Never sent again (no mail twice).
    case unknown(String)
}

/// A minimal SMTP client (RFC 5321) over SwiftNIO: EHLO, STARTTLS (RFC 3207), AUTH PLAIN or LOGIN (RFC 4954), one
/// message to one recipient, QUIT. One connection per message: digests are few and far between.
public struct SMTPClient: Sendable {
    public let settings: SMTPSettings
    private let tls: NIOSSLContext?

    public init(settings: SMTPSettings) throws {
        self.settings = settings
        if settings.security == .none {
            tls = nil
        } else {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            if let file = settings.trustedCertificates { configuration.additionalTrustRoots = [.file(file)] }
            tls = try NIOSSLContext(configuration: configuration)
        }
    }

    /// Sends `message` (already rendered) from `sender` to `recipient`.
    public func send(_ message: Data, from sender: MailAddress, to recipient: MailAddress) async -> SMTPOutcome {
        let conversation: Conversation
        do {
            conversation = try await connect()
        } catch {
            return .retry("connect: \(error)")
        }
        defer { conversation.close() }
        var handedOver = false
        do {
            try await conversation.expect(220, "greeting")
            var hello = try await conversation.command("EHLO \(settings.heloName)", expecting: 250, "EHLO")
            if settings.security == .starttls {
                guard hello.extensions["STARTTLS"] != nil else { return .retry("the server does not offer STARTTLS") }
                _ = try await conversation.command("STARTTLS", expecting: 220, "STARTTLS")
                try await conversation.startTLS(tls, hostname: settings.host)
                hello = try await conversation.command("EHLO \(settings.heloName)", expecting: 250, "EHLO")
            }
            if let username = settings.username, let password = settings.password {
                try await authenticate(conversation, offered: hello.extensions["AUTH"] ?? [], username: username, password: password)
            }
            _ = try await conversation.command("MAIL FROM:<\(sender)>", expecting: 250, "MAIL FROM")
            _ = try await conversation.command("RCPT TO:<\(recipient)>", expecting: 250, "RCPT TO", alsoAccepting: 251)
            _ = try await conversation.command("DATA", expecting: 354, "DATA")
            handedOver = true
            try await conversation.write(SMTPData.stuffed(Array(message)))
            try await conversation.expect(250, "the message")
            _ = try? await conversation.command("QUIT", expecting: 221, "QUIT")
            return .sent
        } catch let failure as Failure {
            switch failure {
            case .reply(let step, let reply) where reply.isPermanent: return .refused("\(step): \(reply.summary)")
            case .reply(let step, let reply): return .retry("\(step): \(reply.summary)")
            case .broken(let why): return handedOver ? .unknown(why) : .retry(why)
            }
        } catch {
            return handedOver ? .unknown("\(error)") : .retry("\(error)")
        }
    }

    /// Greets the server as a message would (EHLO, STARTTLS when set, and EHLO again) and says goodbye; nil when it
    /// answered, else what went wrong (`saessak doctor`).
    public func hello() async -> String? {
        let conversation: Conversation
        do {
            conversation = try await connect()
        } catch {
            return "connect: \(error)"
        }
        defer { conversation.close() }
        do {
            try await conversation.expect(220, "greeting")
            let hello = try await conversation.command("EHLO \(settings.heloName)", expecting: 250, "EHLO")
            if settings.security == .starttls {
                guard hello.extensions["STARTTLS"] != nil else { return "the server does not offer STARTTLS" }
                _ = try await conversation.command("STARTTLS", expecting: 220, "STARTTLS")
                try await conversation.startTLS(tls, hostname: settings.host)
                _ = try await conversation.command("EHLO \(settings.heloName)", expecting: 250, "EHLO")
            }
            _ = try? await conversation.command("QUIT", expecting: 221, "QUIT")
            return nil
        } catch let failure as Failure {
            switch failure {
            case .reply(let step, let reply): return "\(step): \(reply.summary)"
            case .broken(let why): return why
            }
        } catch {
            return "\(error)"
        }
    }

    private func authenticate(_ conversation: Conversation, offered: [String], username: String, password: String) async throws {
        guard settings.security != .none || ["127.0.0.1", "::1", "localhost"].contains(settings.host) else {
            throw Failure.broken("credentials are sent only over TLS or to this machine")
        }
        if offered.contains("PLAIN") || !offered.contains("LOGIN") {
            let token = Data(([0] + Array(username.utf8) + [0] + Array(password.utf8))).base64EncodedString()
            _ = try await conversation.command("AUTH PLAIN \(token)", expecting: 235, "AUTH")
        } else {
            _ = try await conversation.command("AUTH LOGIN", expecting: 334, "AUTH")
            _ = try await conversation.command(Data(username.utf8).base64EncodedString(), expecting: 334, "AUTH")
            _ = try await conversation.command(Data(password.utf8).base64EncodedString(), expecting: 235, "AUTH")
        }
    }

    private func connect() async throws -> Conversation {
        let replies = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let tls = settings.security == .tls ? self.tls : nil
        let host = settings.host
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(15))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: Conversation.sniName(host)))
                    }
                    try channel.pipeline.syncOperations.addHandler(ReplyHandler(replies.continuation))
                }
            }
            .connect(host: settings.host, port: settings.port).get()
        let deadline = channel.eventLoop.scheduleTask(in: settings.timeout) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in deadline.cancel() }
        return Conversation(channel: channel, replies: replies.stream.makeAsyncIterator())
    }

    enum Failure: Error {
        case reply(String, SMTPReply)
        case broken(String)
    }
}

/// One SMTP connection: commands out, replies in, in turn.
final class Conversation: @unchecked Sendable {
    // Used by one task at a time (the send), never concurrently.
    private let channel: any Channel
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    init(channel: any Channel, replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator) {
        self.channel = channel
        self.replies = replies
    }

    /// SNI carries host names only, never an address.
    static func sniName(_ host: String) -> String? {
        host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
    }

    @discardableResult
    func expect(_ code: Int, _ step: String, alsoAccepting other: Int? = nil) async throws -> SMTPReply {
        guard let reply = try await replies.next() else { throw SMTPClient.Failure.broken("the server closed the connection at \(step)") }
        guard reply.code == code || reply.code == other else { throw SMTPClient.Failure.reply(step, reply) }
        return reply
    }

    func command(_ line: String, expecting code: Int, _ step: String, alsoAccepting other: Int? = nil) async throws -> SMTPReply {
        try await write(Array((line + "\r\n").utf8))
        return try await expect(code, step, alsoAccepting: other)
    }

    func write(_ bytes: [UInt8]) async throws {
        do {
            try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes)).get()
        } catch {
            throw SMTPClient.Failure.broken("the connection broke: \(error)")
        }
    }

    func startTLS(_ context: NIOSSLContext?, hostname: String) async throws {
        guard let context else { throw SMTPClient.Failure.broken("no TLS context") }
        let name = Self.sniName(hostname)
        try await channel.eventLoop.submit { [channel] in
            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: name), position: .first)
        }.get()
    }

    func close() { channel.close(promise: nil) }
}

/// Turns the server's bytes into replies for the conversation; a server that breaks the grammar ends it.
final class ReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var reader = SMTPReplyReader()
    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) { self.continuation = continuation }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        do {
            try reader.append(buffer.readableBytesView)
            while let reply = try reader.next() { continuation.yield(reply) }
        } catch {
            continuation.finish(throwing: SMTPClient.Failure.broken("the server's reply is not SMTP: \(error)"))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: SMTPClient.Failure.broken("\(error)"))
        context.close(promise: nil)
    }
}
