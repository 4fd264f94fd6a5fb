/// A driver that has a ``StreamConnection`` carry out ``ReplyStep``s: the actions of the one
/// interpreter (``ReplyInterpreter``) converted to the connection's own steps.
///
/// The driver says only what is its protocol's: what an ``ReplyStep/output(_:)`` of its `Output`
/// does, and, where its protocol differs, what a send, a close, a fault or conditions become
/// (WebSocket's sends are messages; HTTP's conditions last to the end of the response). Pauses and
/// ``ReplyStep/then(_:)`` are the same for every driver. A step is converted as it is listed; a
/// `then` converts what it returns when it is reached, and those steps run before the rest.
package protocol ReplyPerformer<Output>: AnyObject {
    /// What the driver's protocol sends besides bytes (`Never`: nothing).
    associatedtype Output: Sendable

    /// The connection's step for a ``ReplyStep/send(_:)``: the bytes as they are, by default.
    func sendStep(_ bytes: [UInt8], on connection: StreamConnection) -> StreamStep
    /// The connection's step for a ``ReplyStep/close``: closing once what came before is sent, by default.
    func closeStep(on connection: StreamConnection) -> StreamStep
    /// The connection's step for a ``ReplyStep/fault(_:)``: the fault itself, by default.
    func faultStep(_ fault: StreamFault, on connection: StreamConnection) -> StreamStep
    /// The connection's step for ``ReplyStep/conditions(_:)``, if any: by default, the connection
    /// runs under them (or, for `nil`, its own again) once what came before is written.
    func conditionsStep(_ conditions: NetworkConditions?, on connection: StreamConnection) -> StreamStep?
    /// The connection's step for one of the protocol's outputs.
    func outputStep(_ output: Output, on connection: StreamConnection) -> StreamStep
}

extension ReplyPerformer {
    @inlinable
    package func sendStep(_ bytes: [UInt8], on connection: StreamConnection) -> StreamStep { .send(bytes) }

    @inlinable
    package func closeStep(on connection: StreamConnection) -> StreamStep { .close(.script) }

    @inlinable
    package func faultStep(_ fault: StreamFault, on connection: StreamConnection) -> StreamStep { .fault(fault) }

    @inlinable
    package func conditionsStep(_ conditions: NetworkConditions?, on connection: StreamConnection) -> StreamStep? {
        .whenWritten { [unowned connection] in connection.runUnder(conditions) }
    }

    /// The connection's steps for `steps`, as ``ReplyInterpreter`` reads them.
    ///
    /// Specialised here for ``PlainReplyPerformer``, the performer of every reply worked out in
    /// advance: the modules that call it got the generic body, which looks up `ReplyStep`'s
    /// metadata and copies each step through value witnesses on every reply.
    @_specialize(exported: true, where Self == PlainReplyPerformer)
    @inlinable
    package func streamSteps(for steps: [ReplyStep<Output>], on connection: StreamConnection) -> [StreamStep] {
        var interpreter = ReplyInterpreter(steps)
        return streamSteps(continuing: &interpreter, on: connection)
    }

    /// The connection's steps for what is left of `interpreter`'s reply, up to a `then` that waits:
    /// that one becomes a step that goes on from there when the connection reaches it.
    @inlinable
    package func streamSteps(continuing interpreter: inout ReplyInterpreter<Output>, on connection: StreamConnection) -> [StreamStep] {
        interpreter.convert(send: { sendStep($0, on: connection) }, pause: { .pause($0) }, conditions: { conditionsStep($0, on: connection) },
                            output: { outputStep($0, on: connection) }, fault: { faultStep($0, on: connection) },
                            close: { closeStep(on: connection) },
                            then: { rest in .run { [unowned self, unowned connection] in
                                var rest = rest
                                connection.insertSteps(self.streamSteps(continuing: &rest, on: connection))
                            } })
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
