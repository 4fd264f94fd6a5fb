import MockServerHTTP

/// Header fields that concern one connection, not the message (RFC 9110 §7.6.1): a proxy neither
/// forwards nor records them, nor the fields its `Connection` header names.
enum HTTPHopByHop {
    static let names: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
                                     "proxy-authenticate"]

    /// `headers` without hop-by-hop fields, and without those in `dropping` (lower-case names).
    static func endToEnd(_ headers: HTTPHeaders, dropping: Set<String> = []) -> HTTPHeaders {
        var named = names.union(dropping)
        for value in headers.values(for: "Connection") {
            for token in value.split(separator: ",") { named.insert(token.trimmingCharacters(in: " \t").lowercased()) }
        }
        var result = HTTPHeaders()
        for field in headers where !named.contains(field.name.lowercased()) {
            result.add(name: field.name, value: field.value)
        }
        return result
    }
}

private extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
