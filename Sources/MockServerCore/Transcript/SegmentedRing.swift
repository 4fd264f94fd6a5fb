/// A list that keeps its newest `limit` elements, in segments of fixed capacity, so that growing it
/// never copies or moves what is already there.
///
/// A single array doubles as it grows: each time it reallocates, copies every element into new memory,
/// and the process faults in pages for the new buffer while the old one is freed (the transcript's
/// array did this on a busy server: about 0.1 page faults a reply on the line row). Here the first
/// segment grows as an ordinary array up to ``segmentCapacity`` (a small transcript stays small), and
/// every later one is allocated at full capacity once, filled, and never moved.
///
/// Once `limit` elements are held it is a ring: each new element takes the oldest one's place, exactly
/// as the transcript's single array did. Positions are physical (`0 ..< count`, in the order the
/// elements were first stored); ``start`` is the oldest element's position once the ring has wrapped.
package struct SegmentedRing<Element> {
    /// How many elements one segment holds: a power of two, so that a position's segment and slot
    /// are a shift and a mask.
    package let segmentCapacity: Int
    private let segmentShift: Int
    /// How many elements are kept at most.
    package let limit: Int
    /// The segments before the last, each full.
    private var segments: [[Element]] = []
    /// The last segment: the one being filled while the ring grows. Held apart so that an append
    /// reaches it without going through the list of segments.
    private var last: [Element] = []
    /// How many elements are held.
    package private(set) var count = 0
    /// The position of the oldest element (0 until the ring wraps).
    package private(set) var start = 0

    /// Creates an empty ring.
    ///
    /// - Parameters:
    ///   - limit: how many elements to keep (at least 1).
    ///   - segmentShift: how many elements one segment holds, as a power of two (`1 << segmentShift`).
    package init(limit: Int, segmentShift: Int = 10) {
        self.limit = max(1, limit)
        self.segmentShift = min(max(0, segmentShift), 20)
        self.segmentCapacity = 1 << self.segmentShift
    }

    /// Whether nothing is held.
    package var isEmpty: Bool { count == 0 }

    /// The element at physical `position` (`0 ..< count`).
    package subscript(position: Int) -> Element {
        let segment = position >> segmentShift
        let slot = position & (segmentCapacity - 1)
        return segment < segments.count ? segments[segment][slot] : last[slot]
    }

    /// Stores `element`: appended while fewer than `limit` are held, otherwise in the oldest one's
    /// place. Returns whether an old element was dropped, and the new one's position.
    @inline(__always) @discardableResult
    package mutating func append(_ element: __owned Element) -> (position: Int, dropped: Bool) {
        if count >= limit { return (replaceOldest(with: element), true) }
        if last.count == segmentCapacity {
            // The last segment is full: it joins the others, never to move, and a new one is made
            // whole at once. (The first grows as needed, so that a small ring stays small.)
            segments.append(last)
            last = []
            last.reserveCapacity(min(segmentCapacity, limit - count))
        }
        last.append(element)
        count += 1
        return (count - 1, false)
    }

    /// Puts `element` in the oldest one's place and returns that position. Not inlined: inlined into
    /// the transcript's `record`, the optimiser copied the entry in and destroyed the original,
    /// rather than moving it (about 260 instructions more a reply).
    @inline(never)
    private mutating func replaceOldest(with element: __owned Element) -> Int {
        let position = start
        let segment = position >> segmentShift
        let slot = position & (segmentCapacity - 1)
        if segment < segments.count {
            segments[segment][slot] = element
        } else {
            last[slot] = element
        }
        start = position + 1 == count ? 0 : position + 1
        return position
    }

    /// The first element, oldest first, for which `predicate` holds.
    package func first(where predicate: (Element) throws -> Bool) rethrows -> Element? {
        for offset in 0..<count {
            let element = self[physical(offset)]
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Every element, oldest first.
    package var ordered: [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for offset in 0..<count { result.append(self[physical(offset)]) }
        return result
    }

    /// Forgets every element and frees the segments.
    package mutating func removeAll() {
        segments.removeAll()
        last = []
        count = 0
        start = 0
    }

    /// The physical position of the element `offset` places after the oldest.
    private func physical(_ offset: Int) -> Int {
        let position = start + offset
        return position < count ? position : position - count
    }
}
