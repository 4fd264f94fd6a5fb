import MockServerHTTP

/// Header fields that concern one connection, not the message (RFC 9110 §7.6.1): a proxy neither
/// forwards nor records them, nor the fields its `Connection` header names. Names compare
/// normalised: any case, surrounding spaces and tabs trimmed (`CONNECTION`, ` tE `), in the
/// `Connection` list too.
enum HTTPHopByHop {
    static let names = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authenticate"]

    /// `headers` without hop-by-hop fields, and without those in `dropping` (lower-case names).
    static func endToEnd(_ headers: HTTPHeaders, dropping: [String] = []) -> HTTPHeaders {
        var named = Set(names + dropping.map(normalised))
        for field in headers where normalised(field.name) == "connection" {
            for token in field.value.split(separator: ",") {
                let name = normalised(token)
                if !name.isEmpty { named.insert(name) }
            }
        }
        var result = HTTPHeaders()
        for field in headers where !named.contains(normalised(field.name)) {
            result.add(name: field.name, value: field.value)
        }
        return result
    }

    /// A field name as compared: without surrounding spaces and tabs, lower-case.
    static func normalised(_ name: some StringProtocol) -> String {
        String(name.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
    }
}
