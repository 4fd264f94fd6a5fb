extension ArraySlice<UInt8> {
    /// The bytes without leading and trailing spaces and tabs (HTTP's optional whitespace).
    package func trimmingHTTPSpaces() -> ArraySlice<UInt8> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
        return self[first...last]
    }
}
