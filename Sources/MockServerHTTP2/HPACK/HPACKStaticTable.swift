/// HPACK's static table (RFC 7541 Appendix A): indices 1 to 61.
package enum HPACKStaticTable {
    /// The entries in order; index `i` of the RFC is `entries[i - 1]`.
    package static let entries: [HPACKHeader] = [
        (":authority", ""), (":method", "GET"), (":method", "POST"), (":path", "/"), (":path", "/index.html"),
        (":scheme", "http"), (":scheme", "https"), (":status", "200"), (":status", "204"), (":status", "206"),
        (":status", "304"), (":status", "400"), (":status", "404"), (":status", "500"), ("accept-charset", ""),
        ("accept-encoding", "gzip, deflate"), ("accept-language", ""), ("accept-ranges", ""), ("accept", ""),
        ("access-control-allow-origin", ""), ("age", ""), ("allow", ""), ("authorization", ""), ("cache-control", ""),
        ("content-disposition", ""), ("content-encoding", ""), ("content-language", ""), ("content-length", ""),
        ("content-location", ""), ("content-range", ""), ("content-type", ""), ("cookie", ""), ("date", ""), ("etag", ""),
        ("expect", ""), ("expires", ""), ("from", ""), ("host", ""), ("if-match", ""), ("if-modified-since", ""),
        ("if-none-match", ""), ("if-range", ""), ("if-unmodified-since", ""), ("last-modified", ""), ("link", ""),
        ("location", ""), ("max-forwards", ""), ("proxy-authenticate", ""), ("proxy-authorization", ""), ("range", ""),
        ("referer", ""), ("refresh", ""), ("retry-after", ""), ("server", ""), ("set-cookie", ""),
        ("strict-transport-security", ""), ("transfer-encoding", ""), ("user-agent", ""), ("vary", ""), ("via", ""),
        ("www-authenticate", ""),
    ].map { HPACKHeader($0.0, $0.1) }

    /// A name's lowest index and the index of each of its values, for the encoder's look-ups.
    struct Name: Sendable {
        var name: [UInt8]
        var first: Int
        var values: [(value: [UInt8], index: Int)]
    }

    /// The names by their length, so that a look-up compares a few names' bytes rather than hashing
    /// them (hashing every response field was 3% of the server's CPU under h2load).
    static let namesByLength: [[Name]] = {
        var buckets = [[Name]](repeating: [], count: entries.map(\.name.count).max()! + 1)
        for (offset, entry) in entries.enumerated() {
            if let known = buckets[entry.name.count].firstIndex(where: { $0.name == entry.name }) {
                buckets[entry.name.count][known].values.append((entry.value, offset + 1))
            } else {
                buckets[entry.name.count].append(Name(name: entry.name, first: offset + 1, values: [(entry.value, offset + 1)]))
            }
        }
        return buckets
    }()

    /// The static table's entries named `name`, if any.
    static func named(_ name: [UInt8]) -> Name? {
        guard name.count < namesByLength.count else { return nil }
        return namesByLength[name.count].first { $0.name == name }
    }
}
