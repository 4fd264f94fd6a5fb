import MockServerCore
import MockServerHTTP

/// One request the recorder answers on the server's loop (``HTTPRecorder/answer(_:context:on:done:)``):
/// it takes the upstream exchange's outcome, or the client going away first, and hands the client's
/// reply to the driver once. One object a request, in place of the closures and the captured
/// variable's box that did this before.
///
/// Lives on the loop's thread alone.
final class RecorderLoopAnswer: UpstreamOutcomeTaker {
    /// Whether the reply was handed over.
    private enum State {
        /// Waiting for the outcome; `done` takes the reply.
        case waiting(done: (HTTPReply?) -> Void)
        /// Handed over (or the client went away first): later outcomes do nothing.
        case answered
    }

    private let recorder: HTTPRecorder
    private let request: HTTPMockRequest
    private let context: HTTPRequestContext
    private unowned let loop: EventLoop
    private var state: State

    init(recorder: HTTPRecorder, request: HTTPMockRequest, context: HTTPRequestContext, loop: EventLoop, done: @escaping (HTTPReply?) -> Void) {
        self.recorder = recorder
        self.request = request
        self.context = context
        self.loop = loop
        state = .waiting(done: done)
    }

    /// The upstream's outcome, or the client going away (as a cancelled task's `respond` ends: a
    /// 502 counted and noted that nobody reads).
    func take(_ outcome: Result<UpstreamResponse, UpstreamError>) {
        // A server that stops closes its connections, upstream ones too: an exchange under way
        // goes with it, neither counted nor noted, as a task's did (its continuation's job never
        // ran once the loop had stopped).
        guard loop.isRunning, case .waiting(let done) = state else { return }
        state = .answered
        done(recorder.reply(to: request, outcome, context: context))
    }

    /// Ends the exchange for a client that went away before the reply.
    func clientLeft() {
        take(.failure(.unavailable("the client went away")))
    }
}
