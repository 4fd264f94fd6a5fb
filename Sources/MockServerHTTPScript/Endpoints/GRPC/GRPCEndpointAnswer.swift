import MockServerCore
import MockServerHTTP

/// An endpoint's `"grpc"` answer as an endpoints file writes it: the messages, the status that ends
/// the call, and for a call that streams from the client, the `"each"` rules that answer each of its
/// messages as it arrives. ``coder`` converts JSON messages by the method's schema, when one is loaded.
package struct GRPCEndpointAnswer: Sendable {
    /// Sent once, after the client's last message (all the answer, without `each`).
    package var messages: [GRPCEndpointMessage]
    /// The status after them.
    package var end: GRPCEndpointStatus
    /// An HTTP/2 fault that ends the call after the messages instead of the status (`"reset"`,
    /// `"goaway"`, …): a server stream broken after message N.
    package var fault: HTTPStreamFault?
    /// Rules for each message the client sends, as it arrives (`"each"`); `nil` when the call is
    /// answered once, after its last message.
    package var each: [GRPCEndpointRule]?
    /// The method's messages' schema, when one is loaded that has the endpoint's method.
    package var coder: GRPCMessageCoder?
    /// The loaded schemas (error details are read by google/rpc's), when any are.
    package var schema: GRPCSchema?

    package init(messages: [GRPCEndpointMessage] = [], end: GRPCEndpointStatus = GRPCEndpointStatus(), each: [GRPCEndpointRule]? = nil,
                 coder: GRPCMessageCoder? = nil, schema: GRPCSchema? = nil) {
        self.messages = messages
        self.end = end
        self.each = each
        self.coder = coder
        self.schema = schema
    }

    /// The answer as the bytes-only ``MockServerHTTP/GRPCAnswer`` when it is the same for every call (no
    /// `each`, no `${…}` value): converted once, so that a call costs what a bytes answer costs.
    package var constant: GRPCAnswer? {
        guard each == nil, fault == nil, end.message?.isConstant ?? true, end.details.allSatisfy(\.isConstant) else { return nil }
        var pieces: [HTTPMockResponse.StreamPiece] = []
        for message in messages {
            guard let bytes = message.constantBytes else { return nil }
            pieces.append(HTTPMockResponse.StreamPiece(bytes, delay: message.delay))
        }
        let text = end.message?.render { _, _ in nil }
        var details: [UInt8]?
        if !end.details.isEmpty {
            guard let schema, let bytes = try? schema.statusDetails(code: end.code, message: text, details: end.details, values: { _, _ in nil }) else { return nil }
            details = bytes
        }
        return GRPCAnswer(messages: pieces, status: end.code, message: text, details: details)
    }
}
