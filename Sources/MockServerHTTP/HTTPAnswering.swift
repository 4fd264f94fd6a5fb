import MockServerCore

/// The one path by which the HTTP drivers (HTTP/1.1's and each of HTTP/2's streams) ask an
/// ``HTTPMockResponder`` for a request's reply and answer its errors: the responder's immediate
/// answer first (``start(_:_:context:given:on:)``, on the loop, no task and no allocation), and
/// only when it defers, the answer computed (``compute(_:on:deliver:)``) on the loop for an
/// ``HTTPLoopResponder`` or in a task whose jobs run on the connection's loop. A responder that
/// throws is answered `500` naming the error (``failure(_:on:)``), the same on both protocols.
package enum HTTPAnswering {
    /// What the responder said at once.
    package enum Start {
        /// The reply (a responder's error already answered by ``failure(_:on:)``).
        case reply(HTTPReply)
        /// Nothing answers the request.
        case unmatched
        /// The answer has to be computed: ``compute(_:on:deliver:)`` does it.
        case later(Later)
    }

    /// An answer to compute: the responder that deferred, or the work it handed back.
    package struct Later {
        /// Indirect, so that ``Start`` (made for every request, a reply nearly always) stays as
        /// small as a reply: the responder, request and context go in a box only when an answer
        /// is deferred, which then makes a task or a loop answer anyway.
        fileprivate indirect enum Work {
            /// An ``HTTPLoopResponder`` answers on the loop, with no task.
            case onLoop(any HTTPLoopResponder, HTTPMockRequest, HTTPRequestContext)
            /// A task computes the answer.
            case task(@Sendable () async throws -> HTTPReply?)
        }

        fileprivate let work: Work
    }

    /// Where a computed answer stands once ``compute(_:on:deliver:)`` returns.
    package enum Computing {
        /// It came before the start returned (an ``HTTPLoopResponder`` that answered at once, a task
        /// started on the loop's thread that never suspended): `nil` when nothing answers. The
        /// delivery function is not called.
        case done(HTTPReply?)
        /// It comes later, to the delivery function, on the loop's thread; `cancel` ends the work
        /// when the client (or the stream) goes first.
        case waiting(cancel: () -> Void)
    }

    /// Asks `responder` for its immediate answer to `request` (or takes `given`, what it already
    /// said before the connection existed, so that nothing it counts happens twice).
    @inline(__always)
    package static func start(_ responder: any HTTPMockResponder, _ request: HTTPMockRequest, context: HTTPRequestContext,
                              given: HTTPReply.Immediate? = nil, on connection: StreamConnection) -> Start {
        let answer: HTTPReply.Immediate
        if let given {
            answer = given
        } else {
            do {
                answer = try responder.answerImmediately(request, context: context)
            } catch {
                return .reply(failure(error, on: connection))
            }
        }
        switch answer {
        case .reply(let reply):
            return .reply(reply)
        case .unmatched:
            return .unmatched
        case .deferred:
            if let responder = responder as? any HTTPLoopResponder { return .later(Later(work: .onLoop(responder, request, context))) }
            return .later(Later(work: .task({ try await responder.respond(to: request, context: context) })))
        case .asynchronous(let operation):
            return .later(Later(work: .task(operation)))
        }
    }

    /// Computes `later`: on the loop for an ``HTTPLoopResponder``, otherwise in a task whose jobs
    /// run on the connection's loop (where the system has task executors), so that the answer never
    /// waits for Swift's cooperative pool, which the rest of the process (tests that block in a read
    /// or wait for a child process) can keep busy for many seconds. Where the system has
    /// `Task.immediate` (Linux, and Apple systems of 2025) the task starts on the loop's thread at
    /// once, and an answer that never suspends is ``Computing/done(_:)`` with no trip through the
    /// loop's queue. A later answer goes to `deliver` on the loop's thread; a responder's error
    /// comes as its `500`.
    package static func compute(_ later: Later, on connection: StreamConnection, deliver: @escaping (HTTPReply?) -> Void) -> Computing {
        let pending = Pending(connection: connection, deliver: deliver)
        switch later.work {
        case .onLoop(let responder, let request, let context):
            let cancel = responder.answer(request, context: context, on: connection.loop) { reply in pending.take(.success(reply)) }
            if let early = pending.started() { return .done(early) }
            return .waiting(cancel: cancel)
        case .task(let answer):
            let inbox = connection.loop.inbox
            let bound = LoopBound(pending)
            // `early`: the task is being started by `Task.immediate` on the loop's thread, and
            // an outcome before that returns is the starter's.
            func operation(early: Bool) -> @Sendable () async -> Void {
                return {
                    let outcome: Result<HTTPReply?, any Error>
                    do {
                        outcome = .success(try await answer())
                    } catch {
                        outcome = .failure(error)
                    }
                    if early, bound.value.takeWhileStarting(outcome) { return }
                    inbox.execute { _ in bound.value.take(outcome) }
                }
            }
            let task: Task<Void, Never>
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                task = Task.immediate(executorPreference: LoopTaskExecutor.of(connection.loop), operation: operation(early: true))
                if let early = pending.started() { return .done(early) }
            } else if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
                // The answer is computed on the loop's own thread.
                task = Task(executorPreference: LoopTaskExecutor.of(connection.loop), operation: operation(early: false))
                _ = pending.started()
            } else {
                task = Task(operation: operation(early: false))
                _ = pending.started()
            }
            return .waiting(cancel: { task.cancel() })
        }
    }

    /// A 500 naming the responder's error, logged on the connection.
    package static func failure(_ error: any Error, on connection: StreamConnection) -> HTTPReply {
        connection.log(.error, "the responder failed: \(error)")
        let body = Array("MockServer: the responder failed: \(error)\n".utf8)
        return HTTPReply(HTTPMockResponse(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"], body: body), name: "responder error")
    }

    /// An answer under way: one object a request, holding what its delivery needs. Used on the
    /// loop's thread alone (a task that finishes elsewhere comes back through the loop's inbox).
    private final class Pending {
        private enum Phase {
            /// The work is being started: an answer now is the starter's.
            case starting
            /// The answer came before the start returned.
            case early(HTTPReply?)
            /// The start returned: an answer goes to the delivery function when it comes.
            case waiting
        }

        private var phase = Phase.starting
        private let connection: StreamConnection
        private let deliver: (HTTPReply?) -> Void

        init(connection: StreamConnection, deliver: @escaping (HTTPReply?) -> Void) {
            self.connection = connection
            self.deliver = deliver
        }

        /// The answer, on the loop's thread.
        func take(_ outcome: Result<HTTPReply?, any Error>) {
            let reply: HTTPReply?
            switch outcome {
            case .success(let answer): reply = answer
            case .failure(let error): reply = failure(error, on: connection)
            }
            switch phase {
            case .starting, .early: phase = .early(reply)
            case .waiting: deliver(reply)
            }
        }

        /// Takes `outcome` when the start has not returned (a task started on the loop's thread
        /// that finished before `Task.immediate` returned); `false` once it has.
        func takeWhileStarting(_ outcome: Result<HTTPReply?, any Error>) -> Bool {
            guard case .starting = phase else { return false }
            take(outcome)
            return true
        }

        /// Ends the start: the answer when it already came (`.some(nil)` for none), or `nil`.
        func started() -> HTTPReply?? {
            defer { phase = .waiting }
            if case .early(let reply) = phase { return .some(reply) }
            return nil
        }
    }
}
