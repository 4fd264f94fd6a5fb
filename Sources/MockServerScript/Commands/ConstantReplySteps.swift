import MockServerCore

/// A reply's steps in a driver's output, worked out once with their ``ResponseEntry``
/// (``ConstantOutputCommand``): a class, so that the entry holds them without naming the output
/// type, and a driver finds its own with a class cast (`as? ConstantReplySteps<ItsOutput>`), which
/// costs far less than a cast of an existential command.
package final class ConstantReplySteps<Output: Sendable>: Sendable {
    /// The steps, in order.
    package let steps: [ReplyStep<Output>]

    package init(_ steps: [ReplyStep<Output>]) {
        self.steps = steps
    }
}
