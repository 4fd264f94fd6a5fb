import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer

/// The same failures, over a socket and in-process, as URLSession reports them: the proof of
/// Docs/URLSessionFailures.md's table. In-process, the mock's `URLProtocol` reports Apple's errors on
/// every platform; over a socket on Linux, FoundationNetworking (libcurl) has its own.
@Suite("What a failure gives URLSession, in-process and over a socket", .offPool)
struct URLSessionFailureTests {
    private func start() async throws -> HTTPMockServer {
        let server = HTTPMockServer()
        server.stubRequest("GET", "/hang").andReturn(200).withFault(.hang)
        server.stubRequest("GET", "/cut").andReturn(200).withBody(String(repeating: "c", count: 100)).withFault(.truncateBody(after: 10))
        server.stubRequest("GET", "/reset").andReturn(200).withFault(.reset)
        server.stubRequest("GET", "/stream-reset").andReturn(try .resetStream("CANCEL"))
        try await server.start()
        return server
    }

    /// The error `session` gives for `url`, and how long it took.
    private func failure(_ session: URLSession, _ url: URL, timeout: TimeInterval = 30) async -> (code: URLError.Code?, took: Duration) {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        let clock = ContinuousClock()
        let started = clock.now
        do {
            _ = try await session.data(for: request)
            return (nil, clock.now - started)
        } catch {
            return ((error as? URLError)?.code, clock.now - started)
        }
    }

    @Test("URLRequest.timeoutInterval: honoured in-process; over a socket, FoundationNetworking counts it in whole seconds, so 0.9 s times out at once")
    func requestTimeout() async throws {
        let server = try await start()
        defer { server.stop() }
        server.stubRequest("GET", "/slow").andReturn(200).withBody("late").withDelay(.milliseconds(300))
        let socket = URLSession(configuration: .ephemeral)
        defer { socket.finishTasksAndInvalidate() }

        // 0.9 s is ample for an answer 0.3 s late, but FoundationNetworking's timer gets Int(0.9) = 0 seconds.
        let fraction = await failure(socket, server.url(for: "/slow"), timeout: 0.9)
        #if canImport(FoundationNetworking)
        #expect(fraction.code == .timedOut, "\(fraction)")
        #else
        #expect(fraction.code == nil, "\(fraction)")
        #endif
        let whole = await failure(socket, server.url(for: "/slow"), timeout: 10)
        #expect(whole.code == nil, "\(whole)")

        let inMemory = await failure(try server.makeInProcessSession(), server.url(for: "/hang"), timeout: 0.9)
        #expect(inMemory.code == .timedOut && inMemory.took >= .milliseconds(900), "\(inMemory)")
    }

    @Test("a cut body: networkConnectionLost in-process; over a socket on Linux, -1 (unknown)")
    func cutBody() async throws {
        let server = try await start()
        defer { server.stop() }
        let socket = URLSession(configuration: .ephemeral)
        defer { socket.finishTasksAndInvalidate() }
        let overSocket = await failure(socket, server.url(for: "/cut"))
        #if canImport(FoundationNetworking)
        #expect(overSocket.code == .unknown, "\(overSocket)")
        #else
        #expect(overSocket.code == .networkConnectionLost, "\(overSocket)")
        #endif
        let inMemory = await failure(try server.makeInProcessSession(), server.url(for: "/cut"))
        #expect(inMemory.code == .networkConnectionLost, "\(inMemory)")
    }

    @Test("a cut head (truncate shorter than the head), in-process only: networkConnectionLost, where FoundationNetworking over a socket stops the process")
    func cutHeadInProcess() async throws {
        let server = try await start()
        defer { server.stop() }
        server.stubRequest("GET", "/head-cut").andReturn(200).withBody("body").withFault(.truncate(bytes: 5))
        let inMemory = await failure(try server.makeInProcessSession(), server.url(for: "/head-cut"))
        #expect(inMemory.code == .networkConnectionLost, "\(inMemory)")
    }

    @Test("a reset connection: networkConnectionLost both ways")
    func reset() async throws {
        let server = try await start()
        defer { server.stop() }
        let socket = URLSession(configuration: .ephemeral)
        defer { socket.finishTasksAndInvalidate() }
        let overSocket = await failure(socket, server.url(for: "/reset"))
        #expect(overSocket.code == .networkConnectionLost, "\(overSocket)")
        let inMemory = await failure(try server.makeInProcessSession(), server.url(for: "/reset"))
        #expect(inMemory.code == .networkConnectionLost, "\(inMemory)")
    }

    /// The folder of `Scripts/trust-test-ca.sh` or `Scripts/with-test-ca.sh`, whose CA the system bundle holds.
    static let trustedFolder = ProcessInfo.processInfo.environment["MOCKSERVER_TRUSTED_TLS_DIR"]

    @Test("an HTTP/2 stream reset (RST_STREAM CANCEL) over https: -1 (unknown) from FoundationNetworking; in-process, where there is no HTTP/2, networkConnectionLost",
          .enabled(if: trustedFolder != nil))
    func http2Reset() async throws {
        let folder = try #require(Self.trustedFolder)
        var configuration = MockServer.Configuration()
        configuration.tls = TLSSettings(identity: try .init(certificateFile: folder + "/server.pem", privateKeyFile: folder + "/server.key"))
        let server = HTTPMockServer(configuration: configuration)
        server.stubRequest("GET", "/stream-reset").andReturn(try .resetStream("CANCEL"))
        try await server.start()
        defer { server.stop() }
        let socket = URLSession(configuration: .ephemeral)
        defer { socket.finishTasksAndInvalidate() }
        let overSocket = await failure(socket, try #require(URL(string: "https://127.0.0.1:\(server.port)/stream-reset")))
        #if canImport(FoundationNetworking)
        #expect(overSocket.code == .unknown, "\(overSocket)")
        #else
        #expect(overSocket.code == .networkConnectionLost, "\(overSocket)")
        #endif
        let inMemory = await failure(try server.makeInProcessSession(), server.url(for: "/stream-reset"))
        #expect(inMemory.code == .networkConnectionLost, "\(inMemory)")
    }
}
