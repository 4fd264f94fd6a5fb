import MockServerHTTP
import MockServerScript
import MockServerWebSocket

/// What a stub that answers with a WebSocket keeps: a Swift handler with the subprotocols it speaks
/// and the longest message it takes, or a WebSocket script (an endpoint's `"upgrade"`).
package struct WebSocketStub: Sendable {
    private enum Answerer: Sendable {
        case handler(subprotocols: [String], maximumMessageLength: Int, @Sendable (WebSocketConnection) async throws -> Void)
        case script(PatternResponder)
    }

    private let answerer: Answerer

    /// Connections answered by `handler`.
    init(subprotocols: [String], maximumMessageLength: Int, handler: @escaping @Sendable (WebSocketConnection) async throws -> Void) {
        answerer = .handler(subprotocols: subprotocols, maximumMessageLength: maximumMessageLength, handler)
    }

    /// Connections answered by `responder`'s script (an endpoint's `"upgrade"`).
    init(responder: PatternResponder) {
        answerer = .script(responder)
    }

    /// The upgrade that answers one request, its messages named `name` in the transcript (a
    /// handler's; a script's are named by its responses).
    func upgrade(name: String) -> HTTPUpgrade {
        switch answerer {
        case .handler(let subprotocols, let maximumMessageLength, let handler):
            .webSocket(name: name, subprotocols: subprotocols, maximumMessageLength: max(0, maximumMessageLength), handler: handler)
        case .script(let responder):
            .webSocket(answeredBy: responder)
        }
    }
}
