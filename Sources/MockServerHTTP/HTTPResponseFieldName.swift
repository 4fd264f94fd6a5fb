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

    /// Which of the fields `name` is, as ``HTTPHeaders`` looks names up (the whole name, ASCII
    /// letters in any case, no spaces trimmed), and the name as a `String`: a literal when its
    /// bytes are exactly one of the common names (or one lower-cased), else decoded; `literal` is
    /// that name's index in ``literals``.
    package static func named(_ name: ArraySlice<UInt8>) -> (kind: HTTPResponseFieldName, text: String, literal: Int?) {
        name.withUnsafeBufferPointer { bytes in
            if let index = names.find(bytes) { return (names.kinds[index], names.texts[index], names.literal(at: index)) }
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

    /// Literals, their bytes one after another in one buffer, looked for by length.
    private struct Table {
        let bytes: [UInt8]
        let starts: [Int]
        let counts: [Int]
        let texts: [String]
        let kinds: [HTTPResponseFieldName]
        /// Bit `n` is set when a literal has `n` bytes (under 64).
        let lengths: UInt64
        /// How many literals were given (their lower-cased copies come after them).
        let given: Int

        init(_ literals: [String], lowerCasedToo: Bool = false) {
            given = literals.count
            let all = literals + (lowerCasedToo ? literals.map { $0.lowercased() } : [])
            var bytes: [UInt8] = []
            var starts: [Int] = []
            var lengths: UInt64 = 0
            for literal in all {
                starts.append(bytes.count)
                bytes.append(contentsOf: literal.utf8)
                lengths |= literal.utf8.count < 64 ? 1 << UInt64(literal.utf8.count) : 0
            }
            self.bytes = bytes
            self.starts = starts
            counts = all.map(\.utf8.count)
            texts = all
            kinds = all.map { literal in
                switch literal.lowercased() {
                case "connection": .connection
                case "content-length": .contentLength
                case "transfer-encoding": .transferEncoding
                default: .other
                }
            }
            self.lengths = lengths
        }

        /// The index among the literals given of the one found at `index` (a lower-cased copy's original).
        func literal(at index: Int) -> Int { index >= given ? index - given : index }

        /// Where the literal whose bytes are exactly `text` is.
        func find(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
            guard text.count < 64, lengths & (1 << UInt64(text.count)) != 0, let base = text.baseAddress else { return nil }
            return bytes.withUnsafeBufferPointer { all in
                counts.withUnsafeBufferPointer { counts in
                    for index in counts.indices where counts[index] == text.count {
                        let start = starts[index]
                        var offset = 0
                        while offset < text.count, base[offset] == all[start + offset] { offset += 1 }
                        if offset == text.count { return index }
                    }
                    return nil
                }
            }
        }

        /// `text` as a `String`: the literal, or decoded.
        func text(of text: ArraySlice<UInt8>) -> String {
            text.withUnsafeBufferPointer { bytes in
                if let index = find(bytes) { return texts[index] }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// ``literals``, then each lower-cased: the index of a name found is its literal's plus a multiple of their count.
    private static let names = Table(literals, lowerCasedToo: true)
    private static let versions = Table(["HTTP/1.1", "HTTP/1.0"])
    private static let reasons = Table(["OK", "Created", "Accepted", "No Content", "Moved Permanently", "Found", "See Other", "Not Modified",
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
