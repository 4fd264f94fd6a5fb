import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(HotPath) import MockServerCore
import MockServerHTTP
@testable import MockServerInProcess

/// A route's first answer, asked on the loading thread with a context of its own.
@Suite("In-process route: the first answer")
struct InProcessRouteTests {
    /// What a responder keeps for its connection: how often it was asked there.
    final class Count: Sendable {
        let value = Locked(0)
    }

    /// Counts its requests in the connection's states; keeps the context in its answer when `keeps`.
    struct CountingResponder: HTTPMockResponder {
        let keeps: Bool
        /// Each count, and which store it was in (not the store: holding it would keep it from reuse).
        let seen: Locked<[(count: Int, states: ObjectIdentifier)]>

        func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? { nil }

        func answerImmediately(_ request: HTTPMockRequest, context: HTTPRequestContext) throws -> HTTPReply.Immediate {
            let count = context.states.state(Count.self) { Count() }.value.withLock { value in
                value += 1
                return value
            }
            seen.withLock { $0.append((count, ObjectIdentifier(context.states))) }
            return keeps ? .asynchronous { [context] in
                _ = context
                return nil
            } : .deferred
        }
    }

    /// Three first answers of a route to `responder`'s mock: each one's connection number and
    /// answer, and what the responder saw.
    private static func threeAnswers(keeping: Bool) throws -> (answers: [(connectionID: Int, answer: HTTPReply.Immediate)], seen: [(count: Int, states: ObjectIdentifier)]) {
        let responder = CountingResponder(keeps: keeping, seen: Locked([]))
        let selector = try IOSelector.make()
        defer { selector.close() }
        let connector = LoopConnector(inbox: LoopInbox(selector: selector)) { fatalError("no connection is made") }
        let route = InProcessRoute(connector: connector, responder: { responder }, environment: ServerEnvironment(transcript: Transcript(), logger: .disabled),
                                   authority: "127.0.0.1:8080", hosts: nil, additionalHeaders: nil, cookieStorage: nil)
        let request = try #require(HTTPMockRequest(parsing: Array("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
        // The answers are kept until all three are asked: one that keeps its context keeps its states alive.
        let answers = (0..<3).map { _ in route.firstAnswer(to: request) }
        return (answers, responder.seen.withLock { $0 })
    }

    @Test("each first answer is a new connection: nothing a responder kept for an earlier one is there, and the numbers differ")
    func freshStates() throws {
        let (answers, seen) = try Self.threeAnswers(keeping: false)
        #expect(Set(answers.map(\.connectionID)).count == 3)
        #expect(seen.map(\.count) == [1, 1, 1])
    }

    @Test("an answer that keeps its context keeps its states to itself: the next first answer gets others")
    func keptStates() throws {
        let (_, seen) = try Self.threeAnswers(keeping: true)
        #expect(seen.map(\.count) == [1, 1, 1])
        #expect(Set(seen.map(\.states)).count == 3)
    }
}
