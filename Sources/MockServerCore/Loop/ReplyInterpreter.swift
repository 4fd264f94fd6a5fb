/// The one reader of a reply's ``ReplyStep``s: steps in, ``ReplyAction``s out, a value with no
/// transport. Every driver (HTTP/1.1 and the line and WebSocket drivers through
/// ``ReplyPerformer``, HTTP/2's streams, the in-process path) runs a reply through it, and carries
/// out each action with its own transport.
///
/// What it decides, the same for every protocol:
/// - a ``ReplyStep/then(_:)`` is worked out when it is reached (``next()``), and its steps come
///   next, before the rest; a driver that converts ahead of time stops where one waits
///   (``waitsToWorkOut``) and comes back once what came before is carried out;
/// - a ``ReplyStep/close`` and a fault that ends what can be sent (``ends(_:)``) are the reply's
///   last actions: what follows them is never read (a `then` after them never runs);
/// - after the last action, ``next()`` gives ``ReplyAction/end`` again and again.
///
/// `@_spi(HotPath)` and `@inlinable` (see `MutexStorage`): it is on every answer's path, and a
/// driver in another module gets it specialised for its `Output` and inlined, with no metadata
/// look-ups or value-witness copies of the steps.
@_spi(HotPath) @frozen public struct ReplyInterpreter<Output: Sendable> {
    /// Where the reading stands.
    @usableFromInline enum Progress {
        /// Steps are left from `index` on.
        case reading(index: Int)
        /// The reply ended (its steps ran out, or a close or an ending fault was handed out).
        case over
    }

    @usableFromInline var steps: [ReplyStep<Output>]
    @usableFromInline var progress: Progress

    /// An interpreter at the first of `steps`.
    @inlinable
    public init(_ steps: [ReplyStep<Output>]) {
        self.steps = steps
        progress = steps.isEmpty ? .over : .reading(index: 0)
    }

    /// Whether the reply is over: no action is left but ``ReplyAction/end`` (a `then` left counts
    /// as an action: it may give more).
    @inlinable
    public var isAtEnd: Bool {
        if case .reading = progress { false } else { true }
    }

    /// Whether the next step is a ``ReplyStep/then(_:)``, which ``next()`` would work out now: a
    /// driver that converts steps ahead of time stops here and asks again once what came before
    /// is carried out (its pauses waited out).
    @inlinable
    public var waitsToWorkOut: Bool {
        guard case .reading(let index) = progress, case .then = steps[index] else { return false }
        return true
    }

    /// Whether `fault` ends what the reply can send, so that it is the reply's last action: a
    /// reset, a half close (a FIN) or a hang. A truncation and a dribble shape the sends after them.
    @inlinable
    public static func ends(_ fault: StreamFault) -> Bool {
        switch fault {
        case .reset, .halfClose, .hang: true
        case .truncate, .truncateBody, .dribble: false
        }
    }

    /// The next action, working out a ``ReplyStep/then(_:)`` that is reached (on the caller's
    /// thread: call it when what came before is carried out); ``ReplyAction/end`` once the reply is over.
    @inlinable
    public mutating func next() -> ReplyAction<Output> {
        while case .reading(let index) = progress {
            let step = steps[index]
            progress = index + 1 < steps.count ? .reading(index: index + 1) : .over
            switch step {
            case .send(let bytes): return .send(bytes)
            case .pause(let duration): return .pause(duration)
            case .conditions(let conditions): return .conditions(conditions)
            case .output(let output): return .output(output)
            case .fault(let fault):
                if Self.ends(fault) { finish() }
                return .fault(fault)
            case .close:
                finish()
                return .close
            case .then(let rest):
                let more = rest()
                guard !more.isEmpty else { continue }
                if case .reading(let following) = progress {
                    steps.replaceSubrange(index..<following, with: more)
                    progress = .reading(index: index)
                } else {
                    // The last step: its steps are all that is left.
                    steps = more
                    progress = .reading(index: 0)
                }
            }
        }
        return .end
    }

    /// Ends the reading; the steps are let go.
    @inlinable
    mutating func finish() {
        progress = .over
        steps = []
    }

    /// Each action up to the reply's end converted by the function for its kind, in order (a
    /// `conditions` action whose function gives `nil` is left out), stopping where a `then` waits
    /// after converted steps (``waitsToWorkOut``): `then` gets the interpreter from there, to go on
    /// with (converting again) once what came before is carried out. A `then` before any converted
    /// step is worked out at once. The body of ``ReplyPerformer``'s `streamSteps(for:on:)`, and what the
    /// HTTP/1.1 driver calls with its own functions, specialised in its module.
    @inlinable
    public mutating func convert<Step>(
        send: ([UInt8]) -> Step, pause: (Duration) -> Step, conditions: (NetworkConditions?) -> Step?, output: (Output) -> Step,
        fault: (StreamFault) -> Step, close: () -> Step, then: (ReplyInterpreter<Output>) -> Step
    ) -> [Step] {
        guard case .reading(let index) = progress else { return [] }
        if index + 1 == steps.count, case .output(let value) = steps[index] {
            // One output left, the commonest reply (one response): an array of one made at its
            // size, with no loop (reserving capacity takes the array's generic growth path, and
            // the loop copies the step twice: about 200 instructions a small HTTP/1.1 answer).
            progress = .over
            return [output(value)]
        }
        var result: [Step] = []
        result.reserveCapacity(steps.count - index)
        while true {
            // A `then` with nothing converted before it in this call is worked out now: what came
            // before it is carried out already (or there is nothing before it).
            if !result.isEmpty, waitsToWorkOut {
                result.append(then(self))
                return result
            }
            switch next() {
            case .send(let bytes): result.append(send(bytes))
            case .pause(let duration): result.append(pause(duration))
            case .conditions(let value):
                if let converted = conditions(value) { result.append(converted) }
            case .output(let value): result.append(output(value))
            case .fault(let value): result.append(fault(value))
            case .close: result.append(close())
            case .end: return result
            }
        }
    }
}
