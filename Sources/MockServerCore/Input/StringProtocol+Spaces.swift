extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace, the
    /// padding around a header's value or a list's items), as a string.
    ///
    /// The one trimmer of the package: every protocol trims with it, so that "a space" means the
    /// same thing everywhere (RFC 9110's OWS: SP and HTAB, never a line ending).
    package func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        // The scalars' indices are the text's own: the slice is copied once, not rebuilt scalar by scalar.
        return String(self[first...last])
    }
}

extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing spaces and tabs (``StringProtocol/trimmingSpaces()``
    /// on bytes that are not decoded yet).
    package func trimmingSpaces() -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
