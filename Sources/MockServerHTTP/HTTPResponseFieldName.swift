/// A response head's field names, versions and reasons told from their bytes as a client parses
/// them: the three fields whose values frame the body and decide the connection, found without a
/// header list asked afterwards, and the text servers send most given as a literal rather than
/// decoded into a new `String` for every response (an upstream's answer to a recording proxy
/// has half a dozen fields, parsed for every request).
package enum HTTPResponseFieldName: Equatable {
    /// `Transfer-Encoding`.
    case transferEncoding
    /// `Content-Length`.
    case contentLength
    /// `Connection`.
    case connection
    /// Any other name.
    case other

    /// The common names given as literals, as servers send them: a field whose bytes are one of
    /// them, or one of them lower-cased, is that literal (``named(_:)``'s `literal`).
    package static let literals = ["Date", "Server", "Content-Type", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding",
                                   "Cache-Control", "ETag", "Last-Modified", "Accept-Ranges", "Vary", "Location", "Set-Cookie", "Expires",
                                   "Content-Encoding", "Age", "Pragma", "Access-Control-Allow-Origin", "X-Content-Type-Options"]

    /// Which of the fields `name` is, as ``HTTPHeaderFields`` looks names up (the whole name, ASCII
    /// letters in any case, no spaces trimmed), and the name as a `String`: a literal when its
    /// bytes are exactly one of the common names (or one lower-cased), else decoded; `literal` is
    /// that name's index in ``literals``.
    package static func named(_ name: ArraySlice<UInt8>) -> (kind: HTTPResponseFieldName, text: String, literal: Int?) {
        name.withUnsafeBufferPointer { bytes in
            if let index = names.find(bytes) { return (nameKinds[index], names.texts[index], index >= literals.count ? index - literals.count : index) }
            let kind: HTTPResponseFieldName = switch bytes.count {
            case 10 where equals(bytes, lowerCased: "connection"): .connection
            case 14 where equals(bytes, lowerCased: "content-length"): .contentLength
            case 17 where equals(bytes, lowerCased: "transfer-encoding"): .transferEncoding
            default: .other
            }
            return (kind, String(decoding: bytes, as: UTF8.self), nil)
        }
    }

    /// The status line's version as a `String`: `HTTP/1.1` and `HTTP/1.0` as literals.
    package static func version(_ bytes: ArraySlice<UInt8>) -> String { versions.text(of: bytes) }

    /// The status line's reason as a `String`: the common ones as literals.
    package static func reason(_ bytes: ArraySlice<UInt8>) -> String { reasons.text(of: bytes) }

    /// ``literals``, then each lower-cased: the index of a lower-cased copy is its literal's plus their count.
    private static let names = HTTPLiteralTable(literals, lowerCasedToo: true)
    /// Which field each of ``names`` is.
    private static let nameKinds: [HTTPResponseFieldName] = names.texts.map { literal in
        switch literal.lowercased() {
        case "connection": .connection
        case "content-length": .contentLength
        case "transfer-encoding": .transferEncoding
        default: .other
        }
    }
    private static let versions = HTTPLiteralTable(["HTTP/1.1", "HTTP/1.0"])
    private static let reasons = HTTPLiteralTable(["OK", "Created", "Accepted", "No Content", "Moved Permanently", "Found", "See Other", "Not Modified",
                                                   "Temporary Redirect", "Permanent Redirect", "Bad Request", "Unauthorized", "Forbidden", "Not Found",
                                                   "Internal Server Error", "Bad Gateway", "Service Unavailable"])

    /// Whether `bytes` are `lowerCased` with ASCII letters in any case.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, lowerCased: StaticString) -> Bool {
        guard bytes.count == lowerCased.utf8CodeUnitCount else { return false }
        let wanted = lowerCased.utf8Start
        for index in bytes.indices where HTTPFieldText.lower(bytes[index]) != wanted[index] { return false }
        return true
    }
}
