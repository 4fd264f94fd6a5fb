import MockServerCore
import MockServerMail
import MockServerTLS

/// A mail connection served by a ``MailDialogue``: it keeps the bytes the dialogue has not
/// consumed (bounded by `limit`), hands them to it as one slice, and turns its actions into the
/// connection's steps; `startTLS` begins TLS with the server's identity once the reply before it
/// is written.
package final class MailConnectionDriver: StreamDriver {
    /// Where the connection is.
    private enum Phase {
        /// Not opened yet: the dialogue is made when the connection opens, with its peer.
        case unopened
        /// Input arrives and the dialogue reads it.
        case reading(any MailDialogue)
        /// The peer finished sending or the dialogue closed: nothing more is read.
        case ended
    }

    private var phase = Phase.unopened
    private var input = UnconsumedInput()
    /// The most unconsumed bytes the dialogue may leave waiting for more.
    private let limit: Int
    /// Makes the connection's dialogue from its peer's address and its security at the start.
    private let makeDialogue: (NetworkAddress?, MailTransportSecurity) -> any MailDialogue
    /// The response script tried first on each command line, when the server has one.
    private let script: MailScriptHook?
    /// Whether a wake-up came while the connection's output was full (a client that does not read
    /// what an idling IMAP session tells it): the dialogue is asked once the output drains, so a
    /// peer that stops reading holds at most the connection's output room.
    private var wakeDeferred = false

    /// A driver whose dialogue `makeDialogue` makes as the connection opens, with `script`'s
    /// patterns tried before it on the greeting and each command line.
    init(limit: Int, script: MailScriptHook? = nil, makeDialogue: @escaping (NetworkAddress?, MailTransportSecurity) -> any MailDialogue) {
        self.limit = limit
        self.script = script
        self.makeDialogue = makeDialogue
    }

    package func opened(_ connection: StreamConnection) -> [StreamStep] {
        var dialogue = makeDialogue(connection.peer, connection.speaksTLS ? .implicitTLS : .plain)
        let target = LoopBound(WakeTarget(driver: self, connection: connection))
        let inbox = connection.loop.inbox
        dialogue.attach { inbox.execute { _ in target.value.wake() } }
        let actions = dialogue.start()
        phase = .reading(dialogue)
        // A script's `«initial»` stands in for the session's greeting (a close the session asks for still closes).
        if let greeting = script?.greeting(on: connection) {
            return greeting + steps(for: actions.filter { if case .close = $0 { true } else { false } }, on: connection)
        }
        return steps(for: actions, on: connection)
    }

    package func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        input.append(bytes)
    }

    package func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        guard case .reading(var dialogue) = phase else { return .finish(.peerClosed) }
        phase = .ended
        while true {
            if let script, dialogue.expectsCommand {
                let (answered, _) = input.read { slice -> [StreamStep]? in
                    guard let (line, length) = dialogue.commandLine(in: slice), let steps = script.answer(line, on: connection) else { return nil }
                    slice.removeFirst(length)
                    return steps
                }
                if let answered {
                    dialogue.commandLineTaken()
                    phase = .reading(dialogue)
                    return .steps(answered)
                }
            }
            let (actions, consumed) = input.read { dialogue.read(&$0) }
            if !actions.isEmpty {
                phase = .reading(dialogue)
                return .steps(steps(for: actions, on: connection))
            }
            if !consumed { break }
        }
        if inputEnded {
            let (actions, _) = input.read { dialogue.inputEnded(&$0) }
            input.removeAll()
            // Nothing more is read: the dialogue lets go of what it holds (IMAP's registration with
            // the store) now, since the phase it would be found in at the close is gone.
            dialogue.detach()
            return actions.isEmpty ? .finish(.peerClosed) : .steps(steps(for: actions, on: connection))
        }
        phase = .reading(dialogue)
        if input.count > limit {
            connection.log(.warning, "\(input.count) bytes of input wait unconsumed, past the limit of \(limit); closing")
            phase = .ended
            dialogue.detach()
            return .finish(.inputTooLong(limit: limit))
        }
        return .needInput
    }

    package func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        if case .reading(var dialogue) = phase { dialogue.detach() }
        phase = .ended
    }

    package func outputDrained(on connection: StreamConnection) {
        if wakeDeferred { woken(on: connection) }
    }

    /// The dialogue's connection was woken from another thread: what it sends now goes out at once,
    /// after what is queued (an idling IMAP session has no command in progress to interleave with).
    fileprivate func woken(on connection: StreamConnection) {
        guard !connection.isClosed, case .reading(var dialogue) = phase else { return }
        guard connection.hasOutputRoom else {
            wakeDeferred = true
            return
        }
        wakeDeferred = false
        phase = .ended
        let actions = dialogue.woken()
        phase = .reading(dialogue)
        for action in actions {
            switch action {
            case .send(let bytes): connection.sendNow(bytes)
            case .record(let bytes): connection.recordInput(InputUnit(bytes: bytes), response: nil)
            case .close(let reason): connection.finishAfterOutput(.finished(reason))
            case .startTLS: break
            }
        }
    }

    /// The connection's steps for `actions`.
    private func steps(for actions: [MailAction], on connection: StreamConnection) -> [StreamStep] {
        var steps: [StreamStep] = []
        steps.reserveCapacity(actions.count)
        for action in actions {
            switch action {
            case .send(let bytes): steps.append(.send(bytes))
            case .record(let bytes): connection.recordInput(InputUnit(bytes: bytes), response: nil)
            case .close(let reason): steps.append(.close(.finished(reason)))
            case .startTLS:
                // Commands pipelined after STARTTLS arrived in plain text: never answered under TLS.
                input.removeAll()
                steps.append(.whenWritten { [unowned self, unowned connection] in self.beginTLS(on: connection) })
            }
        }
        return steps
    }

    /// Begins TLS with the server's identity, and tells the dialogue.
    private func beginTLS(on connection: StreamConnection) {
        guard let context = connection.loop.existingAttachment(TLSContext.self) else {
            connection.log(.error, "STARTTLS: the server has no TLS identity; closing")
            connection.close(.finished("STARTTLS without a TLS identity"))
            return
        }
        do {
            try connection.startTLS(context: context)
        } catch {
            connection.log(.error, "STARTTLS: \(error)")
            return
        }
        input.removeAll()
        guard case .reading(var dialogue) = phase else { return }
        phase = .ended
        dialogue.tlsStarted()
        phase = .reading(dialogue)
    }
}

/// The driver and connection a wake-up reaches, held weakly: a wake queued as the connection
/// closes finds nothing and does nothing.
private final class WakeTarget {
    weak var driver: MailConnectionDriver?
    weak var connection: StreamConnection?

    init(driver: MailConnectionDriver, connection: StreamConnection) {
        self.driver = driver
        self.connection = connection
    }

    /// Tells the driver, on the loop's thread.
    func wake() {
        guard let driver, let connection else { return }
        driver.woken(on: connection)
    }
}
