/// The loop's handlers by descriptor, in an array indexed by the descriptor's number.
///
/// Descriptors are small integers the kernel hands out lowest first, so an array indexed by them
/// stays about as long as the most descriptors open at once. Each event looks its handler up here:
/// an index, where a dictionary hashed the number and probed its table (about 110 instructions an
/// event).
package struct DescriptorTable<Handler> {
    private var slots: [Handler?] = []

    /// An empty table.
    package init() {}

    /// The handler of `fd`, or nil; setting nil forgets it.
    package subscript(fd: Int32) -> Handler? {
        @inline(__always) get {
            let index = Int(fd)
            return index >= 0 && index < slots.count ? slots[index] : nil
        }
        set {
            let index = Int(fd)
            guard index >= 0 else { return }
            if index >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count))
            }
            slots[index] = newValue
        }
    }

    /// Every handler held, by ascending descriptor.
    package var values: [Handler] { slots.compactMap { $0 } }

    /// Forgets every handler.
    package mutating func removeAll() {
        slots.removeAll()
    }
}
