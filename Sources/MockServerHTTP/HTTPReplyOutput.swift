import MockServerCore

/// What only HTTP's driver sends in a reply (a ``MockServerCore/ReplyStep/output(_:)``): the output
/// type of HTTP replies, whether a script, a stub or a responder of one's own makes them.
package enum HTTPReplyOutput: Sendable {
    /// A response, written by ``HTTPResponseSerializer`` for the request it answers.
    case response(HTTPMockResponse)
    /// `100 Continue`: in an answer to a request head, lets the client send the body.
    case continueRequest
    /// Switches the connection to another protocol (a WebSocket, say): the upgrade answers the
    /// request (`101 Switching Protocols`, or a refusal), and from then on the connection's bytes are
    /// the new protocol's. It must be the last step; any after it are not carried out.
    case upgrade(HTTPUpgrade)
    /// An HTTP/2 fault in place of a response (``HTTPStreamFault``); on HTTP/1.1 it acts on the connection.
    case streamFault(HTTPStreamFault)
}
