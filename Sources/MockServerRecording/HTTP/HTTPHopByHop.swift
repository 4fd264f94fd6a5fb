import MockServerHTTP

/// Header fields that concern one connection, not the message (RFC 9110 §7.6.1): a proxy neither
/// forwards nor records them, nor the fields its `Connection` header names.
enum HTTPHopByHop {
    static let names = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authenticate"]

    /// `headers` without hop-by-hop fields, and without those in `dropping` (lower-case names).
    static func endToEnd(_ headers: HTTPHeaders, dropping: [String] = []) -> HTTPHeaders {
        var named = names + dropping
        for value in headers.values(for: "Connection") {
            for token in value.split(separator: ",") {
                let name = token.trimmingCharacters()
                if !name.isEmpty { named.append(name) }
            }
        }
        var result = HTTPHeaders()
        for field in headers where !named.contains(where: { field.name.equalsIgnoringASCIICase($0) }) {
            result.add(name: field.name, value: field.value)
        }
        return result
    }
}
