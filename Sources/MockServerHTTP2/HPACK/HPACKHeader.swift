/// One header field as HPACK carries it: name and value as bytes (HTTP/2 allows any octets in a
/// value; nothing is lost to a text conversion), and whether it is sensitive, which the encoder
/// sends as never indexed and the decoder reports for a never-indexed literal (RFC 7541 §6.2.3).
package struct HPACKHeader: Hashable, Sendable, CustomStringConvertible {
    package var name: [UInt8]
    package var value: [UInt8]
    /// Never indexed, by this encoder or any intermediary after it.
    package var sensitive: Bool

    package init(name: [UInt8], value: [UInt8], sensitive: Bool = false) {
        self.name = name
        self.value = value
        self.sensitive = sensitive
    }

    /// A field from text (a name is lower case in HTTP/2: the caller's business).
    package init(_ name: String, _ value: String, sensitive: Bool = false) {
        self.init(name: Array(name.utf8), value: Array(value.utf8), sensitive: sensitive)
    }

    /// The size the dynamic table and the header list limit count: the name's and value's lengths plus 32 (§4.1).
    package var size: Int { name.count + value.count + 32 }

    package var description: String {
        "\(String(decoding: name, as: UTF8.self)): \(String(decoding: value, as: UTF8.self))\(sensitive ? " (sensitive)" : "")"
    }
}
