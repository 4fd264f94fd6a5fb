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

    /// For each name, its lowest index and the index of each of its values, for the encoder's look-ups.
    static let indexByName: [[UInt8]: (first: Int, byValue: [[UInt8]: Int])] = {
        var map: [[UInt8]: (first: Int, byValue: [[UInt8]: Int])] = [:]
        for (offset, entry) in entries.enumerated().reversed() {
            map[entry.name, default: (offset + 1, [:])].first = offset + 1
            map[entry.name]?.byValue[entry.value] = offset + 1
        }
        return map
    }()
}
