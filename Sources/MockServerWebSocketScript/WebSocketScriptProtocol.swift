import MockServerCore
import MockServerScript
import MockServerWebSocket

/// WebSocket's part of the script language (RFC 6455): scripts with `scheme` `websocket` (or `ws`,
/// `wss`) upgrade each connection, run `«initial»` after the handshake, and answer each message
/// (text, or binary as bytes) with the first response whose pattern matches it.
///
/// A text command sends a text message. WebSocket adds `{"binary": …}`, `«ping»` and
/// `{"ping": …}`, `{"pong": …}`, `{"close": CODE, "reason": "…"}`, `{"frame": {…}}` (any frame,
/// valid or not), `«disconnect»` and `«ignore-pings»`; `«close»` is a close frame with 1000. The
/// top-level keys `path` (the only path served), `subprotocols` (those spoken, preferred first) and
/// `max-message` (the longest message taken, in bytes) configure the handshake.
///
/// ```json
/// {"scheme": "websocket", "path": "/chat", "subprotocols": ["chat.v1"],
///  "responses": {"hello": {"pattern": "^hello$", "commands": ["hi", {"close": 1000, "reason": "bye"}]}}}
/// ```
package struct WebSocketScriptProtocol: ScriptProtocol {
    package let name = "WebSocket"
    package let schemes: Set<String> = ["websocket", "ws", "wss"]
    package let framing = Framing.messages
    package let tokens = ["«ping»", "«disconnect»", "«ignore-pings»"]
    package let keys = ["binary", "ping", "pong", "close", "frame"]
    package let settingKeys = ["path", "subprotocols", "max-message"]
    package let upgradeToken: String? = "websocket"

    /// Creates WebSocket's vocabulary.
    package init() {}

    /// Messages, after the opening handshake, answered by the script through WebSocket's driver
    /// (ALPN `http/1.1`, for the handshake); a connection records messages, not the frames that
    /// carry them.
    package func connections(framing: Framing) -> ScriptConnections {
        guard framing == .messages else { return framing == .raw ? .raw : .lines }
        return ScriptConnections(outputType: WebSocketOutput.self, applicationProtocols: ["http/1.1"], recordsOutput: false) { context in
            WebSocketConnectionDriver.scripted(server: context.server, base: context.base)
        }
    }

    /// A URL its clients take: `ws`, or `wss` under implicit TLS, whichever scheme the script names.
    package func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        implicitTLS || scheme == "wss" ? "wss" : "ws"
    }

    package func companionKeys(of key: String) -> [String] { key == "close" ? ["reason"] : [] }

    /// Byte sends (`{"hex": …}`, `{"base64": …}`, `«data»`) are binary messages; text stays text.
    package func sharedCommand(_ command: ScriptCommand) -> ScriptCommand {
        switch command {
        case .sendBytes(let bytes): .command(WebSocketScriptCommand.binary(.bytes(bytes)))
        case .sendData: .command(WebSocketScriptCommand.binary(.data))
        default: command
        }
    }

    package func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        switch token {
        case "«ping»": .command(WebSocketScriptCommand.ping(.bytes([])))
        case "«disconnect»": .command(WebSocketScriptCommand.disconnect)
        default: .command(WebSocketScriptCommand.ignorePings)
        }
    }

    package func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        let path = "\(decoding.path).\(key)"
        let value = object.command.value
        switch key {
        case "binary": return .command(WebSocketScriptCommand.binary(try payload(value, path: path, in: decoding)))
        case "ping", "pong":
            let payload = try payload(value, path: path, in: decoding)
            if case .bytes(let bytes) = payload, bytes.count > 125 {
                throw decoding.error(.invalidValue(path: path, reason: "a \(key) carries at most 125 bytes, not \(bytes.count)"), at: value.location)
            }
            return .command(key == "ping" ? WebSocketScriptCommand.ping(payload) : .pong(payload))
        case "close":
            guard case .number(let number) = value.kind, number == number.rounded(), number >= 0, number <= 65535 else {
                throw decoding.error(.wrongType(path: path, expected: "a close code from 0 to 65535 (1000: normal)", found: value.typeName), at: value.location)
            }
            let reason = try object.companion("reason").map { reason throws(ResponseFileError) in
                try decoding.string(reason, path: "\(decoding.path).reason")
            } ?? ""
            guard reason.utf8.count <= 123 else {
                throw decoding.error(.invalidValue(path: "\(decoding.path).reason", reason: "a close reason has at most 123 bytes, not \(reason.utf8.count)"))
            }
            return .command(WebSocketScriptCommand.close(WebSocketConnection.CloseCode(rawValue: UInt16(number)), reason: reason))
        default:
            return .command(try frame(value, path: path, in: decoding))
        }
    }

    /// The file's `path`, `subprotocols` and `max-message`, as the connections' options.
    package func settings(_ members: [JSONNode.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> any Sendable {
        var options = WebSocketOptions()
        for member in members {
            let key = member.key, value = member.value
            switch key {
            case "path":
                let path = try decoding.string(value, path: key)
                guard path.hasPrefix("/"), !path.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace }) else {
                    throw decoding.error(.invalidValue(path: key, reason: "path is a request path that begins with \"/\" (no query), not \"\(path)\""), at: value.location)
                }
                options.path = path
            case "subprotocols":
                guard case .array(let elements) = value.kind else {
                    throw decoding.error(.wrongType(path: key, expected: "an array of subprotocol names", found: value.typeName), at: value.location)
                }
                var names: [String] = []
                for (index, element) in elements.enumerated() {
                    let name = try decoding.string(element, path: "\(key)[\(index)]")
                    guard !name.isEmpty, !name.contains(where: { $0 == "," || $0.isWhitespace || !$0.isASCII }) else {
                        throw decoding.error(.invalidValue(path: "\(key)[\(index)]", reason: "\"\(name)\" is not a subprotocol name (an HTTP token)"), at: element.location)
                    }
                    names.append(name)
                }
                options.subprotocols = names
            default:
                guard case .number(let number) = value.kind, number == number.rounded(), number >= 1, number <= Double(Int32.max) else {
                    throw decoding.error(.wrongType(path: key, expected: "a number of bytes from 1 to \(Int32.max)", found: value.typeName), at: value.location)
                }
                options.maximumMessageLength = Int(number)
            }
        }
        return options
    }

    /// A string (after substitutions), `{"hex": …}`, `{"base64": …}`, or `"«data»"`.
    private func payload(_ value: JSONNode, path: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> WebSocketPayload {
        if case .string(let text) = value.kind { return text == "«data»" ? .data : .template(ResponseTemplate(text)) }
        return .bytes(try decoding.bytes(value, path: path))
    }

    /// `{"opcode": 0…15, "fin": true, "rsv": 0…7, "payload": …}`.
    private func frame(_ value: JSONNode, path: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> WebSocketScriptCommand {
        var opcode: UInt8?
        var fin = true
        var reserved: UInt8 = 0
        var payload = WebSocketPayload.bytes([])
        for member in try decoding.members(of: value, path: path, known: ["opcode", "fin", "rsv", "payload"]) {
            let memberPath = "\(path).\(member.key)"
            switch member.key {
            case "opcode", "rsv":
                let limit: Double = member.key == "opcode" ? 15 : 7
                guard case .number(let number) = member.value.kind, number == number.rounded(), number >= 0, number <= limit else {
                    throw decoding.error(.wrongType(path: memberPath, expected: "a whole number from 0 to \(Int(limit))", found: member.value.typeName), at: member.value.location)
                }
                if member.key == "opcode" { opcode = UInt8(number) } else { reserved = UInt8(number) }
            case "fin":
                guard case .bool(let flag) = member.value.kind else {
                    throw decoding.error(.wrongType(path: memberPath, expected: "true or false", found: member.value.typeName), at: member.value.location)
                }
                fin = flag
            default:
                payload = try self.payload(member.value, path: memberPath, in: decoding)
            }
        }
        guard let opcode else { throw decoding.error(.missingKey(path: path, key: "opcode"), at: value.location) }
        return .frame(fin: fin, reserved: reserved, opcode: opcode, payload: payload)
    }
}
