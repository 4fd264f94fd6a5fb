import MockServerScript

/// The payload of a message or control frame that a script sends.
package enum WebSocketPayload: Sendable, Hashable {
    /// Text after substitutions (`$1`, `$date`, …).
    case template(ResponseTemplate)
    /// Bytes exactly as given (`{"hex": …}`, `{"base64": …}` in a response file).
    case bytes([UInt8])
    /// The selected file's bytes, or the server's data (`"«data»"`).
    case data

    /// The payload's bytes for `match`, with the reply's current values.
    func render(_ match: ScriptRun.Match, in reply: ScriptRun) -> [UInt8] {
        switch self {
        case .template(let template): reply.render(template, match: match)
        case .bytes(let bytes): bytes
        case .data: reply.values.data
        }
    }
}
