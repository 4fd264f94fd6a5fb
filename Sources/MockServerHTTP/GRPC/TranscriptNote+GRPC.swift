import MockServerCore

extension Transcript.Note {
    /// The gRPC messages of `request`'s body, one note each (`grpc-message`: its number, length and
    /// bytes in hex), or one note (`grpc-framing`) naming why the body is not messages; none when the
    /// request is not gRPC (`content-type: application/grpc…`, gRPC-Web's text form decoded first).
    package static func grpcMessages(of request: HTTPMockRequest) -> [Transcript.Note] {
        // An empty body has no messages (most requests: no header lookup for them).
        guard request.hasBody, let type = request.headers["Content-Type"], type.lowercased().hasPrefix("application/grpc") else { return [] }
        do {
            let messages = try GRPCMessageCodec.messages(in: GRPCWebFormat.messageBytes(of: request), encoding: request.headers["grpc-encoding"])
            return messages.enumerated().map { index, bytes in
                let hex = bytes.map { HTTPSyntax.hex($0).dropFirst(2) }.joined()
                return Transcript.Note(kind: "grpc-message", text: "<- gRPC message \(index + 1), \(bytes.count) bytes: \(hex)", bytes: bytes.count)
            }
        } catch {
            return [Transcript.Note(kind: "grpc-framing", text: "<- \(error)")]
        }
    }
}
