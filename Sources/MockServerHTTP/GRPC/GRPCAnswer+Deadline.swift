extension GRPCAnswer {
    /// What of the answer goes out before the request's `deadline`: its messages, each through
    /// `frame` and after its delay, counted from `start` (the wait before the head), and the status
    /// that ends them: the answer's own, or, when a message's delay would pass the deadline, a last
    /// empty piece that waits until it and `DEADLINE_EXCEEDED`. gRPC-Web's answer uses it; gRPC's
    /// `steps(for:delay:headers:)` has the same loop inline.
    package func piecesBefore(_ deadline: Duration?, from start: Duration,
                              frame: ([UInt8]) -> [UInt8]) -> (pieces: [HTTPMockResponse.StreamPiece], status: Int, message: String?) {
        var pieces: [HTTPMockResponse.StreamPiece] = []
        var elapsed = start
        for piece in messages {
            let wait = piece.delay ?? .zero
            if let deadline, elapsed + wait > deadline {
                return (pieces + [HTTPMockResponse.StreamPiece([], delay: deadline - elapsed)], Self.deadlineExceeded, "deadline exceeded")
            }
            elapsed += wait
            pieces.append(HTTPMockResponse.StreamPiece(frame(piece.bytes), delay: piece.delay))
        }
        return (pieces, status, message)
    }
}
