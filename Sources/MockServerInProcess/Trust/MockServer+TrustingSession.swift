import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerEngine
import MockServerTLS

extension MockServer {
    /// A new session of `configuration` that trusts this server's test CA, besides what the
    /// system trusts, and nothing else more: for `https` through URLSession without a CA in the
    /// system's store.
    ///
    /// - On Apple platforms the session's delegate answers each server-trust challenge by
    ///   evaluating the server's chain with the test CA as one extra anchor (the system's roots
    ///   stay), under the SSL policy for the URL's host; a certificate the `--tls-fault` options
    ///   spoil (expired, not yet valid, for another host, self-signed) is refused as a plain
    ///   session refuses it. Nothing outside the session changes.
    /// - On Linux, FoundationNetworking's URLSession trusts only the CA bundle of its libcurl and
    ///   asks no delegate about server trust, so no session can be told to trust a CA: the session
    ///   is a plain one when that bundle holds the test CA already, and otherwise (a generated
    ///   identity, ``TLSSettings/Identity/generated(hostNames:fault:)``, has a fresh CA) this
    ///   throws ``MockServerError/trustUnsupported(_:)``, whose text names the ways that work
    ///   (`Scripts/with-test-ca.sh`, or ``makeInProcessSession(configuration:hosts:)``). Nothing
    ///   process-wide is changed to make it work.
    /// - A server that shows an identity of your own (``TLSSettings/Identity/init(certificatePEM:privateKeyPEM:)``)
    ///   has no test CA: its session is a plain one, and the system's store alone decides, on
    ///   every platform (under `Scripts/with-test-ca.sh`, its identity in `$MOCKSERVER_TRUSTED_TLS_DIR` is trusted).
    ///
    /// The session's delegate is the one that trusts the CA; it keeps nothing of the server but
    /// the CA's certificate, so it may outlive the server.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.tls = try .generated()
    /// let server = try MockServer(script: BundledResponses.script(named: "http"), configuration: configuration)
    /// try await server.start()
    /// let session = try server.trustingSession()
    /// let (data, _) = try await session.data(from: server.url(for: "/"))
    /// ```
    ///
    /// - Throws: ``MockServerError/notTLS`` for a server without ``Configuration-swift.struct/tls``;
    ///   on Linux, ``MockServerError/trustUnsupported(_:)`` for a test CA libcurl's bundle does not hold.
    public func trustingSession(configuration: URLSessionConfiguration = .ephemeral) throws -> URLSession {
        guard let tls = self.configuration.tls else { throw MockServerError.notTLS }
        guard let authority = tls.identity.caCertificateDER else { return URLSession(configuration: configuration) }
        #if canImport(Security)
        return URLSession(configuration: configuration, delegate: TestCATrustDelegate(anchor: Data(authority)), delegateQueue: nil)
        #else
        _ = authority
        // What libcurl trusts, FoundationNetworking's sessions trust: a CA its bundle holds (as under
        // Scripts/with-test-ca.sh) needs nothing more.
        guard let pem = tls.identity.caCertificatePEM, Self.caBundleHolds(pem) else { throw MockServerError.trustUnsupported(Self.linuxTrustAdvice) }
        return URLSession(configuration: configuration)
        #endif
    }

    /// Whether the CA bundle FoundationNetworking gives libcurl holds the certificate `pem`: the
    /// first of the files it looks for (EasyHandle.swift's list, whose first is Debian's and
    /// Ubuntu's, which libcurl there is built with).
    static func caBundleHolds(_ pem: String) -> Bool {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let bundles = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/usr/share/ssl/certs/ca-bundle.crt",
                       "/usr/local/share/certs/ca-root-nss.crt", "/etc/ssl/cert.pem"]
        guard !body.isEmpty, let bundle = bundles.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else { return false }
        return String(decoding: bundle, as: UTF8.self).filter { !$0.isWhitespace }.contains(body)
    }

    /// Why a Linux URLSession cannot trust a generated test CA, and what works instead.
    static let linuxTrustAdvice = """
        URLSession on Linux (FoundationNetworking) trusts only its libcurl's CA bundle \
        (/etc/ssl/certs/ca-certificates.crt on Debian and Ubuntu) and asks no delegate about server trust, \
        so no session can be told to trust this server's generated test CA. Either run the tests under \
        Scripts/with-test-ca.sh -- swift test (no root: the CA it makes is trusted in that process tree only) \
        and serve its identity, TLSSettings.Identity(certificateFile: DIR + "/server.pem", \
        privateKeyFile: DIR + "/server.key") with DIR from $MOCKSERVER_TRUSTED_TLS_DIR, for which \
        trustingSession() is a plain session; or use makeInProcessSession(), where https needs no TLS
        """
}
