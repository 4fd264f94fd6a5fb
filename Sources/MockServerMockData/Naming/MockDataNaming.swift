import MockServerCore
import MockServerHTTP

/// The names of the mock-data files that can answer a request, in the order they are searched:
/// VOKMockUrlProtocol's convention (seed 000), where its worked examples decide what its prose
/// leaves open.
///
/// A base name is the method, `|`, the path, then `?` and the query when the target has one, then
/// `|` and the body's form when there is a body; every `/` and `:` becomes `-`, and every control
/// byte (below 0x20, and 0x7F) `%XX`, wherever it came from.
/// - The path is percent-decoded (as `URL.path` gives it) when that yields UTF-8 without NUL,
///   and kept as sent otherwise; a trailing `/` stays (`/login/` is `-login-`).
/// - The query stays as sent, percent-encoding included. When the file name (with its 5-byte
///   extension) would pass 255 bytes, the query's SHA-256 in lower-case hex stands in for it.
/// - A request has a body part when it has a body, or when its method is POST, PUT or PATCH (an
///   empty body is then named by the SHA-256 of nothing). For a `application/x-www-form-urlencoded`
///   body the part is the body itself; for `application/json` (and any `+json` type) it is the
///   bencoding of the decoded JSON, percent-encoded outside the characters a URL query allows (the
///   seed's example keeps `@`, which "unreserved" would not); then, or for any other body, the
///   SHA-256 of the body.
/// - With wildcards, `*` stands for the whole query, the whole body part, or both, after every
///   name without one.
/// - Names that cannot be a file (longer than 255 bytes with the extension) are left out.
///
/// Each base name is searched as `.http` then `.json` before the next base name.
package enum MockDataNaming {
    /// The extensions a base name is searched with, in order.
    package static let extensions = [".http", ".json"]

    /// The longest file name most file systems take, in bytes.
    static let maximumFileNameLength = 255

    /// The base names for `request`, in search order. A `HEAD` request's names are followed by
    /// those of the same request as a `GET`, so that a `GET` file answers both (without its body
    /// for `HEAD`), as a real server's would.
    package static func baseNames(for request: HTTPMockRequest, allowsWildcards: Bool = false) -> [String] {
        let names = baseNames(for: request, method: request.method, allowsWildcards: allowsWildcards)
        guard request.method == "HEAD" else { return names }
        return names + baseNames(for: request, method: "GET", allowsWildcards: allowsWildcards)
    }

    private static func baseNames(for request: HTTPMockRequest, method: String, allowsWildcards: Bool) -> [String] {
        let prefix = method + "|" + decodedPath(request.path)
        let longestExtension = extensions.map(\.utf8.count).max() ?? 0
        func fits(_ name: String) -> Bool { fileSafe(name).utf8.count + longestExtension <= maximumFileNameLength }

        var withQuery = prefix
        if let query = request.query {
            withQuery = prefix + "?" + query
            if !fits(withQuery) { withQuery = prefix + "?" + SHA256.hex(of: query.utf8) }
        }
        var names: [String] = []
        if let bodyParts = bodyParts(of: request, method: method) {
            names += bodyParts.map { withQuery + "|" + $0 }
            if allowsWildcards {
                if request.query != nil {
                    names.append(withQuery + "|*")
                    names += (bodyParts + ["*"]).map { prefix + "?*|" + $0 }
                } else {
                    names.append(prefix + "|*")
                }
            }
        } else {
            names.append(withQuery)
            if allowsWildcards, request.query != nil { names.append(prefix + "?*") }
        }
        return names.filter(fits).map(fileSafe)
    }

    /// The file names for `request`, in search order: each base name with each extension.
    package static func fileNames(for request: HTTPMockRequest, allowsWildcards: Bool = false) -> [String] {
        baseNames(for: request, allowsWildcards: allowsWildcards).flatMap { base in extensions.map { base + $0 } }
    }

    /// The body's forms, most specific first, ending with its SHA-256; `nil` when the request has
    /// no body part.
    static func bodyParts(of request: HTTPMockRequest, method: String) -> [String]? {
        let body = request.body
        guard !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) else { return nil }
        var parts: [String] = []
        let mediaType = (request.headers["Content-Type"] ?? "").split(separator: ";").first
            .map { $0.trimmingSpaces().lowercased() } ?? ""
        if mediaType == "application/x-www-form-urlencoded" {
            if let text = String(exactUTF8: body), !text.utf8.contains(0) { parts.append(text) }
        } else if mediaType == "application/json" || mediaType.hasSuffix("+json") {
            if let value = try? JSONReader.parse(body, options: .strict), let encoded = Bencoding.encode(value) {
                parts.append(percentEncoded(encoded))
            }
        }
        parts.append(SHA256.hex(of: body))
        return parts
    }

    /// Bytes as text, with `%XX` for every byte outside what a URL query allows unescaped
    /// (letters, digits and `-._~!$&'()*+,;=:@/?`).
    static func percentEncoded(_ bytes: [UInt8]) -> String {
        PercentCoding.encode(bytes) { queryAllowed[Int($0)] }
    }

    private static let queryAllowed: [Bool] = (0..<256).map { value in
        guard value < 0x80 else { return false }
        let scalar = Unicode.Scalar(UInt8(value))
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "-._~!$&'()*+,;=:@/?".unicodeScalars.contains(scalar)
    }

    /// The path of a target (an absolute URL's path too), percent-decoded when that gives UTF-8
    /// without NUL.
    static func decodedPath(_ path: String) -> String {
        let path = AbsoluteURI.pathOnward(of: Substring(path))
        guard path.utf8.contains(UInt8(ascii: "%")), let bytes = PercentCoding.decode(path.utf8) else { return String(path) }
        guard !bytes.contains(0), let decoded = String(exactUTF8: bytes) else { return String(path) }
        return decoded
    }

    /// `name` as a file name: every `/` and `:` a `-`, and every control byte (below 0x20, and
    /// 0x7F: a newline, CR, ESC, BEL from a decoded path or a form body) as `%XX`, so that none
    /// reaches the file system.
    static func fileSafe(_ name: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: ":"): bytes.append(UInt8(ascii: "-"))
            case 0..<0x20, 0x7F: bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
