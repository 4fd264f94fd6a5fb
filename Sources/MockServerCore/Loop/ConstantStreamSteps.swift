/// The connection's steps for a reply worked out in advance, converted once when the reply is
/// made rather than for every reply: the steps ``PlainReplyPerformer`` gives for sends, pauses,
/// closes and faults, none of which depends on the connection.
///
/// Converting them for each reply cost about 650 instructions a line reply (a new step list, each
/// step copied, the list freed once run); the converted list is shared instead, and a connection
/// only reads it. A class, so that a reply that carries them (a script's, an HTTP reply) holds one
/// reference, with the reply steps they came from beside them.
///
/// Kept: holds ``StreamStep``s, not `Sendable` only because two of its cases hold driver code
/// (`whenWritten`, `run`); the initialiser keeps only the cases that hold values.
package final class ConstantStreamSteps: @unchecked Sendable {
    /// The converted steps, in order.
    package let steps: [StreamStep]
    /// The reply steps they were converted from, for a driver that reads reply steps itself.
    package let replySteps: [ReplyStep<Never>]

    /// The steps of `replySteps`, or `nil` when one of them needs its connection (conditions, which
    /// the connection runs under, or a `then`, worked out when it is reached).
    package init?(_ replySteps: [ReplyStep<Never>]) {
        var steps: [StreamStep] = []
        steps.reserveCapacity(replySteps.count)
        for step in replySteps {
            switch step {
            case .send(let bytes): steps.append(.send(bytes))
            case .pause(let duration): steps.append(.pause(duration))
            case .close: steps.append(.close(.script))
            case .fault(let fault): steps.append(.fault(fault))
            case .conditions, .then: return nil
            }
        }
        self.steps = steps
        self.replySteps = replySteps
    }
}
