import MockServerCore

/// A protocol that the core has never heard of, added in a test target: each message is a 2-byte
/// big-endian length and that many bytes, answered with the same message reversed. A message
/// `QUIT` closes the connection; a length over 1,024 is an error.
///
/// It shows that a driver needs nothing from the core but ``StreamDriver``: it frames its own
/// input (here, changing what it waits for mid-stream: a length, then a body), and answers with
/// steps.
final class LengthPrefixedEchoDriver: StreamDriver {
    /// What the driver waits for next.
    private enum State {
        case length
        case body(Int)
    }

    private var buffer: [UInt8] = []
    private var state = State.length

    func opened(_ connection: StreamConnection) -> [StreamStep] {
        [.send(Self.message(Array("HELLO".utf8)))]
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        buffer.append(contentsOf: bytes)
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        switch state {
        case .length:
            guard buffer.count >= 2 else {
                return inputEnded ? .finish(buffer.isEmpty ? .peerClosed : .malformedInput("a partial length")) : .needInput
            }
            let length = Int(buffer[0]) << 8 | Int(buffer[1])
            buffer.removeFirst(2)
            guard length <= 1024 else { return .finish(.inputTooLong(limit: 1024)) }
            state = .body(length)
            return next(on: connection, inputEnded: inputEnded)
        case .body(let length):
            guard buffer.count >= length else { return inputEnded ? .finish(.malformedInput("a partial message")) : .needInput }
            let body = Array(buffer.prefix(length))
            buffer.removeFirst(length)
            state = .length
            connection.record(.input(InputUnit(bytes: body), response: "echo"))
            if body == Array("QUIT".utf8) { return .steps([.send(Self.message(Array("BYE".utf8))), .close(.script)]) }
            return .steps([.send(Self.message(body.reversed()))])
        }
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {}

    static func message(_ body: [UInt8]) -> [UInt8] {
        [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }
}
