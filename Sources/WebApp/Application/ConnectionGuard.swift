import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// How long a connection may do nothing useful, and how many one address may hold (issue 17: connections that
/// sent half a request head, idled between requests or stalled mid-upload stayed open for ever, and a few
/// hundred of them exhausted the server).
public struct ConnectionLimits: Sendable {
    /// A request head must arrive whole within this long after the connection opens or the last response ends: the
    /// keep-alive idle time, and the time a slow client has to send its headers.
    public var headerTimeout: TimeAmount
    /// A request body must move at least one byte in this long.
    public var bodyStallTimeout: TimeAmount
    /// Connections open at once from one IP address (a family behind one home router shares it).
    public var maxConnectionsPerAddress: Int

    public static let standard = ConnectionLimits(headerTimeout: .seconds(30), bodyStallTimeout: .seconds(60), maxConnectionsPerAddress: 64)

    public init(headerTimeout: TimeAmount, bodyStallTimeout: TimeAmount, maxConnectionsPerAddress: Int) {
        self.headerTimeout = headerTimeout
        self.bodyStallTimeout = bodyStallTimeout
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
    }
}

/// Open connections per remote address, shared by every connection's guard.
final class ConnectionCounts: Sendable {
    private let counts = NIOLockedValueBox<[String: Int]>([:])

    /// Counts one more from `address`; false (and not counted) when that would pass `limit`.
    func open(_ address: String, limit: Int) -> Bool {
        counts.withLockedValue { counts in
            guard counts[address, default: 0] < limit else { return false }
            counts[address, default: 0] += 1
            return true
        }
    }

    func close(_ address: String) {
        counts.withLockedValue { counts in
            counts[address, default: 1] -= 1
            if counts[address] == 0 { counts[address] = nil }
        }
    }
}

/// One per connection, just after HTTP decoding: closes a connection over its address's limit at once, one whose
/// next request head does not arrive in time, and one whose request body stops moving.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private let counts: ConnectionCounts
    private var address: String?
    private var deadline: Scheduled<Void>?
    private var bodyBytes = 0
    private var readingBody = false

    init(limits: ConnectionLimits, counts: ConnectionCounts) {
        self.limits = limits
        self.counts = counts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard counts.open(address, limit: limits.maxConnectionsPerAddress) else {
            context.close(promise: nil)
            return
        }
        self.address = address
        awaitHead(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    /// Stops the clock and gives the address its place back, once, whichever of the two comes first.
    private func release() {
        deadline?.cancel()
        if let address { counts.close(address) }
        address = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            readingBody = true
            bodyBytes = 0
            watchBody(context, seen: 0)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            readingBody = false
            deadline?.cancel()  // the response is being made: no clock until it has gone
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The next head's clock starts when this response has gone out, so a long download is never cut.
            let promise = promise ?? context.eventLoop.makePromise()
            promise.futureResult.assumeIsolated().whenSuccess { [self] in
                if !readingBody { awaitHead(context) }
            }
            context.write(data, promise: promise)
            return
        }
        context.write(data, promise: promise)
    }

    /// Closes the connection unless a request head arrives within the header timeout.
    private func awaitHead(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limits.headerTimeout) { [self] in
            guard !readingBody else { return }
            context.close(promise: nil)
        }
    }

    /// Closes the connection if the body has not moved since the last look, one stall timeout ago.
    private func watchBody(_ context: ChannelHandlerContext, seen: Int) {
        deadline?.cancel()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: limits.bodyStallTimeout) { [self] in
            guard readingBody else { return }
            if bodyBytes == seen {
                context.close(promise: nil)
            } else {
                watchBody(context, seen: bodyBytes)
            }
        }
    }
}
