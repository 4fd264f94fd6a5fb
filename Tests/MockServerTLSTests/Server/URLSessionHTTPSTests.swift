import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer

/// URLSession over https, where a CA can be trusted: on Linux FoundationNetworking trusts only the
/// system store, so these run where `Scripts/trust-test-ca.sh DIR` put a CA there and
/// `MOCKSERVER_TRUSTED_TLS_DIR=DIR` says where its server certificate is (CI does both).
@Suite("URLSession over https")
struct URLSessionHTTPSTests {
    /// The folder of `Scripts/trust-test-ca.sh`, whose CA the system store trusts.
    static let trustedFolder = ProcessInfo.processInfo.environment["MOCKSERVER_TRUSTED_TLS_DIR"]

    /// The HTTPS tests' script: `GET /hello` and `PUT /echo` (TrustingSessionTests uses it too).
    static let http = """
        {"scheme": "http", "responses": {
            "hello": {"pattern": "^GET /hello ", "commands": [{"response": {"body": "hi over TLS\\n"}}]},
            "echo":  {"pattern": "^PUT /echo ", "commands": [{"response": {"body": "$body"}}]}
        }}
        """

    /// A started mock serving ``http`` over TLS with `identity` (TrustingSessionTests uses it too).
    static func start(_ identity: TLSSettings.Identity) async throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.tls = TLSSettings(identity: identity)
        let server = try MockServer(script: ResponseScript(json: Self.http), configuration: configuration)
        try await server.start()
        return server
    }

    /// A server with the certificate of the trusted folder, whose CA the system store holds.
    private func startTrusted() async throws -> MockServer {
        let folder = try #require(Self.trustedFolder)
        return try await Self.start(try TLSSettings.Identity(certificateFile: folder + "/server.pem", privateKeyFile: folder + "/server.key"))
    }

    @Test("a server with the store's CA: GET by address and by name, and a 1 MB PUT echoed",
          .enabled(if: trustedFolder != nil))
    func trusted() async throws {
        let server = try await startTrusted()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        for host in ["127.0.0.1", "localhost"] {
            let (data, response) = try await session.data(from: try #require(URL(string: "https://\(host):\(server.port)/hello")))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hi over TLS\n")
        }
        var request = URLRequest(url: try #require(URL(string: "https://127.0.0.1:\(server.port)/echo")))
        request.httpMethod = "PUT"
        let body = Tools.randomBytes(1_000_000, seed: 7)
        let (echoed, _) = try await session.upload(for: request, from: body)
        #expect(echoed == body)
        let done = server.transcript.entries.filter { if case .note(let note) = $0.event { note.kind == "tls-handshake" } else { false } }
        #expect(!done.isEmpty && done.count <= 3, "\(done)")
    }

    @Test("which HTTP version URLSession speaks over TLS, as the transcript records it: FoundationNetworking's libcurl asks for h2 through ALPN on Linux",
          .enabled(if: trustedFolder != nil))
    func negotiatedVersion() async throws {
        let server = try await startTrusted()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: try #require(URL(string: "https://127.0.0.1:\(server.port)/hello")))
        #expect(String(decoding: data, as: UTF8.self) == "hi over TLS\n")
        let request = try #require(server.transcript.entries.first { if case .input = $0.event { true } else { false } })
        #if canImport(FoundationNetworking)
        #expect(request.exchange == Transcript.Exchange(protocolName: "HTTP/2", stream: 1), "\(request)")
        #else
        // Apple's URLSession negotiates h2 through ALPN too (not run here): either version is served.
        _ = request
        #endif
    }

    @Test("over plain http URLSession stays HTTP/1.1: the transcript's entry names no HTTP/2 stream")
    func plainVersion() async throws {
        let server = try MockServer(script: ResponseScript(json: Self.http))
        try await server.start()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: server.url(for: "/hello"))
        #expect(String(decoding: data, as: UTF8.self) == "hi over TLS\n")
        let request = try #require(server.transcript.entries.first { if case .input = $0.event { true } else { false } })
        #expect(request.exchange == nil, "\(request)")
    }

    @Test("a server with a fresh test CA the store does not hold is refused, and the server records why",
          .enabled(if: trustedFolder != nil))
    func untrusted() async throws {
        let server = try await Self.start(try .generated())
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        await #expect(throws: URLError.self) {
            _ = try await session.data(from: try #require(URL(string: "https://127.0.0.1:\(server.port)/hello")))
        }
        let failure = try await server.transcript.wait { if case .note(let note) = $0.event { note.kind == "tls-failed" } else { false } }
        #expect("\(failure.event)".contains("unknown ca") || "\(failure.event)".contains("alert"), "\(failure)")
        // URLSession says only URLError -1: the transcript names the fixes.
        #expect("\(failure.event)".contains("Scripts/with-test-ca.sh") && "\(failure.event)".contains("makeInProcessSession()"), "\(failure)")
    }
}
