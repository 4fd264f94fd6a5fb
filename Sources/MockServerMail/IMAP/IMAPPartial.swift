/// The `<offset.count>` after a FETCH section (RFC 9051 §6.4.5): which octets of the section to
/// send. `count` is nil for the `<offset>` form a server sends back.
package struct IMAPPartial: Sendable, Hashable {
    /// The first octet sent, counted from 0.
    package var offset: UInt32
    /// How many octets at most; nonzero when present.
    package var count: UInt32?

    /// A partial range.
    package init(offset: UInt32, count: UInt32?) {
        self.offset = offset
        self.count = count
    }
}
