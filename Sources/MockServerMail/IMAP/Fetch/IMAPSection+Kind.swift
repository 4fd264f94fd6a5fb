extension IMAPSection {
    /// Which text of a message or part a section names (RFC 3501 §6.4.5 `section-msgtext` and
    /// `MIME`).
    package enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// The header, its closing blank line included.
        case header
        /// The header fields with these names (any case), and the blank line.
        case headerFields([String])
        /// The header fields with none of these names, and the blank line.
        case headerFieldsNot([String])
        /// The body, after the header's blank line.
        case text
        /// The MIME header of a part (only after part numbers).
        case mime

        /// The kind as echoed: `HEADER`, `HEADER.FIELDS (FROM TO)`, `TEXT`, `MIME`.
        package var description: String {
            switch self {
            case .header: "HEADER"
            case .headerFields(let names): "HEADER.FIELDS (\(names.map { $0.uppercased() }.joined(separator: " ")))"
            case .headerFieldsNot(let names): "HEADER.FIELDS.NOT (\(names.map { $0.uppercased() }.joined(separator: " ")))"
            case .text: "TEXT"
            case .mime: "MIME"
            }
        }
    }
}
