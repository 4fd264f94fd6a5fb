import MockServerHTTP
import MockServerCore

/// Header fields that concern one connection, not the message (RFC 9110 §7.6.1): a proxy neither
/// forwards nor records them, nor the fields its `Connection` header names. Names compare
/// normalised: any case, surrounding spaces and tabs ignored (`CONNECTION`, ` tE `), in the
/// `Connection` list too.
enum HTTPHopByHop {
    static let names = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authenticate"]

    /// `headers` without hop-by-hop fields, and without those in `dropping` (names in any case).
    static func endToEnd(_ headers: HTTPHeaders, dropping: [String] = []) -> HTTPHeaders {
        // Compared in place, with no list of names made per message: this runs for every proxied one.
        var connection: [String] = []
        for field in headers where HTTPFieldText.equals(field.name, "connection") { connection.append(field.value) }
        var result = HTTPHeaders()
        result.reserveCapacity(headers.count)
        for field in headers {
            if HTTPFieldText.equals(field.name, anyOf: names) || HTTPFieldText.equals(field.name, anyOf: dropping)
                || connection.contains(where: { HTTPFieldText.list($0, contains: field.name) }) {
                continue
            }
            result.add(name: field.name, value: field.value)
        }
        return result
    }
}
