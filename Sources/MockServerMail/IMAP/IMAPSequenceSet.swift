/// An IMAP sequence set (RFC 9051 §9 `sequence-set`): `1:3,5,7:*`, or `$`, the result the
/// client saved with `SEARCH RETURN (SAVE)` (RFC 5182). The same value serves message sequence
/// numbers and UIDs; the caller says what `*` is when it resolves the set, and a range such as
/// `1:4294967295` is never expanded into its numbers.
package enum IMAPSequenceSet: Hashable, Sendable {
    /// The elements the client wrote, in its order.
    case ranges([IMAPSequenceRange])
    /// `$`: the saved search result, which the session substitutes.
    case saved

    /// The longest set accepted, in bytes; a command line is bounded anyway, this bounds the
    /// elements held for one set.
    package static let maximumLength = 65_536

    /// The ASCII digits.
    private static let digits = UInt8(ascii: "0")...UInt8(ascii: "9")

    /// Parses a set as written in a command, without the surrounding command.
    ///
    /// - Throws: ``IMAPSequenceSetError`` naming the offending offset; the session answers BAD.
    package init(parsing text: some StringProtocol) throws(IMAPSequenceSetError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Parses a set from the bytes of a command line.
    ///
    /// - Throws: ``IMAPSequenceSetError`` naming the offending offset; the session answers BAD.
    package init(bytes: [UInt8]) throws(IMAPSequenceSetError) {
        guard bytes.count <= Self.maximumLength else { throw .tooLong(length: bytes.count) }
        if bytes == [UInt8(ascii: "$")] {
            self = .saved
            return
        }
        var ranges: [IMAPSequenceRange] = []
        var index = 0
        while true {
            let first = try Self.number(in: bytes, at: &index)
            var second = first
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                second = try Self.number(in: bytes, at: &index)
            }
            ranges.append(IMAPSequenceRange(first, second))
            if index == bytes.count { break }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw .unexpected(character: bytes[index], position: index)
            }
            index += 1
        }
        self = .ranges(ranges)
    }

    /// Reads one `seq-number` at `index` and moves past it.
    private static func number(
        in bytes: [UInt8], at index: inout Int
    ) throws(IMAPSequenceSetError) -> IMAPSequenceNumber {
        let start = index
        guard index < bytes.count else { throw .empty(position: index) }
        switch bytes[index] {
        case UInt8(ascii: "*"):
            index += 1
            return .last
        case UInt8(ascii: "$"):
            throw .savedNotAlone(position: index)
        case UInt8(ascii: "0"):
            throw .zero(position: index)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            var value: UInt64 = 0
            while index < bytes.count, Self.digits.contains(bytes[index]) {
                value = value * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
                index += 1
                if value > UInt64(UInt32.max) {
                    while index < bytes.count, Self.digits.contains(bytes[index]) {
                        index += 1
                    }
                    let digits = String(decoding: bytes[start..<min(index, start + 40)], as: UTF8.self)
                    throw .tooLarge(number: index - start > 40 ? digits + "…" : digits, position: start)
                }
            }
            return .number(UInt32(value))
        case UInt8(ascii: ","), UInt8(ascii: ":"):
            throw .empty(position: index)
        default:
            throw .unexpected(character: bytes[index], position: index)
        }
    }

    /// The numbers the set covers when the largest number in use is `largest`, as sorted,
    /// disjoint, non-adjacent ranges; not clipped to `largest`, so that a UID range `559:*`
    /// keeps covering the last UID (RFC 9051 §9). Nil for `$`, which the session resolves.
    package func resolved(largest: UInt32) -> [ClosedRange<UInt32>]? {
        guard case .ranges(let elements) = self else { return nil }
        let sorted = elements.map { $0.resolved(largest: largest) }
            .sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in sorted {
            if let last = merged.last, UInt64(range.lowerBound) <= UInt64(last.upperBound) + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Whether `number` is in the set when the largest number in use is `largest`; false for `$`.
    package func contains(_ number: UInt32, largest: UInt32) -> Bool {
        guard case .ranges(let elements) = self else { return false }
        return elements.contains { $0.resolved(largest: largest).contains(number) }
    }

    /// The numbers from 1 to `largest` that the set covers, ascending and each once, produced
    /// range by range as they are iterated (message sequence numbers: `largest` is the message
    /// count). Empty for `$`.
    package func numbers(upTo largest: UInt32) -> some Sequence<UInt32> {
        let clipped = (resolved(largest: largest) ?? []).compactMap { range -> ClosedRange<UInt32>? in
            guard largest > 0, range.lowerBound <= largest else { return nil }
            return max(range.lowerBound, 1)...min(range.upperBound, largest)
        }
        return clipped.lazy.joined()
    }

    /// The highest number the client named, `*` counting as `largest`; the session refuses a
    /// message sequence number above the message count with it. Nil for `$`.
    package func highest(largest: UInt32) -> UInt32? {
        resolved(largest: largest)?.last?.upperBound
    }
}
