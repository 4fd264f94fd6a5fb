/// What a driver does next for a reply, as ``ReplyInterpreter`` reads the reply's ``ReplyStep``s:
/// the steps with every ``ReplyStep/then(_:)`` worked out, the end of the reply made explicit, and
/// nothing after the step that ends it.
///
/// The meaning of an action on a protocol is its driver's: a ``close`` is a FIN on HTTP/1.1 and a
/// stream that ends before a GOAWAY on HTTP/2; a ``fault(_:)`` acts on a connection or a stream.
///
/// `@_spi(HotPath)`: drivers in other modules have the interpreter specialised and inlined (see
/// ``ReplyInterpreter``).
@_spi(HotPath) @frozen public enum ReplyAction<Output: Sendable> {
    /// Writes the bytes as they are.
    case send([UInt8])
    /// Waits, holding no thread, before the driver asks for the next action.
    case pause(Duration)
    /// Network conditions from here on, once what came before is written; `nil` lifts them.
    case conditions(NetworkConditions?)
    /// The driver's own output (an HTTP response, a WebSocket message).
    case output(Output)
    /// A failure on demand. One that ends what the reply can send (``StreamFault/reset``,
    /// ``StreamFault/halfClose``, ``StreamFault/hang``: see ``ReplyInterpreter/ends(_:)``) is the
    /// reply's last action; the others shape the sends that follow it.
    case fault(StreamFault)
    /// Closes, once what came before is sent: the reply's last action.
    case close
    /// The steps ran out: the reply is over and its protocol decides what follows (the next request).
    case end
}
