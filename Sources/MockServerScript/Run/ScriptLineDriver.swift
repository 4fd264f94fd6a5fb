import MockServerCore

/// A line protocol (or raw reads, as the original did, or any framer's units) answered by a ``ScriptResponder``: it frames the
/// input, asks the responder for each unit, and hands the reply's commands to a ``ScriptRun``,
/// whose steps the connection carries out.
///
/// It knows no protocol: what FTP adds (a data channel, its built-in replies) comes with FTP's
/// commands, which keep their state in the connection's ``ScriptConnectionStorage``.
package final class ScriptLineDriver: StreamDriver, ReplyPerformer {
    private let server: any ScriptServer
    /// The substitution values: those that do not change while the server runs, and the last
    /// reply's data and protocols' variables, which each reply sets again
    /// (``ScriptServer/replyState(updating:)``). Used on the loop's thread alone.
    // callgrind noop 500 2500: 36,071 vs 39,553 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var context: SubstitutionContext
    /// The framer when it is the usual ``LineFramer``, held as itself: called directly, rather than
    /// through an existential whose boxed value is checked for uniqueness on each mutating call (about
    /// 200 instructions a line). Exactly one of this and ``otherFramer`` is set, at `init`. Both are
    /// used on the loop's thread alone, never through overlapping accesses: no dynamic exclusivity
    /// checks (a thread-local lookup each, twice a unit).
    // callgrind noop 500 2500: 36,071 vs 39,553 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var lineFramer: LineFramer?
    /// Any other framer (raw reads, a protocol's own).
    // callgrind noop 500 2500: 36,071 vs 39,553 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var otherFramer: (any InputFramer)?
    /// The connection's storage, made only when something needs it (a script's command run, a set
    /// switched): most connections of a line protocol never do, and an idle one then costs its
    /// storage's three objects less (about 120 bytes).
    // callgrind noop 500 2500: 36,071 vs 39,553 instructions an answer with every hot-path @exclusivity(unchecked) off (this driver's six fields: nine checks an answer).
    @exclusivity(unchecked) private var storage: ScriptConnectionStorage?
    /// The connection's session as this driver last read it from ``storage``; read again only after
    /// the interpreter ran, as only its set switches change it.
    // callgrind noop 500 2500: 36,071 vs 39,553 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var session = ScriptSession(connectionID: 0)
    // callgrind noop 500 2500: 36,071 vs 39,553 instructions an answer with every hot-path @exclusivity(unchecked) off.
    @exclusivity(unchecked) private var sessionMayHaveChanged = false

    /// A driver for one connection whose input `framer` cuts into units.
    package init(server: any ScriptServer, base: SubstitutionContext, framer: any InputFramer) {
        self.server = server
        self.context = base
        if let lines = framer as? LineFramer {
            lineFramer = lines
        } else {
            otherFramer = framer
        }
    }

    package func opened(_ connection: StreamConnection) -> [StreamStep] {
        session = ScriptSession(connectionID: connection.id)
        let responder = server.replyState(updating: &context)
        let reply = responder.connected(session: &session, context: context)
        if session.responseSet != nil { madeStorage(of: connection).session = session }
        guard let reply else { return [] }
        return steps(for: reply, context: context, on: connection)
    }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        if lineFramer != nil {
            lineFramer!.append(bytes)
        } else {
            otherFramer!.append(bytes)
        }
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        let unit: [UInt8]?
        do {
            if lineFramer != nil {
                unit = inputEnded ? try lineFramer!.finish() : try lineFramer!.next()
            } else {
                unit = inputEnded ? try otherFramer!.finish() : try otherFramer!.next()
            }
        } catch {
            connection.log(.warning, "\(error); closing")
            return .finish(error.closeReason)
        }
        guard let unit else { return inputEnded ? .finish(.peerClosed) : .needInput }
        return answer(InputUnit(bytes: unit), context: &context, on: connection)
    }

    /// The decision for `input`. `context` is passed `inout` so that the responder and the steps
    /// read it in place: a read of the stored property for a call would copy it, retaining each of
    /// its values, once a reply.
    private func answer(_ input: InputUnit, context: inout SubstitutionContext, on connection: StreamConnection) -> DriverDecision {
        let responder = server.replyState(updating: &context)
        if sessionMayHaveChanged, let storage {
            session = storage.session
            sessionMayHaveChanged = false
        }
        let before = session.responseSet
        let answer = responder.respond(to: input, session: &session, context: context)
        if session.responseSet != before { madeStorage(of: connection).session = session }
        // `consume`: the reply moves into `reply`. Bound as a copy (`guard let reply = answer`), it
        // was copied (a retain of each of its parts) and the optional destroyed, about 600
        // instructions a reply.
        guard let reply = consume answer else {
            connection.record(.unmatched(input))
            connection.log(.warning, "unmatched input: \(input)")
            return .finish(.unmatchedInput)
        }
        connection.recordInput(input, response: reply.response)
        connection.log(.trace, "<- \(input) [\(reply.response ?? "")]")
        return .steps(steps(for: reply, context: context, on: connection))
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        storage?.connectionClosed()
    }

    /// The connection's storage, made now if it has none yet (holding the session as it is).
    private func madeStorage(of connection: StreamConnection) -> ScriptConnectionStorage {
        if let storage { return storage }
        let made = ScriptConnectionStorage(connectionID: connection.id)
        made.session = session
        storage = made
        return made
    }

    private func steps(for reply: ScriptReply, context: SubstitutionContext, on connection: StreamConnection) -> [StreamStep] {
        if let constant = reply.constantStreamSteps { return constant.steps }
        if let plain = reply.plainSteps { return PlainReplyPerformer.shared.streamSteps(for: plain, on: connection) }
        sessionMayHaveChanged = true
        let run = ScriptRun(server: server, base: context, connectionID: connection.id, storage: madeStorage(of: connection))
        return streamSteps(for: run.steps(for: reply.commands, match: reply.match, as: LineWork.self), on: connection)
    }

    /// Work on the connection: its steps run next, or replace the rest of the reply.
    package func outputStep(_ work: LineWork, on connection: StreamConnection) -> StreamStep {
        .run { [unowned self, unowned connection] in
            switch work.run(connection) {
            case .continue(let steps): connection.insertSteps(self.streamSteps(for: steps, on: connection))
            case .instead(let steps): connection.replaceRemainingSteps(with: self.streamSteps(for: steps, on: connection))
            }
        }
    }
}
