import MockServerCore
import MockServerHTTP
import MockServerScript

extension HTTPUpgrade {
    /// An upgrade to a WebSocket answered by `handler`: the opening handshake is checked as
    /// RFC 6455 asks (a request that is not one gets 400, 405 or 426 and a reason), and the handler
    /// gets the open connection.
    ///
    /// - Parameters:
    ///   - name: what the transcript names the messages' answer (a stub's description).
    ///   - subprotocols: those spoken, preferred first; the first the client offers is agreed.
    ///   - maximumMessageLength: the longest message taken (1009 beyond it).
    package static func webSocket(name: String?, subprotocols: [String], maximumMessageLength: Int,
                                  handler: @escaping @Sendable (WebSocketConnection) async throws -> Void) -> HTTPUpgrade {
        HTTPUpgrade(name: "websocket") { request, context, inbox in
            switch WebSocketHandshake.answer(request, path: nil, subprotocols: subprotocols) {
            case .reject(let response, let reason):
                return .refuse(response: response, reason: reason)
            case .accept(let response, let subprotocol):
                var options = WebSocketOptions()
                options.subprotocols = subprotocols
                options.maximumMessageLength = maximumMessageLength
                let socket = WebSocketConnection(id: context.connectionID, request: request, subprotocol: subprotocol, inbox: inbox)
                let driver = WebSocketConnectionDriver(socket: socket, name: name, options: options)
                driver.startHandler(handler)
                return .switchProtocols(response: response, driver: driver)
            }
        }
    }

    /// An upgrade to a WebSocket answered by `responder`'s script (an endpoint's `"upgrade"`), as
    /// a server started with that script answers its connections after their handshake, on the
    /// server's transcript and files; the script's `path`, `subprotocols` and `max-message` check
    /// the handshake. The transcript names each message's answer by the script's response names.
    package static func webSocket(answeredBy responder: PatternResponder) -> HTTPUpgrade {
        let options = WebSocketOptions(script: responder.responseScript)
        return HTTPUpgrade(name: "websocket") { request, _, _ in
            switch WebSocketHandshake.answer(request, path: options.path, subprotocols: options.subprotocols) {
            case .reject(let response, let reason):
                return .refuse(response: response, reason: reason)
            case .accept(let response, let subprotocol):
                let driver = WebSocketConnectionDriver(upgradedTo: responder, request: request, subprotocol: subprotocol, options: options)
                return .switchProtocols(response: response, driver: driver)
            }
        }
    }
}
