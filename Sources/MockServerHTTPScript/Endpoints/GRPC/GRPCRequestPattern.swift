import MockServerCore
import MockServerHTTP
import MockServerProtobuf

/// What a gRPC call's request message must have (`"request": {"grpc": {"json": …}}`): the fields
/// given (others ignored, a default matching absence), checked on the call's first message decoded
/// by the method's schema.
package struct GRPCRequestPattern: Sendable {
    /// The fields, as written (JSON or proto field names), for reports.
    package let json: JSONNode
    /// The fields read by the request type's schema.
    package let pattern: ProtoJSONPattern
    package let coder: GRPCMessageCoder

    /// The pattern `json` for the requests of `coder`'s method.
    ///
    /// - Throws: ``MockServerProtobuf/ProtoJSONError`` when `json` is not a message of the request's
    ///   type (an unknown field, a wrong type, a value out of range).
    package init(json: JSONNode, coder: GRPCMessageCoder) throws(ProtoJSONError) {
        self.json = json
        self.coder = coder
        pattern = try coder.codec.pattern(json, type: coder.method.inputType)
    }

    /// Whether the request message `message` (decoded as ``GRPCMessageCoder/request(_:)`` decodes it) matches.
    package func matches(_ message: JSONNode) -> Bool {
        pattern.matches(message)
    }

    /// Whether a request body's first message matches (`false` when the body has no message or it
    /// is not one of the method's request type).
    package func matches(body: [UInt8], encoding: String?) -> Bool {
        guard let messages = try? GRPCMessageCodec.messages(in: body, encoding: encoding), let first = messages.first,
              let message = try? coder.request(first) else { return false }
        return pattern.matches(message)
    }

    /// The pattern as the unexpected-request report shows it.
    package var description: String { "gRPC message " + JSONText.write(json, layout: .compact) }
}
