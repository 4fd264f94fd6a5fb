import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import MockServer
import MockServerTLS

/// `trustingSession()`: URLSession over https trusting the mock's test CA and no more.
///
/// On Apple platforms the session's delegate trusts each server's fresh test CA, which no store
/// holds. On Linux no session can be told to trust a CA (FoundationNetworking reads only libcurl's
/// bundle), so the session works where the bundle holds the CA: these tests sign the servers'
/// certificates with the CA of `Scripts/trust-test-ca.sh` (CI) or `Scripts/with-test-ca.sh`, found
/// through `MOCKSERVER_TRUSTED_TLS_DIR`, and run only there; a fresh CA is refused by a plain
/// session everywhere, and on Linux `trustingSession()` says why instead of handing out a session
/// that would fail.
@Suite("A session trusting the mock's test CA")
struct TrustingSessionTests {
    /// Whether a trusting session can trust a test CA here: always on Apple platforms, on Linux
    /// where a CA is in libcurl's bundle and its folder is known.
    static let canTrust: Bool = {
        #if canImport(Security)
        true
        #else
        URLSessionHTTPSTests.trustedFolder != nil
        #endif
    }()

    /// An identity with `fault` whose CA the trusting session trusts: a fresh one on Apple
    /// platforms; on Linux one signed by the CA of `MOCKSERVER_TRUSTED_TLS_DIR`, which libcurl's
    /// bundle holds.
    private func identity(fault: TLSSettings.CertificateFault? = nil) throws -> TLSSettings.Identity {
        #if canImport(Security)
        return try .generated(fault: fault)
        #else
        let folder = try #require(URLSessionHTTPSTests.trustedFolder)
        let authority = try TLSSettings.Identity(certificateFile: folder + "/ca.pem", privateKeyFile: folder + "/ca.key")
        return try .generated(fault: fault, signedBy: authority)
        #endif
    }

    private func url(_ host: String, _ port: UInt16) throws -> URL {
        try #require(URL(string: "https://\(host):\(port)/hello"))
    }

    @Test("it fetches from the https mock, by address and by name", .enabled(if: canTrust))
    func fetches() async throws {
        let server = try await URLSessionHTTPSTests.start(try identity())
        defer { server.stop() }
        let session = try server.trustingSession()
        defer { session.finishTasksAndInvalidate() }
        for host in ["127.0.0.1", "localhost"] {
            let (data, response) = try await session.data(from: try url(host, server.port))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hi over TLS\n")
        }
    }

    @Test("HTTPMockServer hands one out too", .enabled(if: canTrust))
    func stubs() async throws {
        var configuration = MockServer.Configuration()
        configuration.tls = TLSSettings(identity: try identity())
        let server = HTTPMockServer(configuration: configuration)
        server.stubRequest("GET", "/me").andReturn(200).withBody("stubbed")
        try await server.start()
        defer { server.stop() }
        let session = try server.trustingSession()
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: server.url(for: "/me"))
        #expect(server.url(for: "/me").scheme == "https")
        #expect(String(decoding: data, as: UTF8.self) == "stubbed")
    }

    @Test("it still refuses a certificate a --tls-fault spoils, for that fault's reason", .enabled(if: canTrust), arguments: [
        (TLSSettings.CertificateFault.expired, "certificate has expired"),
        (.notYetValid, "certificate is not yet valid"),
        (.wrongHost, "no alternative certificate subject name matches"),
        (.selfSigned, "self-signed certificate"),
    ])
    func refusesFaults(fault: TLSSettings.CertificateFault, reason: String) async throws {
        let server = try await URLSessionHTTPSTests.start(try identity(fault: fault))
        defer { server.stop() }
        let session = try server.trustingSession()
        defer { session.finishTasksAndInvalidate() }
        let error = await #expect(throws: URLError.self) {
            _ = try await session.data(from: try url("127.0.0.1", server.port))
        }
        #if canImport(FoundationNetworking)
        // libcurl names the reason: the CA is trusted, so the fault is what is refused (an untrusted
        // CA would read "unable to get local issuer certificate" for every fault).
        #expect("\(String(describing: error))".contains(reason), "\(String(describing: error))")
        #else
        _ = reason
        #endif
        #expect(server.transcript.inputs.isEmpty, "the refused session sent no request")
    }

    @Test("a plain session refuses a server with a fresh test CA; the trusting session trusts it (Apple) or says why it cannot (Linux)")
    func freshCA() async throws {
        let server = try await URLSessionHTTPSTests.start(try .generated())
        defer { server.stop() }
        let plain = URLSession(configuration: .ephemeral)
        defer { plain.finishTasksAndInvalidate() }
        await #expect(throws: URLError.self) {
            _ = try await plain.data(from: try url("127.0.0.1", server.port))
        }
        #if canImport(Security)
        let session = try server.trustingSession()
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(from: try url("127.0.0.1", server.port))
        #expect(String(decoding: data, as: UTF8.self) == "hi over TLS\n")
        #else
        let error = #expect(throws: MockServerError.self) { _ = try server.trustingSession() }
        guard case .trustUnsupported(let advice) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(advice.contains("Scripts/with-test-ca.sh") && advice.contains("makeInProcessSession()") && advice.contains("MOCKSERVER_TRUSTED_TLS_DIR"), "\(advice)")
        #endif
    }

    @Test("a server of your own identity gets a plain session, which trusts what the store trusts", .enabled(if: URLSessionHTTPSTests.trustedFolder != nil))
    func ownIdentity() async throws {
        let folder = try #require(URLSessionHTTPSTests.trustedFolder)
        let server = try await URLSessionHTTPSTests.start(try TLSSettings.Identity(certificateFile: folder + "/server.pem", privateKeyFile: folder + "/server.key"))
        defer { server.stop() }
        let session = try server.trustingSession()
        defer { session.finishTasksAndInvalidate() }
        #expect(session.delegate == nil)
        #if canImport(FoundationNetworking)
        // The store holds that CA on Linux (CI, Scripts/with-test-ca.sh).
        let (data, _) = try await session.data(from: try url("127.0.0.1", server.port))
        #expect(String(decoding: data, as: UTF8.self) == "hi over TLS\n")
        #endif
    }

    @Test("a server without TLS has no trusting session")
    func plainServer() throws {
        let server = try MockServer(script: ResponseScript(json: URLSessionHTTPSTests.http))
        #expect(throws: MockServerError.notTLS) { _ = try server.trustingSession() }
    }
}
