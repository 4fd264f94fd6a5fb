import MockServerCore
import MockServerHTTP
import MockServerScript

extension HTTPStreamFault {
    /// The fault an endpoints file's response or a script command asks for with `key` (one of
    /// ``MockServerHTTP/HTTPStreamFault/keys``) and `value`: an RFC 9113 error name for `"reset"`
    /// and `"goaway"`, `true` for the others.
    ///
    /// - Throws: ``MockServerScript/ResponseFileError`` at `value`, naming `path`, when it is not one of those.
    static func decode(key: String, _ value: JSONNode, path: String, decoder: ResponseScriptDecoder) throws(ResponseFileError) -> HTTPStreamFault {
        switch key {
        case "reset", "goaway":
            let code = try decoder.string(value, path: path)
            guard errorNames.contains(code) else {
                throw decoder.error(.invalidValue(path: path, reason: "an HTTP/2 error name (RFC 9113 §7), one of \(errorNames.joined(separator: ", ")), not \"\(code)\""),
                                    at: value.location)
            }
            return key == "reset" ? .reset(code: code) : .goaway(code: code)
        default:
            guard case .bool(true) = value.kind else {
                throw decoder.error(.invalidValue(path: path, reason: "\"\(key)\" takes true (leave it out for no fault), not \(value.typeName)"), at: value.location)
            }
            return switch key {
            case "stall": .stall
            case "badHPACK": .badHPACK
            default: .illegalFrame
            }
        }
    }

    /// The error that refuses the fault at `value` (`path`) on a server that speaks only HTTP/1.1.
    static func refusal(at value: JSONNode, path: String, decoder: ResponseScriptDecoder) -> ResponseFileError {
        decoder.error(.invalidValue(path: path, reason: "an HTTP/2 fault, and this server speaks only HTTP/1.1 (--http2 refuse)"), at: value.location)
    }
}
