import MockServerCore

/// What a TLS transport reports to its connection, which records it in the transcript.
package enum TLSEvent: Sendable {
    /// The handshake finished.
    case handshakeDone(TLSHandshake)
    /// The handshake or the record layer failed, for the reason given.
    case failed(String)
    /// The peer ended the connection without TLS's `close_notify` (a truncation a client must notice).
    case truncated
    /// A fault the configuration asked for was played, as described.
    case fault(String)

    /// The transcript's note for the event.
    package var note: Transcript.Note {
        switch self {
        case .handshakeDone(let handshake): Transcript.Note(kind: "tls-handshake", text: "TLS handshake done: \(handshake)")
        case .failed(let reason): Transcript.Note(kind: "tls-failed", text: "TLS failed: \(reason)" + (Self.untrustedHint(for: reason).map { "; \($0)" } ?? ""))
        case .truncated: Transcript.Note(kind: "tls-truncated", text: "TLS ended without close_notify")
        case .fault(let description): Transcript.Note(kind: "tls-fault", text: "TLS fault: \(description)")
        }
    }

    /// The fix for a client's alert that it does not trust the server's certificate (OpenSSL's
    /// `tlsv1 alert unknown ca`, `sslv3 alert bad certificate`, `sslv3 alert certificate unknown`),
    /// `nil` for other failures. URLSession on Linux shows only `URLError(-1)` for it, so the
    /// transcript is where a user learns what to do.
    package static func untrustedHint(for reason: String) -> String? {
        guard ["alert unknown ca", "alert bad certificate", "alert certificate unknown"].contains(where: reason.contains) else { return nil }
        return "the client does not trust this server's certificate: give it the test CA (TLSSettings.Identity.caCertificatePEM, "
            + "mockserver --tls-ca-out FILE, or GET /tls/ca.pem from the admin API); for URLSession on Apple platforms, server.trustingSession(); "
            + "on Linux, where URLSession trusts only the system store, "
            + "run the tests under Scripts/with-test-ca.sh -- swift test (no root) or trust the CA with Scripts/trust-test-ca.sh (root), "
            + "and serve the certificate it made (TLSSettings.Identity(certificateFile: DIR/server.pem, privateKeyFile: DIR/server.key), "
            + "DIR from $MOCKSERVER_TRUSTED_TLS_DIR: a generated identity has a CA of its own), "
            + "or use an in-process session (server.makeInProcessSession()), which needs no TLS"
    }
}
