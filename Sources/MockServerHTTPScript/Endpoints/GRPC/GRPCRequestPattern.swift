import MockServerCore
import MockServerHTTP

/// What a gRPC call's request message must have (`"request": {"grpc": {"json": …}}`): the fields
/// given (others ignored, a default matching absence), checked on the call's first message decoded
/// by the method's schema.
package struct GRPCRequestPattern: Sendable {
    /// The fields, in the proto3 JSON mapping (JSON or proto field names).
    package let json: JSONNode
    package let coder: GRPCMessageCoder

    package init(json: JSONNode, coder: GRPCMessageCoder) {
        self.json = json
        self.coder = coder
    }

    /// Whether a request body's first message matches (`false` when the body has no message or it
    /// is not one of the method's request type).
    package func matches(body: [UInt8], encoding: String?) -> Bool {
        guard let messages = try? GRPCMessageCodec.messages(in: body, encoding: encoding), let first = messages.first,
              let message = try? coder.request(first) else { return false }
        return coder.matches(message, pattern: json)
    }

    /// The pattern as the unexpected-request report shows it.
    package var description: String { "gRPC message " + JSONText.write(json, layout: .compact) }
}
