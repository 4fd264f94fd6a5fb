/// A reply's steps taken one at a time by a driver that runs them itself rather than through a
/// connection's step list (HTTP/2 runs one reply per stream, side by side): a
/// ``ReplyStep/then(_:)`` is worked out when it is reached, and its steps come next, before the
/// rest, as ``ReplyPerformer`` has a connection do. Pauses stay steps: the driver waits them out
/// before it asks for the next one, so a `then` after a pause runs after it.
package struct ReplyStepCursor<Output: Sendable> {
    private var steps: [ReplyStep<Output>]
    private var index = 0

    /// A cursor at the first of `steps`.
    package init(_ steps: [ReplyStep<Output>]) {
        self.steps = steps
    }

    /// Whether no step is left (a `then` left counts as a step: it may give more).
    package var isAtEnd: Bool { index >= steps.count }

    /// The next step to carry out (never a `then`: those are worked out here), or `nil` at the end.
    package mutating func next() -> ReplyStep<Output>? {
        while index < steps.count {
            let step = steps[index]
            index += 1
            guard case .then(let rest) = step else { return step }
            steps.insert(contentsOf: rest(), at: index)
        }
        return nil
    }
}
