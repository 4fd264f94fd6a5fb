import Foundation
import Testing
import TestSupport
import MockServer
@_spi(HotPath) import MockServerCore
import MockServerInProcess
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The process's in-process route registry forgets a mock when it stops, so that a long test
/// process does not keep every stopped mock's transcript, files and responder alive.
@Suite("In-process route registry", .cpuBound)
struct InProcessRegistryTests {
    /// A weak reference, to see whether anything still holds a stopped mock's parts.
    final class Weak<Object: AnyObject>: @unchecked Sendable {
        // @unchecked Sendable: written once in `init`, only read afterwards.
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    /// A session's delegate that tells when the session has become invalid.
    final class Invalidation: NSObject, URLSessionDelegate, @unchecked Sendable {
        // @unchecked Sendable: `continuation` is only touched under `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Void, Never>?
        private var invalid = false

        /// Runs `invalidate` and returns once the session says it is invalid.
        func wait(_ invalidate: () -> Void) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let already = lock.withLock {
                    self.continuation = continuation
                    return invalid
                }
                if already { continuation.resume() } else { invalidate() }
            }
        }

        func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
            let continuation = lock.withLock {
                invalid = true
                defer { self.continuation = nil }
                return self.continuation
            }
            continuation?.resume()
        }
    }

    @Test("1,000 mocks started, used in-process once and stopped leave no route and nothing alive")
    func thousandMocks() async throws {
        var transcripts: [Weak<Transcript>] = []
        var environments: [Weak<ServerEnvironment>] = []
        for number in 0..<1_000 {
            let stubs = HTTPMockServer()
            stubs.stubRequest("GET", "/n").andReturn(200).withBody("\(number)")
            try await stubs.start()
            let configuration = URLSessionConfiguration.ephemeral
            try stubs.installInProcess(in: configuration)
            let invalidation = Invalidation()
            let session = URLSession(configuration: configuration, delegate: invalidation, delegateQueue: nil)
            let (data, _) = try await session.data(from: stubs.url(for: "/n"))
            #expect(String(decoding: data, as: UTF8.self) == "\(number)")
            let environment = stubs.server.environment
            #expect(InProcessRoutes.shared.count(for: environment) == 1)
            await stubs.stop()
            // The session lets its tasks go when it is invalid: waited for, so that nothing of
            // the mock is still on its way out when the references below are read.
            await invalidation.wait { session.finishTasksAndInvalidate() }
            #expect(InProcessRoutes.shared.count(for: environment) == 0, "mock \(number)'s route outlived its stop")
            transcripts.append(Weak(stubs.transcript))
            environments.append(Weak(environment))
        }
        // Nothing holds a stopped mock: every transcript and environment is gone, but for the last
        // few, which a block that has just called the client or resumed the test may still hold
        // for a moment on another queue (a block is released only once it returns).
        let settled = 0..<(1_000 - 50)
        #expect(settled.filter { transcripts[$0].object != nil } == [])
        #expect(settled.filter { environments[$0].object != nil } == [])
    }

    @Test("a session of a stopped mock fails with cannotConnectToHost for every http and https host, and reaches no later mock")
    func stoppedSession() async throws {
        let first = HTTPMockServer()
        try await first.start()
        let session = try first.makeInProcessSession(hosts: ["api.example.com"])
        await first.stop()
        let later = HTTPMockServer()
        later.stubRequest("GET", "/").andReturn(200).withBody("later")
        try await later.start()
        defer { later.stop() }
        try later.installInProcessForSharedSession(hosts: ["api.example.com"])
        for url in [first.url(for: "/"), URL(string: "https://api.example.com/")!, URL(string: "http://other.example.com/")!] {
            do {
                _ = try await session.data(from: url)
                Issue.record("a stopped mock's session answered \(url)")
            } catch {
                #expect((error as? URLError)?.code == .cannotConnectToHost, "\(url): \(error)")
            }
        }
    }
}
