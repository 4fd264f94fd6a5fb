import MockServerCore

/// A switch from HTTP to another protocol on the same connection, as the last step of a reply
/// (``HTTPReplyOutput/upgrade(_:)``): the protocol's target (WebSocket's, for a stub's
/// `andUpgradeToWebSocket`) makes one, and the HTTP connection hands its bytes over to it.
///
/// ```swift
/// let reply = HTTPReply(steps: [.output(.upgrade(upgrade))])
/// ```
package struct HTTPUpgrade: Sendable {
    /// What an upgrade does with the request that asked for it.
    package enum Outcome {
        /// Send `response` (`101 Switching Protocols`), then hand the connection to `driver`.
        case switchProtocols(response: [UInt8], driver: any StreamDriver)
        /// Send `response` (an HTTP error) and close the connection, for `reason`.
        case refuse(response: [UInt8], reason: String)
    }

    /// The protocol's name, for the transcript and the log (`websocket`).
    package let name: String
    /// Works out the outcome for the request, on the connection's loop, whose inbox it is given.
    package let start: @Sendable (HTTPMockRequest, HTTPRequestContext, LoopInbox) -> Outcome

    /// An upgrade to `name`, which `start` carries out.
    package init(name: String, start: @escaping @Sendable (HTTPMockRequest, HTTPRequestContext, LoopInbox) -> Outcome) {
        self.name = name
        self.start = start
    }
}
