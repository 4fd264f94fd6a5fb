import MockServerHTTP
import MockServerCore

/// Header fields that concern one connection, not the message (RFC 9110 §7.6.1): a proxy neither
/// forwards nor records them, nor the fields its `Connection` header names. Names compare
/// normalised: any case, surrounding spaces and tabs ignored (`CONNECTION`, ` tE `), in the
/// `Connection` list too.
enum HTTPHopByHop {
    static let names = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authenticate"]

    /// The hop-by-hop names alone.
    static let hopByHop = HTTPFieldNames(names)
    /// What a forwarded request drops: the hop-by-hop fields, and `Host`, `Content-Length` and
    /// `Expect`, which the proxy writes for itself.
    static let forwardedRequest = HTTPFieldNames(names + ["host", "content-length", "expect"])
    /// What the client's answer drops: the hop-by-hop fields and `Content-Length`, which the
    /// server writes for the body it sends.
    static let answer = HTTPFieldNames(names + ["content-length"])
    private static let connection = HTTPFieldNames(["connection"])

    /// `headers` without the fields named in `dropping` (made once: ``hopByHop``, or a set of
    /// ``names`` and more, such as ``forwardedRequest``) and those a `Connection` field names: the
    /// same headers, not copied, when nothing is dropped.
    static func endToEnd(_ headers: HTTPHeaderFields, dropping: HTTPFieldNames = hopByHop) -> HTTPHeaderFields {
        // Compared in place, with no list made per message: this runs for every proxied one.
        let connection = firstConnection(in: headers)
        guard let first = headers.fields.firstIndex(where: { drops($0, of: headers, connection: connection, dropping: dropping) }) else { return headers }
        // One allocation, at the size the kept fields can reach.
        var kept: [HTTPHeaderFields.Field] = []
        kept.reserveCapacity(headers.count - 1)
        kept += headers.fields[..<first]
        for field in headers.fields[(first + 1)...] where !drops(field, of: headers, connection: connection, dropping: dropping) {
            kept.append(field)
        }
        return HTTPHeaderFields(kept)
    }

    /// Appends the fields of `headers` that ``endToEnd(_:dropping:)`` keeps to `bytes`, as an
    /// HTTP/1.1 head carries them, with no header list made.
    static func writeEndToEnd(_ headers: HTTPHeaderFields, dropping: HTTPFieldNames, to bytes: inout [UInt8]) {
        let connection = firstConnection(in: headers)
        for field in headers where !drops(field, of: headers, connection: connection, dropping: dropping) {
            HTTPHeaderFields.write(name: field.name, value: field.value, to: &bytes)
        }
    }

    /// Where the first `Connection` field of `headers` that names more than hop-by-hop fields is
    /// (`X-Private` in `Connection: keep-alive, X-Private`), if any: the fields it and later ones
    /// name are looked for from there; when none does (as most messages go), not at all, since
    /// what they name goes anyway.
    private static func firstConnection(in headers: HTTPHeaderFields) -> Int? {
        headers.fields.firstIndex { connection.contains($0.name) && !hopByHop.containsEvery(inList: $0.value) }
    }

    /// Whether `field` of `headers` is left out: its name is in `dropping`, or a `Connection`
    /// field of `headers` (the first at `connection`) names it.
    private static func drops(_ field: HTTPHeaderFields.Field, of headers: HTTPHeaderFields, connection: Int?, dropping: HTTPFieldNames) -> Bool {
        if dropping.contains(field.name) { return true }
        guard let connection else { return false }
        return headers.fields[connection...].contains { Self.connection.contains($0.name) && HTTPFieldText.list($0.value, contains: field.name) }
    }
}
