/// A driver that has a ``StreamConnection`` carry out ``ReplyStep``s: the one converter from the
/// step language to the connection's own steps.
///
/// The driver says only what is its protocol's: what an ``ReplyStep/output(_:)`` of its `Output`
/// does, and, for a protocol whose bytes travel in frames of its own (WebSocket's messages), what a
/// send and a close become. Pauses, faults, conditions and ``ReplyStep/then(_:)`` are the same for
/// every driver. A step is converted as it is listed; a `then` converts what it returns when it is
/// reached, and those steps run before the rest.
package protocol ReplyPerformer<Output>: AnyObject {
    /// What the driver's protocol sends besides bytes (`Never`: nothing).
    associatedtype Output: Sendable

    /// The connection's step for a ``ReplyStep/send(_:)``: the bytes as they are, by default.
    func sendStep(_ bytes: [UInt8], on connection: StreamConnection) -> StreamStep
    /// The connection's step for a ``ReplyStep/close``: closing once what came before is sent, by default.
    func closeStep(on connection: StreamConnection) -> StreamStep
    /// The connection's step for one of the protocol's outputs.
    func outputStep(_ output: Output, on connection: StreamConnection) -> StreamStep
}

extension ReplyPerformer {
    package func sendStep(_ bytes: [UInt8], on connection: StreamConnection) -> StreamStep { .send(bytes) }

    package func closeStep(on connection: StreamConnection) -> StreamStep { .close(.script) }

    /// The connection's steps for `steps`.
    package func streamSteps(for steps: [ReplyStep<Output>], on connection: StreamConnection) -> [StreamStep] {
        steps.map { step in
            switch step {
            case .send(let bytes): sendStep(bytes, on: connection)
            case .pause(let duration): .pause(duration)
            case .close: closeStep(on: connection)
            case .fault(let fault): .fault(fault)
            case .conditions(let conditions): .whenWritten { [unowned connection] in connection.runUnder(conditions) }
            case .output(let output): outputStep(output, on: connection)
            case .then(let rest):
                .run { [unowned self, unowned connection] in connection.insertSteps(self.streamSteps(for: rest(), on: connection)) }
            }
        }
    }
}

/// The performer of steps without output (a reply worked out in advance, which only sends, pauses,
/// closes or fails): the connection's default for each.
package final class PlainReplyPerformer: ReplyPerformer, Sendable {
    /// The one performer; it keeps nothing.
    package static let shared = PlainReplyPerformer()

    private init() {}

    package func outputStep(_ output: Never, on connection: StreamConnection) -> StreamStep {}
}
