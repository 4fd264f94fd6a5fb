/// One step of a reply, in the one step language every driver speaks: what the script interpreter
/// works out and a connection carries out (see ``ReplyPerformer``).
///
/// The steps every protocol has are here; what only one protocol's driver knows how to send (an
/// HTTP response written for the request it answers, a WebSocket frame, work on an FTP control
/// connection) is an ``output(_:)`` of that protocol's own `Output` type, so a step of one
/// protocol cannot reach another's driver. A protocol with nothing of its own uses `Never`, and
/// its steps fit every driver (``widened(to:)``).
public enum ReplyStep<Output: Sendable>: Sendable {
    /// Bytes sent exactly as given.
    case send([UInt8])
    /// A wait before the next step; the connection holds no thread meanwhile.
    case pause(Duration)
    /// Closes the connection once what came before is sent.
    case close
    /// A failure on demand.
    case fault(StreamFault)
    /// Network conditions from here on, once what came before is written; `nil` lifts them.
    case conditions(NetworkConditions?)
    /// Something only the driver of the script's protocol knows how to send, such as an HTTP
    /// response written for the request it answers.
    case output(Output)
    /// Works out more steps when it is reached, on the server's thread, once the steps before it
    /// have been sent and their pauses waited out; the steps it returns run next, before any step
    /// that follows it. It must return quickly.
    case then(@Sendable () -> [ReplyStep<Output>])
}

extension ReplyStep where Output == Never {
    /// The step as one of a driver whose output is `Other`: a step without output fits every driver.
    @inlinable
    public func widened<Other>(to other: Other.Type = Other.self) -> ReplyStep<Other> {
        switch self {
        case .send(let bytes): .send(bytes)
        case .pause(let duration): .pause(duration)
        case .close: .close
        case .fault(let fault): .fault(fault)
        case .conditions(let conditions): .conditions(conditions)
        case .then(let rest): .then { rest().map { $0.widened() } }
        }
    }
}
