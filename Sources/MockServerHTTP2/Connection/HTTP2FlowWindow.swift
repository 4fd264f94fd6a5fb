/// A flow-control window (RFC 9113 §6.9): how many DATA bytes one side may still send. It can go
/// below zero when SETTINGS_INITIAL_WINDOW_SIZE shrinks (§6.9.2), never above 2^31 - 1.
package struct HTTP2FlowWindow: Equatable, Sendable {
    package private(set) var size: Int

    package init(_ size: Int) {
        self.size = size
    }

    /// Adds `increment` (a WINDOW_UPDATE, or a change of the initial size, which may be negative);
    /// false, with the window unchanged, when that would pass 2^31 - 1.
    package mutating func grow(by increment: Int) -> Bool {
        guard size + increment <= Int(HTTP2Setting.maximumWindowSize) else { return false }
        size += increment
        return true
    }

    /// Takes `count` bytes sent or received; false, with the window unchanged, when it has not that many.
    package mutating func consume(_ count: Int) -> Bool {
        guard count <= size else { return false }
        size -= count
        return true
    }
}
