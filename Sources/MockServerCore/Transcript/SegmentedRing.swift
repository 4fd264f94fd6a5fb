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
/// as the transcript's single array did. The oldest elements can also be taken out before that
/// (``removeOldest(leaving:)``, for a budget other than the count): their slots are then reused by the
/// next elements before the ring grows again. Positions are physical (`0 ..< slotCount`, in the order
/// the slots were first filled); ``start`` is the oldest element's position once the ring has wrapped.
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
    /// How many slots the segments have: ``count``, unless elements were taken out with
    /// ``removeOldest(leaving:)`` and their slots not filled again yet.
    private var slotCount = 0
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

    /// The element at physical `position` (`0 ..< count` until elements are taken out).
    package subscript(position: Int) -> Element {
        let segment = position >> segmentShift
        let slot = position & (segmentCapacity - 1)
        return segment < segments.count ? segments[segment][slot] : last[slot]
    }

    /// Stores `element`: appended while fewer than `limit` are held, otherwise in the oldest one's
    /// place. Returns the new one's position, and the oldest element when it was dropped for it.
    @inline(__always) @discardableResult
    package mutating func append(_ element: __owned Element) -> (position: Int, dropped: Element?) {
        if count >= limit { return replaceOldest(with: element) }
        if count < slotCount { return (fillSlot(with: element), nil) }
        if start != 0 { straighten() }
        if last.count == segmentCapacity {
            // The last segment is full: it joins the others, never to move, and a new one is made
            // whole at once. (The first grows as needed, so that a small ring stays small.)
            segments.append(last)
            last = []
            last.reserveCapacity(min(segmentCapacity, limit - count))
        }
        last.append(element)
        count += 1
        slotCount += 1
        return (count - 1, nil)
    }

    /// Puts `element` in the oldest one's place and returns that position and the element it
    /// replaced. Not inlined: inlined into the transcript's `record`, the optimiser copied the entry
    /// in and destroyed the original, rather than moving it (about 260 instructions more a reply).
    @inline(never)
    private mutating func replaceOldest(with element: __owned Element) -> (position: Int, dropped: Element?) {
        let position = start
        var element = element
        swapSlot(position, with: &element)
        start = position + 1 == slotCount ? 0 : position + 1
        return (position, element)
    }

    /// Puts `element` in the free slot after the newest (one an element taken out left) and returns
    /// its position.
    @inline(never)
    private mutating func fillSlot(with element: __owned Element) -> Int {
        let position = physical(count)
        var element = element
        swapSlot(position, with: &element)
        count += 1
        return position
    }

    /// Exchanges the element at physical `position` with `element`.
    private mutating func swapSlot(_ position: Int, with element: inout Element) {
        let segment = position >> segmentShift
        let slot = position & (segmentCapacity - 1)
        if segment < segments.count {
            swap(&segments[segment][slot], &element)
        } else {
            swap(&last[slot], &element)
        }
    }

    /// Takes out the oldest element and returns it; its slot holds `vacant` (which keeps nothing
    /// alive) until a new element fills it. The ring must not be empty.
    package mutating func removeOldest(leaving vacant: Element) -> Element {
        precondition(count > 0, "removeOldest on an empty ring")
        var element = vacant
        swapSlot(start, with: &element)
        count -= 1
        start = start + 1 == slotCount ? 0 : start + 1
        return element
    }

    /// Stores the elements from position 0 in order again, with no free slot, so that the ring can
    /// grow past its slots: needed only when elements taken out left free slots that new ones have
    /// filled since, the ring having wrapped meanwhile. Each element is moved once.
    private mutating func straighten() {
        let kept = ordered
        segments.removeAll()
        last = []
        count = 0
        slotCount = 0
        start = 0
        for element in kept { _ = append(element) }
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
        slotCount = 0
        start = 0
    }

    /// The physical position of the element `offset` places after the oldest.
    private func physical(_ offset: Int) -> Int {
        let position = start + offset
        return position < slotCount ? position : position - slotCount
    }
}
