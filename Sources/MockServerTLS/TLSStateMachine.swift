import MockServerCore

/// Where a TLS connection is, as one value, and what it does next: events go in (the handshake
/// finished, the input ended, the connection asks to shut its sending side), actions come out, and
/// ``TLSTransport`` does the OpenSSL calls and the I/O they name. No sockets and no OpenSSL here,
/// so the machine is tested on its own (as NIO's `NIOTypedHTTPServerUpgraderStateMachine` is).
///
/// Every fact the transport keeps about its progress is in ``state``: one enum, whose cases carry
/// only what is true in them, so that (for example) "the end of the input waits to be reported"
/// cannot be written before the handshake is done.
package struct TLSStateMachine: Sendable, Equatable {
    /// Where the connection is.
    package enum State: Sendable, Equatable {
        /// The handshake runs; `then` says whether the sending side ends as soon as it is done.
        case handshaking(then: AfterHandshake)
        /// The handshake is held on purpose (``TLSSettings.HandshakeFault/hang``): input is read and dropped.
        case hanging
        /// The handshake is done: application data flows.
        case open(Open)
        /// The handshake or the record layer failed.
        case failed(Failure)
        /// The connection closed the transport.
        case closed
    }

    /// What follows the handshake.
    package enum AfterHandshake: Sendable, Equatable {
        /// The connection goes on.
        case stayOpen
        /// The connection ended its sending side during the handshake (an empty FTP listing is
        /// sent, and shut, before its handshake finishes): TLS's end follows the handshake.
        case shutdownWrite
    }

    /// An open connection's progress.
    package struct Open: Sendable, Equatable {
        /// The input side.
        package var input = Input.flowing
        /// The sending side.
        package var output = Output.open
        /// The loop callbacks queued and not run yet.
        package var queued: Callbacks = []

        /// An open connection with nothing ended and nothing queued.
        package init(input: Input = .flowing, output: Output = .open, queued: Callbacks = []) {
            self.input = input
            self.output = output
            self.queued = queued
        }
    }

    /// A failed connection's state.
    package struct Failure: Sendable, Equatable {
        /// Why it failed (the transcript's and the connection's error).
        package var reason: String
        /// What becomes of the sending side once what waits is written.
        package var output = Output.open
        /// How the connection closes.
        package var ending = Ending.asAsked
        /// The loop callbacks queued and not run yet (queued before the failure, or the flush of
        /// the alert OpenSSL wrote).
        package var queued: Callbacks = []

        /// A failure for `reason`.
        package init(reason: String, output: Output = .open, ending: Ending = .asAsked, queued: Callbacks = []) {
            self.reason = reason
            self.output = output
            self.ending = ending
            self.queued = queued
        }
    }

    /// The input side of an open connection.
    package enum Input: Sendable, Equatable {
        /// Records are read and decrypted.
        case flowing
        /// The input ended (`cause`) behind bytes just handed out: the next read reports the end.
        case endPending(EndCause)
        /// The end was reported.
        case ended(EndCause)
    }

    /// Why the input ended.
    package enum EndCause: Sendable, Equatable {
        /// The peer's `close_notify`.
        case closeNotify
        /// The inner transport's end, without `close_notify` (a truncation): no more ciphertext comes.
        case ciphertextEnded
    }

    /// The sending side.
    package enum Output: Sendable, Equatable {
        /// Records are written.
        case open
        /// The sending side ends (the inner transport's) once what waits is written.
        case shutdownWhenFlushed
        /// The inner transport's sending side was shut.
        case shut
    }

    /// How the connection's transport closes.
    package enum Ending: Sendable, Equatable {
        /// As the connection asks (FIN, or RST when it asks for a reset).
        case asAsked
        /// With an RST whatever the connection asks (``TLSSettings.HandshakeFault/reset``).
        case reset
    }

    /// Loop callbacks the transport queued.
    package struct Callbacks: OptionSet, Sendable, Equatable {
        /// The set's bits.
        package let rawValue: UInt8
        /// The set of `rawValue`'s bits.
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A readiness that tells the connection input can be read (input inside OpenSSL, which no
        /// socket readiness announces).
        package static let read = Callbacks(rawValue: 1)
        /// A flush at the end of the loop's turn.
        package static let flush = Callbacks(rawValue: 2)
    }

    /// The connection's state.
    package private(set) var state: State

    /// A connection whose handshake is about to begin.
    package init() {
        state = .handshaking(then: .stayOpen)
    }

    /// A machine in `state` (tests start one anywhere).
    package init(state: State) {
        self.state = state
    }

    // MARK: Queries

    /// Whether the handshake still runs (not held, not done).
    package var isHandshaking: Bool {
        if case .handshaking = state { true } else { false }
    }

    /// Whether application data flows.
    package var isOpen: Bool {
        if case .open = state { true } else { false }
    }

    /// Whether the transport was closed.
    package var isClosed: Bool {
        if case .closed = state { true } else { false }
    }

    /// Whether the end of the input waits for the next read.
    package var endIsPending: Bool {
        if case .open(let open) = state, case .endPending = open.input { true } else { false }
    }

    /// Whether the inner transport has ended: reading it again would only say so.
    package var ciphertextEnded: Bool {
        guard case .open(let open) = state else { return false }
        switch open.input {
        case .flowing, .endPending(.closeNotify), .ended(.closeNotify): return false
        case .endPending(.ciphertextEnded), .ended(.ciphertextEnded): return true
        }
    }

    /// What the inner transport must watch: reading during the handshake (whatever the connection
    /// asked), what the connection asked once open, only reading after a failure; and writing
    /// whenever ciphertext waits for the socket.
    package func interest(wanted: Interest, hasPendingOutput: Bool) -> Interest {
        var interest: Interest = switch state {
        case .handshaking, .hanging: .read
        case .open: wanted
        case .failed, .closed: wanted.intersection(.read)
        }
        if hasPendingOutput { interest.insert(.write) }
        return interest
    }

    /// What the connection hears of a readiness of the inner transport, once the transport has
    /// acted on it (advanced the handshake, dropped a held handshake's input): `before` is the
    /// state the readiness found, `drained` whether ciphertext that waited was just written.
    /// `nil`: nothing.
    ///
    /// During the handshake the connection hears only of a broken peer; when the handshake ends
    /// it may write what it held and read what came with it (`hasBufferedInput`, asked only
    /// then), or read the failure; once open, a connection that does not watch for writing hears
    /// of drained ciphertext (it may be waiting for its output to be written).
    package func readinessForConnection(_ readiness: Readiness, before: State, drained: Bool, wantsWrite: Bool,
                                        hasBufferedInput: () -> Bool) -> Readiness? {
        var forwarded = readiness
        switch (before, state) {
        case (.hanging, .failed):
            forwarded = Readiness(readable: true, writable: false, failed: readiness.failed)
        case (.hanging, _), (.handshaking, .handshaking), (.handshaking, .hanging):
            forwarded = Readiness(readable: readiness.failed, writable: false, failed: readiness.failed)
        case (.handshaking, .open):
            forwarded = Readiness(readable: hasBufferedInput() || readiness.readable, writable: wantsWrite, failed: readiness.failed)
        case (.handshaking, .failed), (.handshaking, .closed):
            forwarded = Readiness(readable: true, writable: false, failed: readiness.failed)
        case (.open, _), (.failed, _), (.closed, _):
            if !wantsWrite { forwarded.writable = drained }
        }
        return forwarded.readable || forwarded.writable || forwarded.failed ? forwarded : nil
    }

    // MARK: The handshake

    /// What the transport does once the handshake is done.
    package enum HandshakeDoneAction: Sendable, Equatable {
        /// Report the handshake; the connection goes on.
        case report
        /// Report the handshake, then end TLS's sending side (the connection asked during it).
        case reportAndShutdownWrite
    }

    /// The handshake finished: the connection is open.
    package mutating func handshakeDone() -> HandshakeDoneAction {
        guard case .handshaking(let then) = state else { preconditionFailure("the handshake finished in \(state)") }
        state = .open(Open())
        return then == .shutdownWrite ? .reportAndShutdownWrite : .report
    }

    /// The handshake is held on purpose (``TLSSettings.HandshakeFault/hang``).
    package mutating func hang() {
        state = .hanging
    }

    /// The handshake's timer fired: the reason the connection fails, or `nil` when the handshake
    /// was over by then.
    package func handshakeTimedOut(after timeout: Duration) -> String? {
        switch state {
        case .handshaking: "no handshake within \(timeout)"
        case .hanging: "no handshake within \(timeout): the handshake fault hang held it"
        case .open, .failed, .closed: nil
        }
    }

    // MARK: Failing

    /// The connection failed for `reason`; the sending side's end still follows the flush it waits for.
    package mutating func fail(_ reason: String) {
        fail(reason, ending: .asAsked)
    }

    /// The connection failed for `reason`, and closes as `ending` says.
    package mutating func fail(_ reason: String, ending: Ending) {
        state = switch state {
        case .open(let open): .failed(Failure(reason: reason, output: open.output, ending: ending, queued: open.queued))
        // A reset once asked for stays asked for.
        case .failed(let failure): .failed(Failure(reason: reason, output: failure.output, ending: failure.ending == .reset ? .reset : ending, queued: failure.queued))
        case .handshaking, .hanging, .closed: .failed(Failure(reason: reason, ending: ending))
        }
    }

    // MARK: Reading

    /// What a read does first.
    package enum ReadAction: Sendable, Equatable {
        /// Nothing to hand out yet (the handshake runs or is held).
        case wouldBlock
        /// The connection failed for this reason.
        case fail(String)
        /// The input ended.
        case endOfFile
        /// Decrypt records into the caller's buffer.
        case decrypt
    }

    /// A read begins (after the transport advanced a running handshake).
    package mutating func read() -> ReadAction {
        switch state {
        case .handshaking, .hanging: return .wouldBlock
        case .failed(let failure): return .fail(failure.reason)
        case .closed: return .endOfFile
        case .open(var open):
            guard case .endPending(let cause) = open.input else { return .decrypt }
            open.input = .ended(cause)
            state = .open(open)
            return .endOfFile
        }
    }

    /// What the transport does when the input ends in a read.
    package enum InputEndAction: Sendable, Equatable {
        /// Report the end now.
        case endOfFile
        /// Hand out the bytes read first, and queue a read that reports the end.
        case bytesThenEnd
    }

    /// The input ended (`cause`) in a read that had decrypted `filled` bytes before it.
    package mutating func inputEnded(_ cause: EndCause, after filled: Int) -> InputEndAction {
        guard case .open(var open) = state else { return .endOfFile }
        // A truncation is remembered: the inner transport has nothing more to give.
        let kept: EndCause = ciphertextEnded ? .ciphertextEnded : cause
        open.input = filled > 0 ? .endPending(kept) : .ended(kept)
        state = .open(open)
        return filled > 0 ? .bytesThenEnd : .endOfFile
    }

    // MARK: Writing

    /// What a write does.
    package enum WriteAction: Sendable, Equatable {
        /// Nothing can be written yet (the handshake runs or is held).
        case wouldBlock
        /// The connection failed for this reason.
        case fail(String)
        /// The transport was closed.
        case closed
        /// Encrypt the caller's bytes.
        case encrypt
    }

    /// A write begins.
    package func write() -> WriteAction {
        switch state {
        case .handshaking, .hanging: .wouldBlock
        case .failed(let failure): .fail(failure.reason)
        case .closed: .closed
        case .open: .encrypt
        }
    }

    // MARK: Ending

    /// What the transport does when the connection ends its sending side.
    package enum ShutdownAction: Sendable, Equatable {
        /// Nothing yet: TLS's end follows the handshake.
        case deferred
        /// End TLS (with `close_notify`, unless a fault leaves it out), write what waits, then shut
        /// the inner transport's sending side.
        case endTLS
        /// No TLS to end: shut the inner transport's sending side now.
        case shutInner
    }

    /// The connection ends its sending side.
    package mutating func shutdownWrite() -> ShutdownAction {
        switch state {
        case .handshaking:
            state = .handshaking(then: .shutdownWrite)
            return .deferred
        case .open(var open):
            open.output = .shutdownWhenFlushed
            state = .open(open)
            return .endTLS
        case .hanging, .failed, .closed:
            return .shutInner
        }
    }

    /// Everything that waited for the socket was written: whether the inner transport's sending
    /// side is to be shut now.
    package mutating func outputFlushed() -> Bool {
        switch state {
        case .open(var open) where open.output == .shutdownWhenFlushed:
            open.output = .shut
            state = .open(open)
            return true
        case .failed(var failure) where failure.output == .shutdownWhenFlushed:
            failure.output = .shut
            state = .failed(failure)
            return true
        case .handshaking, .hanging, .open, .failed, .closed:
            return false
        }
    }

    /// What closing the transport does.
    package struct CloseAction: Sendable, Equatable {
        /// Whether TLS ends first (`close_notify` as far as the socket takes it, unless a fault leaves it out).
        package var endsTLS: Bool
        /// Whether the inner transport closes with an RST.
        package var reset: Bool

        /// An action that ends TLS first when `endsTLS`, and closes with an RST when `reset`.
        package init(endsTLS: Bool, reset: Bool) {
            self.endsTLS = endsTLS
            self.reset = reset
        }
    }

    /// What closing the transport, with an RST when `reset` is true, does first; ``closed()``
    /// follows once it is done.
    package func closing(reset: Bool) -> CloseAction {
        switch state {
        case .open: CloseAction(endsTLS: !reset, reset: reset)
        case .failed(let failure) where failure.ending == .reset: CloseAction(endsTLS: false, reset: true)
        case .handshaking, .hanging, .failed, .closed: CloseAction(endsTLS: false, reset: reset)
        }
    }

    /// The transport was closed.
    package mutating func closed() {
        state = .closed
    }

    // MARK: Loop callbacks

    /// Whether a callback for `callback` is to be queued now: once at a time, and only while open
    /// or failed (a failed connection's alert is flushed too); nothing is queued before the
    /// handshake is done or after the close.
    package mutating func queue(_ callback: Callbacks) -> Bool {
        switch state {
        case .open(var open) where !open.queued.contains(callback):
            open.queued.insert(callback)
            state = .open(open)
            return true
        case .failed(var failure) where !failure.queued.contains(callback):
            failure.queued.insert(callback)
            state = .failed(failure)
            return true
        case .handshaking, .hanging, .open, .failed, .closed:
            return false
        }
    }

    /// A queued `callback` runs: whether it does its work (not once the transport is closed).
    package mutating func run(_ callback: Callbacks) -> Bool {
        switch state {
        case .open(var open):
            open.queued.remove(callback)
            state = .open(open)
            return true
        case .failed(var failure):
            failure.queued.remove(callback)
            state = .failed(failure)
            return true
        case .closed:
            return false
        case .handshaking, .hanging:
            return true
        }
    }
}
