/// One element of an IMAP sequence set: `a` alone, or `a:b` (RFC 9051 §9 `seq-range`), whose
/// ends may come in either order (`7:3` is `3:7`).
package struct IMAPSequenceRange: Hashable, Sendable {
    /// The end the client wrote first.
    package let first: IMAPSequenceNumber
    /// The end the client wrote second; the same as `first` for a single number.
    package let second: IMAPSequenceNumber

    /// A range from `first` to `second`, in either order.
    package init(_ first: IMAPSequenceNumber, _ second: IMAPSequenceNumber) {
        self.first = first
        self.second = second
    }

    /// The numbers this element covers when the largest number in use is `largest`, lower end
    /// first; not clipped to `largest` (`5:*` with 3 in use is `3...5`, RFC 9051 §9).
    package func resolved(largest: UInt32) -> ClosedRange<UInt32> {
        let a = first.resolved(largest: largest), b = second.resolved(largest: largest)
        return min(a, b)...max(a, b)
    }
}
