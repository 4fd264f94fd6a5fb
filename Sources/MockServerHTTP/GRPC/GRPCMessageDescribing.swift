/// A responder that can show a gRPC request message as text (its JSON, decoded by a loaded
/// schema), for the transcript's note beside the message's bytes.
package protocol GRPCMessageDescribing: Sendable {
    /// The request message `message` of the call to `path` as text, or `nil` when the responder
    /// has no schema for it (the note then shows the bytes alone).
    func describeGRPCRequestMessage(_ message: [UInt8], path: String) -> String?
}
