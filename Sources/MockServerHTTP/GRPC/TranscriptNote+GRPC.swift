import MockServerCore

extension Transcript.Note {
    /// The gRPC messages of `request`'s body, one note each (`grpc-message`: its number, length and
    /// bytes in hex), or one note (`grpc-framing`) naming why the body is not messages; none when the
    /// request is not gRPC (`content-type: application/grpc…`, gRPC-Web's text form decoded first).
    /// When `responder` can describe the messages (``GRPCMessageDescribing``: a loaded schema), each
    /// note adds its JSON after the bytes.
    package static func grpcMessages(of request: HTTPMockRequest, responder: (any HTTPMockResponder)? = nil) -> [Transcript.Note] {
        // An empty body has no messages (most requests: no header lookup for them).
        guard request.hasBody, let type = request.headers["Content-Type"], type.lowercased().hasPrefix("application/grpc") else { return [] }
        do {
            let messages = try GRPCMessageCodec.messages(in: GRPCWebFormat.messageBytes(of: request), encoding: request.headers["grpc-encoding"])
            let describer = responder as? any GRPCMessageDescribing
            return messages.enumerated().map { index, bytes in
                let hex = bytes.map { HTTPSyntax.hex($0).dropFirst(2) }.joined()
                var text = "<- gRPC message \(index + 1), \(bytes.count) bytes: \(hex)"
                if let json = describer?.describeGRPCRequestMessage(bytes, path: request.path) { text += " " + json }
                return Transcript.Note(kind: "grpc-message", text: text, bytes: bytes.count)
            }
        } catch {
            return [Transcript.Note(kind: "grpc-framing", text: "<- \(error)")]
        }
    }
}
