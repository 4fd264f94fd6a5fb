/// Deadlines on the monotonic clock with the work to run at each: a binary min-heap.
package struct TimerQueue {
    private struct Timer {
        let deadline: UInt64
        let sequence: UInt64
        let action: () -> Void
        func precedes(_ other: Timer) -> Bool { (deadline, sequence) < (other.deadline, other.sequence) }
    }

    private var heap: [Timer] = []
    private var sequence: UInt64 = 0

    /// The earliest deadline, if any.
    package var nextDeadline: UInt64? { heap.first?.deadline }

    package var isEmpty: Bool { heap.isEmpty }

    /// Adds work to run at `deadline`; timers with equal deadlines run in the order they were added.
    package mutating func schedule(at deadline: UInt64, _ action: @escaping () -> Void) {
        sequence += 1
        heap.append(Timer(deadline: deadline, sequence: sequence, action: action))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest timer's work when its deadline is at or before `now`.
    package mutating func popDue(now: UInt64) -> (() -> Void)? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.action
    }

    /// Drops every timer.
    package mutating func removeAll() { heap.removeAll() }
}
