import MockServerScript

/// The commands a WebSocket script adds to those every script has. A plain text command sends a
/// text message; these send the rest.
///
/// ```swift
/// let commands: [ScriptCommand] = [
///     .command(WebSocketScriptCommand.binary(.bytes([0x01, 0x02]))),
///     .command(WebSocketScriptCommand.close(.normal, reason: "done")),
/// ]
/// ```
package enum WebSocketScriptCommand: ProtocolCommand {
    /// A binary message (`{"binary": …}`).
    case binary(WebSocketPayload)
    /// A ping (`«ping»`, `{"ping": …}`); the client's pong is read and dropped.
    case ping(WebSocketPayload)
    /// An unasked pong (`{"pong": …}`).
    case pong(WebSocketPayload)
    /// A close frame with `code` and `reason`, beginning the close handshake (`{"close": 1001, "reason": "…"}`).
    case close(WebSocketConnection.CloseCode, reason: String)
    /// Any frame, valid or not, for testing a client's error handling
    /// (`{"frame": {"opcode": 3, "fin": false, "rsv": 4, "payload": …}}`).
    case frame(fin: Bool, reserved: UInt8, opcode: UInt8, payload: WebSocketPayload)
    /// Closes the TCP connection without a close frame (`«disconnect»`).
    case disconnect
    /// Leaves the client's pings unanswered from now on (`«ignore-pings»`).
    case ignorePings

    package var runsWhenReached: Bool { false }

    package func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<WebSocketOutput> {
        let output: WebSocketOutput
        switch self {
        case .binary(let payload): output = .frame(WebSocketFrame(opcode: .binary, payload: payload.render(match, in: reply)))
        case .ping(let payload): output = .frame(WebSocketFrame(opcode: .ping, payload: Array(payload.render(match, in: reply).prefix(125))))
        case .pong(let payload): output = .frame(WebSocketFrame(opcode: .pong, payload: Array(payload.render(match, in: reply).prefix(125))))
        case .close(let code, let reason): output = .close(code, reason: reason)
        case .frame(let fin, let reserved, let opcode, let payload):
            output = .frame(WebSocketFrame(fin: fin, reserved: reserved, opcode: opcode, payload: payload.render(match, in: reply)))
        case .disconnect: output = .disconnect
        case .ignorePings: output = .ignorePings
        }
        return .continue([.output(output)])
    }
}
