import MockServerCore
import MockServerTLS
import Testing

/// The transcript's TLS notes: a client's refusal of the certificate names the fixes.
@Suite("TLS events")
struct TLSEventTests {
    @Test("a client's alert that it does not trust the certificate gets the fixes", arguments: [
        "error:0A000418:SSL routines::tlsv1 alert unknown ca",
        "error:0A000412:SSL routines::sslv3 alert bad certificate",
        "error:0A000416:SSL routines::sslv3 alert certificate unknown",
    ])
    func untrusted(reason: String) {
        let note = TLSEvent.failed(reason).note
        #expect(note.kind == "tls-failed")
        #expect(note.text.hasPrefix("TLS failed: \(reason); the client does not trust this server's certificate"))
        for fix in ["Scripts/with-test-ca.sh -- swift test", "Scripts/trust-test-ca.sh", "makeInProcessSession()", "--tls-ca-out",
                    "DIR/server.pem", "$MOCKSERVER_TRUSTED_TLS_DIR", "trustingSession()"] {
            #expect(note.text.contains(fix), "\(note.text)")
        }
    }

    @Test("other failures are as they were", arguments: [
        "error:0A00010B:SSL routines::wrong version number", "error:0A000410:SSL routines::sslv3 alert handshake failure", "",
    ])
    func otherFailures(reason: String) {
        #expect(TLSEvent.failed(reason).note.text == "TLS failed: \(reason)")
        #expect(TLSEvent.untrustedHint(for: reason) == nil)
    }
}
