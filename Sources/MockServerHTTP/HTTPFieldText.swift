/// Comparisons of header field text over the bytes in place, with no copy: a proxy and a recording
/// run them for every field of every message, where a `lowercased()`, a `trimmingSpaces()` or a
/// `split` costs an allocation each time.
///
/// Text compares as HTTP compares names and tokens: without surrounding spaces and tabs, ASCII
/// letters in any case.
package enum HTTPFieldText {
    /// Whether `text` and `other`, each without surrounding spaces and tabs, are equal with ASCII
    /// letters in any case (` TE ` and `te`).
    package static func equals(_ text: String, _ other: String) -> Bool {
        withBytes(of: text) { left in withBytes(of: other) { right in same(trimmed(left), trimmed(right)) } }
    }

    /// Whether `text`, without surrounding spaces and tabs, is one of `names` (plain names, without
    /// spaces around them) with ASCII letters in any case: the text is trimmed once, and only names
    /// of its length are compared.
    package static func equals(_ text: String, anyOf names: [String]) -> Bool {
        withBytes(of: text) { bytes in
            let wanted = trimmed(bytes)
            return names.contains { name in
                name.utf8.count == wanted.count && withBytes(of: name) { same($0[...], wanted) }
            }
        }
    }

    /// Whether `text`, without surrounding spaces and tabs, holds `fragment` with ASCII letters in
    /// any case (`X-Api-Key` holds `api`); an empty fragment is never held.
    package static func contains(_ text: String, fragment: String) -> Bool {
        withBytes(of: text) { text in
            withBytes(of: fragment) { fragment in
                let haystack = trimmed(text)
                guard !fragment.isEmpty, fragment.count <= haystack.count else { return false }
                var start = haystack.startIndex
                while start + fragment.count <= haystack.endIndex {
                    if same(haystack[start..<(start + fragment.count)], fragment[...]) { return true }
                    start += 1
                }
                return false
            }
        }
    }

    /// Whether the comma-separated `list` (a `Connection` or `TE` value) has an element that
    /// ``equals(_:_:)`` `element`; empty elements never match.
    package static func list(_ list: String, contains element: String) -> Bool {
        withBytes(of: list) { list in
            withBytes(of: element) { element in
                let wanted = trimmed(element)
                guard !wanted.isEmpty else { return false }
                var start = list.startIndex
                while start < list.endIndex {
                    let comma = list[start...].firstIndex(of: 0x2C) ?? list.endIndex
                    if same(trimmed(list[start..<comma]), wanted) { return true }
                    start = comma + 1
                }
                return false
            }
        }
    }

    /// Whether the media type of the `Content-Type` value `contentType` (the part before any `;`)
    /// is `type`, in any case.
    package static func mediaType(of contentType: String, is type: String) -> Bool {
        withBytes(of: contentType) { value in
            withBytes(of: type) { type in same(trimmed(value[..<(value.firstIndex(of: 0x3B) ?? value.endIndex)]), trimmed(type[...])) }
        }
    }

    /// Whether the media type of the `Content-Type` value `contentType` is JSON: `application/json`,
    /// or a type ending in `+json` (`application/problem+json`), in any case.
    package static func isJSON(_ contentType: String) -> Bool {
        if mediaType(of: contentType, is: "application/json") { return true }
        return withBytes(of: contentType) { value in
            withBytes(of: "+json") { suffix in
                let type = trimmed(value[..<(value.firstIndex(of: 0x3B) ?? value.endIndex)])
                return type.count >= suffix.count && same(type.suffix(suffix.count), suffix[...])
            }
        }
    }

    /// `body` with the bytes of `text`: in place where the string has them (native and small strings
    /// do), else copied once.
    static func withBytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> { trimmed(bytes[...]) }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return bytes[start..<end]
    }

    /// Whether the two byte runs are equal with ASCII letters in any case.
    private static func same(_ left: Slice<UnsafeBufferPointer<UInt8>>, _ right: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard left.count == right.count else { return false }
        var index = left.startIndex
        var other = right.startIndex
        while index < left.endIndex {
            if lower(left[index]) != lower(right[other]) { return false }
            index += 1
            other += 1
        }
        return true
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
}
