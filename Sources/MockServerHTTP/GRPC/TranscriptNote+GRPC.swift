import MockServerCore

extension Transcript.Note {
    /// The gRPC messages of `request`'s body, one note each (`grpc-message`: its number, length and
    /// bytes in hex), or one note (`grpc-framing`) naming why the body is not messages; none when the
    /// request is not gRPC (`content-type: application/grpc…`, gRPC-Web's text form decoded first).
    /// When `responder` can describe the messages (``GRPCMessageDescribing``: a loaded schema), each
    /// note adds its JSON after the bytes.
    package static func grpcMessages(of request: HTTPMockRequest, responder: (any HTTPMockResponder)? = nil) -> [Transcript.Note] {
        // An empty body has no messages (most requests: no header lookup for them).
        guard request.hasBody, let type = request.headers["Content-Type"], type.hasPrefixIgnoringASCIICase(lowercased: "application/grpc") else { return [] }
        do {
            let messages = try GRPCMessageCodec.messages(in: GRPCWebFormat.messageBytes(of: request), encoding: request.headers["grpc-encoding"])
            // Rendered when the transcript is read, not on every call (the JSON and the hex were about
            // a fifth of a gRPC call's instructions: BENCHMARKS.md, session 32); the responder is asked
            // whether it describes messages then too (a dynamic cast: about 1,000 instructions).
            let path = request.path
            return messages.enumerated().map { index, bytes in
                Transcript.Note(kind: "grpc-message", bytes: bytes.count) {
                    let describer = responder as? any GRPCMessageDescribing
                    return grpcMessageText(number: index + 1, bytes, json: describer?.describeGRPCRequestMessage(bytes, path: path))
                }
            }
        } catch {
            return [Transcript.Note(kind: "grpc-framing", text: "<- \(error)")]
        }
    }

    /// The note of request message `number`: `<- gRPC message 1, 2 bytes: 082a`, and its JSON after
    /// the bytes when there is a schema for it.
    package static func grpcMessage(number: Int, _ bytes: [UInt8], json: String?) -> Transcript.Note {
        Transcript.Note(kind: "grpc-message", text: grpcMessageText(number: number, bytes, json: json), bytes: bytes.count)
    }

    /// The text of request message `number`'s note.
    private static func grpcMessageText(number: Int, _ bytes: [UInt8], json: String?) -> String {
        var text = "<- gRPC message \(number), \(bytes.count) bytes: " + Hex.lowercase(bytes)
        if let json { text += " " + json }
        return text
    }
}
