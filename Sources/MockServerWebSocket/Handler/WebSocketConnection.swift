@_spi(HotPath) import MockServerCore
import MockServerHTTP

/// One open WebSocket connection as a Swift handler sees it (a stub's `andUpgradeToWebSocket`):
/// the client's messages as an async sequence, and sends, pushes and the close handshake as async
/// calls. The server does the protocol: it answers pings, checks the client's frames, and runs the
/// close handshake; the transcript records each message both ways.
///
/// ```swift
/// server.stubRequest("GET", "/chat").andUpgradeToWebSocket { socket in
///     for try await message in socket.messages {
///         try await socket.send(.text("echo: \(message)"))
///     }
/// }
/// ```
///
/// ``messages`` ends when the client closes with a close frame (its code is then in
/// ``clientCloseCode()``), and throws ``WebSocketConnection.ClosedError`` when the connection ends otherwise
/// (the client vanished, or broke the protocol). When the handler returns, the server closes the
/// connection with 1000; when it throws, with 1011 and the error as the reason.
public final class WebSocketConnection: Sendable {
    /// The connection's number, as in the transcript.
    public let id: Int
    /// The opening request (its path, query and headers).
    public let request: HTTPMockRequest
    /// The subprotocol agreed in the handshake, if any.
    public let subprotocol: String?
    /// The client's messages, in order, text and binary; fragments arrive put together.
    public let messages: WebSocketConnection.Messages

    /// How many messages the server reads ahead of the handler before it stops reading the
    /// connection (until the handler has taken half of them).
    public static let queueLimit = 64

    private let continuation: AsyncThrowingStream<WebSocketConnection.Message, any Error>.Continuation
    private let inbox: LoopInbox
    private let link: LoopBound<Link>
    private let clientClose = Locked<WebSocketConnection.CloseCode??>(nil)
    /// The messages delivered and not yet taken, and whether the connection stopped reading for them.
    private let queue = Locked((count: 0, paused: false))

    /// The loop's side of the connection, reached only on the loop's thread: weak, so that a
    /// connection that has closed is not kept by a handler that still holds its socket.
    final class Link {
        weak var driver: WebSocketConnectionDriver?
        weak var connection: StreamConnection?

        /// What `body` returns for the open connection's driver; `false` once it has gone.
        func reach(_ body: (WebSocketConnectionDriver, StreamConnection) -> Bool) -> Bool {
            guard let driver, let connection else { return false }
            return body(driver, connection)
        }
    }

    init(id: Int, request: HTTPMockRequest, subprotocol: String?, inbox: LoopInbox) {
        self.id = id
        self.request = request
        self.subprotocol = subprotocol
        self.inbox = inbox
        self.link = LoopBound(Link())
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: WebSocketConnection.Message.self, throwing: (any Error).self)
        self.continuation = continuation
        let queue = queue
        let inbox = inbox
        let bound = self.link
        messages = WebSocketConnection.Messages(stream: stream) {
            let resumes = queue.withLock { state -> Bool in
                state.count -= 1
                guard state.paused, state.count <= Self.queueLimit / 2 else { return false }
                state.paused = false
                return true
            }
            if resumes {
                inbox.execute { _ in
                    _ = bound.value.reach { driver, connection in
                        driver.resumeReading(on: connection)
                        return true
                    }
                }
            }
        }
    }

    /// Sends `message` after whatever the connection has queued.
    ///
    /// - Throws: ``WebSocketConnection.ClosedError`` once the close handshake has begun or the connection has
    ///   ended (the message is not sent).
    public func send(_ message: WebSocketConnection.Message) async throws {
        let sent = await onLoop { driver, connection in driver.push(message, on: connection) }
        if !sent { throw WebSocketConnection.ClosedError(reason: "the connection is closed or closing; \(message) was not sent") }
    }

    /// Sends a text message.
    public func send(_ text: String) async throws {
        try await send(.text(text))
    }

    /// Begins the close handshake with `code` and `reason` (at most 123 bytes of UTF-8, cut at a
    /// character when longer): the server sends its close frame and waits, at most five seconds,
    /// for the client's. Nothing happens once the connection is closing or closed.
    public func close(_ code: WebSocketConnection.CloseCode = .normal, reason: String = "") async {
        _ = await onLoop { driver, connection in
            driver.close(code, reason: reason, on: connection)
            return true
        }
    }

    /// The code of the client's close frame once one has arrived (`.some(nil)` for a close frame
    /// without a code), `nil` before.
    public func clientCloseCode() -> WebSocketConnection.CloseCode?? {
        clientClose.withLock { $0 }
    }

    /// What `body` returns for the connection's driver, on the connection's loop; `false` when the
    /// connection or the loop has ended.
    private func onLoop(_ body: @escaping @Sendable (WebSocketConnectionDriver, StreamConnection) -> Bool) async -> Bool {
        let link = link
        return await withCheckedContinuation { continuation in
            let queued = inbox.execute { _ in continuation.resume(returning: link.value.reach(body)) }
            if !queued { continuation.resume(returning: false) }
        }
    }

    // MARK: From the loop

    /// The connection is open on the loop: sends can reach it.
    func attach(_ driver: WebSocketConnectionDriver, on connection: StreamConnection) {
        link.value.driver = driver
        link.value.connection = connection
    }

    /// The handler returned or threw: the connection closes, if it has not.
    func handlerEnded(_ outcome: Result<Void, any Error>) async {
        _ = await onLoop { driver, connection in
            driver.handlerEnded(outcome, on: connection)
            return true
        }
    }

    /// A message from the client; `true` when the handler now has ``queueLimit`` untaken, and the
    /// connection must stop reading until it takes some (``WebSocketConnectionDriver/resumeReading(on:)``).
    func deliver(_ message: WebSocketConnection.Message) -> Bool {
        let full = queue.withLock { state -> Bool in
            state.count += 1
            guard state.count >= Self.queueLimit else { return false }
            state.paused = true
            return true
        }
        continuation.yield(message)
        return full
    }

    /// The client's close frame arrived: the messages end.
    func clientClosed(_ code: WebSocketConnection.CloseCode?) {
        clientClose.withLock { $0 = .some(code) }
        continuation.finish()
    }

    /// The connection ended; without the client's close frame, the messages end with `error`.
    func ended(_ error: WebSocketConnection.ClosedError) {
        continuation.finish(throwing: error)
    }
}
