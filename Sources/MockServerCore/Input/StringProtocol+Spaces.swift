extension String {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace, the
    /// padding around a header's value or a list's items).
    ///
    /// The one trimmer of the package: every protocol trims with it, so that "a space" means the
    /// same thing everywhere (RFC 9110's OWS: SP and HTAB, never a line ending). It is declared on
    /// `String` and `Substring` rather than on `StringProtocol`, so that other modules call code
    /// specialised for each, not a generic one through witness tables (the recorder trims every
    /// header name it reads).
    package func trimmingSpaces() -> String {
        guard let range = spaceTrimmedRange(of: self) else { return "" }
        return String(self[range])
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs, as a string
    /// (``Swift/String/trimmingSpaces()`` on a slice).
    package func trimmingSpaces() -> String {
        guard let range = spaceTrimmedRange(of: self) else { return "" }
        return String(self[range])
    }
}

/// The range of `text` between its leading and trailing spaces and tabs; `nil` when that is all it
/// holds. The scalars' indices are the text's own, so the slice is copied once.
private func spaceTrimmedRange<Text: StringProtocol>(of text: Text) -> ClosedRange<String.Index>? {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
          let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return nil }
    return first...last
}

extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing spaces and tabs (``Swift/String/trimmingSpaces()``
    /// on bytes that are not decoded yet).
    package func trimmingSpaces() -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
