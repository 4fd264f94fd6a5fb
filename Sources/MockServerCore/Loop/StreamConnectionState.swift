/// Where a ``StreamConnection`` is, as one value, and what it does next: events go in (a readiness,
/// the input's end, the driver's decision, a step, a fault, a close asked for), decisions come out,
/// and the connection does the I/O, the timers and the driver calls they name. No sockets, no loop
/// and no driver here, so the machine is tested on its own (as ``TLSStateMachine`` is).
///
/// Every fact the connection keeps about its lifecycle is here: what it is doing (``Activity``,
/// whose cases carry what is true in them: the reason it closes for, whether that close lingers),
/// the input side, the sending side, how the current answer's sends are shaped, whether its close
/// was recorded, whether its driver is owed word of drained output, and what the loop watches for.
/// The connection's steps, output buffer, transport and the two closures or addresses it keeps while
/// waiting (``StreamStep/whenWritten(_:)``'s code, an outbound connection's target) stay with it:
/// they are the program and the resources, not the state, and keeping the target out of
/// ``Activity`` keeps its cases to what needs no retain on the hot path.
///
/// The value is read and changed on every unit, on the loop's thread alone; its methods are small
/// and inlined into the connection, so the hot path costs what the separate fields did.
package struct StreamConnectionState: Sendable, Equatable {
    /// What the connection is doing.
    package enum Activity: Sendable, Equatable {
        /// An outbound connection attempt runs; nothing is recorded of it unless it is made.
        case connecting
        /// Running steps, or reading input when there are none.
        case running
        /// A ``StreamStep/pause(_:)`` timer is pending.
        case paused
        /// The driver waits for something (a transfer, an answer computed elsewhere).
        case held
        /// ``StreamFault/hang``: nothing more is answered.
        case hanging
        /// A ``StreamStep/whenWritten(_:)`` waits for the output to be written.
        case awaitingOutput
        /// No more steps or input: the connection closes for the reason once its output is sent,
        /// at once or lingering for the peer's end (``Ending``).
        case closing(Transcript.CloseReason, then: Ending)
        /// The output is all written and the sending side shut; the peer's input is read and
        /// dropped until it ends or ``StreamConnection/lingerTime`` passes, then the connection
        /// closes for the reason.
        case lingering(Transcript.CloseReason)
        /// Closed: nothing more happens.
        case closed
    }

    /// How a closing connection ends once its output is written.
    package enum Ending: Sendable, Equatable {
        /// It closes.
        case close
        /// It shuts its sending side and drops the peer's input until the peer ends
        /// (``StreamConnection/finishAfterOutputLingering(_:)``): closing with unread input sends
        /// an RST, which can destroy what the peer has received and not read yet.
        case linger
    }

    /// The input side.
    package enum Input: Sendable, Equatable {
        /// Bytes may still come.
        case flowing
        /// The peer ended its side.
        case ended
    }

    /// The sending side of the transport.
    package enum Sending: Sendable, Equatable {
        case open
        /// ``StreamFault/halfClose``: no more output is accepted; the sending side is shut down
        /// once what was queued has been written.
        case shutAfterFlush
        case shutDown
    }

    /// How the sends of the current answer are shaped.
    package enum Shaping: Sendable, Equatable {
        case none
        /// The next send keeps this many bytes, and the connection closes after it.
        case truncate(Int)
        /// Sends leave in small pieces with pauses between them.
        case dribble(bytesPerSecond: Int)
    }

    /// Whether the transcript has the connection's close.
    package enum CloseRecord: Sendable, Equatable {
        /// Not yet: the close records itself.
        case due
        /// Recorded already (``StreamConnection/recordClosed(_:)``), so the close records nothing.
        case recorded
    }

    /// Whether the driver is owed ``StreamDriver/outputDrained(on:)``.
    package enum DrainNotice: Sendable, Equatable {
        case none
        /// A send from outside the steps left ``StreamConnection/outputRoom`` bytes or more
        /// waiting: the driver hears once they fall back under it.
        case owed
    }

    // The stored order keeps the value small: the activity (a close reason and a byte), the
    // one-byte facets in its tail padding, then the shaping.
    /// What the connection is doing.
    package private(set) var activity: Activity
    /// The input side.
    package private(set) var input = Input.flowing
    /// The sending side.
    package private(set) var sending = Sending.open
    /// Whether the close is still to be recorded.
    package private(set) var closeRecord = CloseRecord.due
    /// Whether the driver is owed word of drained output.
    package private(set) var drainNotice = DrainNotice.none
    /// What the loop watches the transport for now.
    package private(set) var interest: Interest
    /// How the current answer's sends are shaped.
    package private(set) var shaping = Shaping.none

    /// Output above this many bytes stops the reading of further input until it drains.
    package static let highWater = 1 << 20

    /// An accepted connection (or one over memory), about to run: it watches for input.
    package init() {
        activity = .running
        interest = .read
    }

    /// An outbound connection whose attempt just started: it watches for writability.
    package static func connecting() -> StreamConnectionState {
        var state = StreamConnectionState()
        state.activity = .connecting
        state.interest = .write
        return state
    }

    /// A machine with these facets (tests start one anywhere).
    package init(activity: Activity, input: Input = .flowing, sending: Sending = .open, closeRecord: CloseRecord = .due,
                 drainNotice: DrainNotice = .none, interest: Interest = .read, shaping: Shaping = .none) {
        self.activity = activity
        self.input = input
        self.sending = sending
        self.closeRecord = closeRecord
        self.drainNotice = drainNotice
        self.interest = interest
        self.shaping = shaping
    }

    // MARK: Queries

    /// Whether the connection runs steps or asks its driver.
    @inline(__always) package var isRunning: Bool {
        if case .running = activity { true } else { false }
    }

    /// Whether the connection has closed.
    @inline(__always) package var isClosed: Bool {
        if case .closed = activity { true } else { false }
    }

    /// Whether the driver waits for something.
    @inline(__always) package var isHeld: Bool {
        if case .held = activity { true } else { false }
    }

    /// Whether an outbound connection attempt runs.
    @inline(__always) package var isConnecting: Bool {
        if case .connecting = activity { true } else { false }
    }

    /// Whether a ``StreamStep/whenWritten(_:)`` waits for the output.
    @inline(__always) package var isAwaitingOutput: Bool {
        if case .awaitingOutput = activity { true } else { false }
    }

    /// The reason a lingering connection closes for, while it lingers.
    @inline(__always) package var lingeringReason: Transcript.CloseReason? {
        if case .lingering(let reason) = activity { reason } else { nil }
    }

    /// Whether the peer ended its input.
    @inline(__always) package var inputEnded: Bool { input == .ended }

    /// Whether sends are accepted (not after a half-close).
    @inline(__always) package var acceptsOutput: Bool { sending == .open }

    /// Whether sends go out as given: unshaped, and accepted.
    @inline(__always) package var sendsPlainly: Bool { shaping == .none && sending == .open }

    /// Whether input is to be read now: while lingering (to drop it), or while running with no steps
    /// left (`stepsPending`), the input not ended and less than ``highWater`` bytes of output waiting.
    @inline(__always) package func wantsInput(stepsPending: Bool, outputCount: Int) -> Bool {
        switch activity {
        case .lingering: true
        case .running: input == .flowing && !stepsPending && outputCount < Self.highWater
        case .connecting, .paused, .held, .hanging, .awaitingOutput, .closing, .closed: false
        }
    }

    /// What the loop is to watch for now, or `nil` when that is what it watches already: input
    /// when the connection reads (``wantsInput(stepsPending:outputCount:)``), writability when
    /// output waits. With `keepingHeldRead`, a connection held for its driver's answer keeps
    /// watching for input it already watched for (the answer usually comes in the same turn, and
    /// dropping and restoring the interest would cost two system calls a request). The connection
    /// reports the change made with ``interestSet(_:)``.
    @inline(__always) package func interestChange(stepsPending: Bool, outputCount: Int, keepingHeldRead: Bool) -> Interest? {
        var wanted: Interest = []
        if wantsInput(stepsPending: stepsPending, outputCount: outputCount) || (keepingHeldRead && interest.contains(.read)) {
            wanted.insert(.read)
        }
        if outputCount > 0 { wanted.insert(.write) }
        return wanted == interest ? nil : wanted
    }

    /// The loop watches for `interest` now.
    @inline(__always) package mutating func interestSet(_ interest: Interest) {
        self.interest = interest
    }

    // MARK: Connecting

    /// The outbound connection was made: it runs, and its close will be recorded.
    package mutating func connected() {
        guard isConnecting else { return }
        activity = .running
    }

    // MARK: Readiness

    /// A readiness came while a ``StreamStep/whenWritten(_:)`` waited: whether its code runs now
    /// (the output is `allWritten`), the connection running again first.
    package mutating func outputWritten(allWritten: Bool) -> Bool {
        guard isAwaitingOutput, allWritten else { return false }
        activity = .running
        return true
    }

    /// A readiness handled with the output at or above ``StreamConnection/outputRoom`` before it
    /// (`wasFull`) or with a notice owed, and room now (`hasRoom`): whether the driver hears that
    /// the output drained. The notice owed is paid so.
    @inline(__always) package mutating func drainedNoticeDue(wasFull: Bool, hasRoom: Bool) -> Bool {
        guard wasFull || drainNotice == .owed, hasRoom, !isClosed else { return false }
        drainNotice = .none
        return true
    }

    /// A send from outside the steps left the output without room: the driver is owed a notice.
    package mutating func outputLeftFull() {
        drainNotice = .owed
    }

    /// The peer ended its input.
    package mutating func inputEnd() {
        input = .ended
    }

    // MARK: The driver

    /// A new answer begins: the previous one's shaping is forgotten.
    @inline(__always) package mutating func newAnswer() {
        shaping = .none
    }

    /// The driver needs input: with the input ended, the connection closes for the peer's end.
    @inline(__always) package mutating func needInput() {
        if input == .ended { finish(.peerClosed) }
    }

    /// The driver waits (``DriverDecision/wait``, ``StreamConnection/hold()``): only a running connection holds.
    package mutating func hold() {
        if isRunning { activity = .held }
    }

    /// The driver's wait is over: whether the connection runs again (only a held one does).
    package mutating func resume() -> Bool {
        guard isHeld else { return false }
        activity = .running
        return true
    }

    /// The connection is to close for `reason` once its output is written (a step, the driver's
    /// ``DriverDecision/finish(_:)``, a relay's end), lingering for the peer's end when `ending` says
    /// so. A close asked again replaces the reason; one asked to linger still lingers. Nothing
    /// happens once the connection lingers or is closed.
    package mutating func finish(_ reason: Transcript.CloseReason, then ending: Ending = .close) {
        switch activity {
        case .lingering, .closed:
            return
        case .closing(_, then: .linger):
            activity = .closing(reason, then: .linger)
        case .connecting, .running, .paused, .held, .hanging, .awaitingOutput, .closing:
            activity = .closing(reason, then: ending)
        }
    }

    // MARK: Steps

    /// A ``StreamStep/pause(_:)``: whether its timer is set (only a running connection pauses).
    package mutating func pause() -> Bool {
        guard isRunning else { return false }
        activity = .paused
        return true
    }

    /// A pause's timer fired: whether the connection runs on (it still pauses).
    package mutating func pauseEnded() -> Bool {
        guard case .paused = activity else { return false }
        activity = .running
        return true
    }

    /// A ``StreamStep/whenWritten(_:)`` found output still waiting: the connection waits for it.
    package mutating func awaitOutput() {
        guard !isClosed else { return }
        activity = .awaitingOutput
    }

    /// A ``StreamFault``'s change of state (``StreamFault/reset`` is the connection's own close).
    package mutating func fault(_ fault: StreamFault) {
        switch fault {
        case .reset:
            break
        case .halfClose:
            if sending == .open { sending = .shutAfterFlush }
        case .hang:
            guard !isClosed else { return }
            activity = .hanging
        case .truncate(let bytes), .truncateBody(after: let bytes):
            // A byte stream has no head: its body is all of it. HTTP's stubs cut a body themselves.
            shaping = .truncate(bytes)
        case .dribble(let rate):
            shaping = .dribble(bytesPerSecond: rate)
        }
    }

    // MARK: Sending

    /// What a send does.
    package enum SendAction: Sendable, Equatable {
        /// Queue the bytes.
        case queue
        /// Nothing is sent: the sending side was shut (``StreamFault/halfClose``).
        case refuse
        /// Queue this many of the bytes and no more steps: the connection closes after them
        /// (``StreamFault/truncate(_:)``).
        case truncate(keeping: Int)
        /// Queue `chunk` bytes now, and the rest in pieces of `chunk` bytes with `gap` between them.
        case dribble(chunk: Int, gap: Duration)
    }

    /// A send of `count` bytes.
    @inline(__always) package mutating func send(count: Int) -> SendAction {
        guard sending == .open else { return .refuse }
        switch shaping {
        case .none:
            return .queue
        case .truncate(let limit):
            shaping = .none
            finish(.script)
            return .truncate(keeping: min(limit, count))
        case .dribble(let rate):
            guard count > 1 else { return .queue }
            let chunk = max(1, rate / 100)
            return .dribble(chunk: chunk, gap: .nanoseconds(Int64(chunk) * 1_000_000_000 / Int64(rate)))
        }
    }

    /// What was queued has been written as far as the transport took it: whether the sending side
    /// is to be shut now (after a half-close, once `allWritten` says everything has left).
    @inline(__always) package mutating func flushed(allWritten: () -> Bool) -> Bool {
        guard sending == .shutAfterFlush, allWritten() else { return false }
        sending = .shutDown
        return true
    }

    // MARK: Ending

    /// What the connection does after running its steps and writing what it could.
    package enum StepsDoneAction: Sendable, Equatable {
        /// Go on: watch for what it wants (``interestChange(stepsPending:outputCount:keepingHeldRead:)``,
        /// keeping a held read when `keepingHeldRead`).
        case watch(keepingHeldRead: Bool)
        /// Close for the reason.
        case close(Transcript.CloseReason)
        /// Shut the sending side, watch for input only, drop what comes, and close for the reason
        /// at the peer's end or after ``StreamConnection/lingerTime`` (the state lingers already).
        case linger(Transcript.CloseReason)
    }

    /// The connection ran its steps and wrote what it could (`allWritten`: everything left).
    @inline(__always) package mutating func stepsDone(allWritten: () -> Bool) -> StepsDoneAction {
        guard case .closing(let reason, let ending) = activity, allWritten() else {
            return .watch(keepingHeldRead: isHeld)
        }
        guard ending == .linger, input == .flowing else { return .close(reason) }
        activity = .lingering(reason)
        sending = .shutDown
        return .linger(reason)
    }

    /// What closing does.
    package struct CloseAction: Sendable, Equatable {
        /// Whether the close is recorded in the transcript (not when it was recorded already, nor
        /// for an outbound connection that was never made).
        package var records: Bool

        /// An action that records the close when `records`.
        package init(records: Bool) {
            self.records = records
        }
    }

    /// The connection closes (the reason and the manner are the connection's): what it does, or
    /// `nil` when it was closed already.
    package mutating func close() -> CloseAction? {
        let records: Bool
        switch activity {
        case .closed: return nil
        case .connecting: records = false
        case .running, .paused, .held, .hanging, .awaitingOutput, .closing, .lingering: records = closeRecord == .due
        }
        activity = .closed
        closeRecord = .recorded
        return CloseAction(records: records)
    }

    /// The close is recorded now, while the transport stays open
    /// (``StreamConnection/recordClosed(_:)``): whether to record it (once, and not for an
    /// outbound connection not made yet).
    package mutating func recordClose() -> Bool {
        guard closeRecord == .due, !isConnecting, !isClosed else { return false }
        closeRecord = .recorded
        return true
    }
}
