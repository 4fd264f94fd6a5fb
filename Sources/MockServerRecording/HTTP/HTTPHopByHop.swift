import MockServerHTTP
import MockServerCore

/// Header fields that concern one connection, not the message (RFC 9110 §7.6.1): a proxy neither
/// forwards nor records them, nor the fields its `Connection` header names. Names compare
/// normalised: any case, surrounding spaces and tabs ignored (`CONNECTION`, ` tE `), in the
/// `Connection` list too.
enum HTTPHopByHop {
    static let names = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authenticate"]

    /// `headers` without hop-by-hop fields, and without those in `dropping` (lower-case names).
    static func endToEnd(_ headers: HTTPHeaders, dropping: [String] = []) -> HTTPHeaders {
        var named = names
        named.append(contentsOf: dropping.map(normalised))
        for field in headers where matches(field.name, "connection") {
            for token in field.value.split(separator: ",") {
                let name = normalised(token)
                if !name.isEmpty { named.append(name) }
            }
        }
        var result = HTTPHeaders()
        for field in headers where !named.contains(where: { matches(field.name, $0) }) {
            result.add(name: field.name, value: field.value)
        }
        return result
    }

    /// Whether `name`, without surrounding spaces and tabs and in any case, is `lowercased`:
    /// compared byte by byte, with no copy (this runs for every field of every proxied message).
    static func matches(_ name: String, _ lowercased: String) -> Bool {
        // A parsed name is a token, with nothing to trim: compared in place.
        if let first = name.utf8.first, let last = name.utf8.last, first != 0x20, first != 0x09, last != 0x20, last != 0x09 {
            return name.equalsIgnoringASCIICase(lowercased)
        }
        var bytes = name.utf8[...]
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        guard bytes.count == lowercased.utf8.count else { return false }
        return zip(bytes, lowercased.utf8).allSatisfy { byte, expected in
            (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected
        }
    }

    /// A field name as compared: without surrounding spaces and tabs, lower-case.
    static func normalised(_ name: some StringProtocol) -> String {
        String(name).trimmingSpaces().lowercased()
    }
}
