/// A fixed set of header field names, made once and asked of every field of every message (a
/// proxy's hop-by-hop names, a recording's masked ones): names compare as ``HTTPFieldText``
/// compares them (without surrounding spaces and tabs, ASCII letters in any case), against names
/// kept lower-cased in one buffer, and a field whose length no name has is turned away at once.
/// Two sets are equal when they were made of the same names, lower-cased, in the same order.
package struct HTTPFieldNames: Sendable, Equatable {
    /// The names, lower-cased, one after another.
    private let bytes: [UInt8]
    /// Where each name is in ``bytes``.
    private let names: [Range<Int>]
    /// Bit `n` is set when a name has `n` bytes (bit 63: 63 bytes or more).
    private let lengths: UInt64

    /// The set of `names`, plain names as ``HTTPFieldText/equals(_:anyOf:)`` takes them: used as
    /// given, without trimming (a name with spaces around it matches no field); an empty one
    /// matches a field name of nothing but spaces, and is never a fragment.
    package init(_ names: [String]) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        var lengths: UInt64 = 0
        for name in names {
            let start = bytes.count
            bytes.append(contentsOf: name.utf8.map(HTTPFieldText.lower))
            ranges.append(start..<bytes.count)
            lengths |= Self.bit(for: bytes.count - start)
        }
        self.bytes = bytes
        self.names = ranges
        self.lengths = lengths
    }

    /// Whether the set has no name.
    package var isEmpty: Bool { names.isEmpty }

    /// Whether `name`, without surrounding spaces and tabs, is one of the names (any case).
    package func contains(_ name: String) -> Bool {
        guard lengths != 0 else { return false }
        // Trimming only shortens a name: one shorter than every name of the set is turned away by
        // its byte count alone, without reaching its bytes (most fields asked of `Content-Length`).
        guard lengths & Self.bits(upTo: name.utf8.count) != 0 else { return false }
        return HTTPFieldText.withBytes(of: name) { raw in
            let text = HTTPFieldText.trimmed(raw)
            guard lengths & Self.bit(for: text.count) != 0 else { return false }
            return bytes.withUnsafeBufferPointer { holds(text, in: $0) }
        }
    }

    /// Whether `name`, without surrounding spaces and tabs, is one of the names or holds one of
    /// `fragments`' names (``isFragment(of:)``), and is not one of `unless`'s: a header mask's rule
    /// asked of the name's bytes once, rather than of each set in turn (every recorded field).
    package func contains(_ name: String, orFragmentOf fragments: HTTPFieldNames, unless: HTTPFieldNames) -> Bool {
        guard lengths != 0 || fragments.lengths != 0 else { return false }
        return HTTPFieldText.withBytes(of: name) { raw in
            let text = HTTPFieldText.trimmed(raw)
            if unless.lengths & Self.bit(for: text.count) != 0, unless.bytes.withUnsafeBufferPointer({ unless.holds(text, in: $0) }) { return false }
            if lengths & Self.bit(for: text.count) != 0, bytes.withUnsafeBufferPointer({ holds(text, in: $0) }) { return true }
            return fragments.lengths != 0 && fragments.holdsFragment(text)
        }
    }

    /// Whether every element of the comma-separated `list` (a `Connection` value), without
    /// surrounding spaces and tabs, is one of the names (any case); empty elements are skipped.
    package func containsEvery(inList list: String) -> Bool {
        HTTPFieldText.withBytes(of: list) { list in
            bytes.withUnsafeBufferPointer { all in
                var start = list.startIndex
                while start < list.endIndex {
                    let comma = list[start...].firstIndex(of: 0x2C) ?? list.endIndex
                    let element = HTTPFieldText.trimmed(list[start..<comma])
                    if !element.isEmpty, !holds(element, in: all) { return false }
                    start = comma + 1
                }
                return true
            }
        }
    }

    /// Whether `text`, without surrounding spaces and tabs, holds one of the names as a fragment
    /// (any case): `X-Api-Key` holds `api`.
    package func isFragment(of text: String) -> Bool {
        guard lengths != 0 else { return false }
        return HTTPFieldText.withBytes(of: text) { holdsFragment(HTTPFieldText.trimmed($0)) }
    }

    /// Whether the trimmed `text` holds one of the names as a fragment (any case).
    private func holdsFragment(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            names.contains { name in
                guard !name.isEmpty, name.count <= text.count else { return false }
                // The first byte is compared before the rest: most places begin no name.
                let first = all[name.lowerBound]
                for start in text.startIndex...(text.endIndex - name.count)
                where HTTPFieldText.lower(text[start]) == first && Self.matches(text, at: start, all[name]) { return true }
                return false
            }
        }
    }

    /// Whether `text` is one of the names, whose bytes are `all`.
    private func holds(_ text: Slice<UnsafeBufferPointer<UInt8>>, in all: UnsafeBufferPointer<UInt8>) -> Bool {
        names.contains { $0.count == text.count && Self.matches(text, at: text.startIndex, all[$0]) }
    }

    /// Whether `text` from `start` on begins with `name` (lower-cased), ASCII letters of `text` in any case.
    private static func matches(_ text: Slice<UnsafeBufferPointer<UInt8>>, at start: Int, _ name: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var index = start
        for byte in name {
            if HTTPFieldText.lower(text[index]) != byte { return false }
            index += 1
        }
        return true
    }

    private static func bit(for length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }

    /// The bits of every length from 0 to `length`.
    private static func bits(upTo length: Int) -> UInt64 { length >= 63 ? ~0 : (1 << UInt64(length + 1)) - 1 }
}
