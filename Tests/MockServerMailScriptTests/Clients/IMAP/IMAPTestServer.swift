import Foundation

/// A started IMAP server for a client suite (``IMAPServerUnderTest/start(seed:tls:users:tlsRequired:)``):
/// where a client connects, the CA it trusts, how a test delivers new mail, and how it stops.
final class IMAPTestServer {
    /// The address a plain (or STARTTLS) client connects to. It is not always `127.0.0.1`: Dovecot
    /// lets a client from its own address log in without TLS even when TLS is required.
    let host: String
    /// The name a TLS client connects to and checks the certificate against.
    let tlsHost = "localhost"
    /// The plain port; STARTTLS is offered there when the server has TLS.
    let port: UInt16
    /// The implicit-TLS (imaps) port, when the server was started with `.implicit`.
    let tlsPort: UInt16?
    /// The test CA (PEM file) the server's certificate chains to, when it has TLS.
    let caFile: String?
    /// Delivers a message's bytes to an address's INBOX.
    private let delivering: (Data, String) throws -> Void
    /// Stops the server; called again, it does nothing.
    private let stopping: () -> Void

    /// A started server's addresses and files, and how to deliver to it and stop it.
    init(host: String, port: UInt16, tlsPort: UInt16?, caFile: String?, deliver: @escaping (Data, String) throws -> Void, stop: @escaping () -> Void) {
        self.host = host
        self.port = port
        self.tlsPort = tlsPort
        self.caFile = caFile
        delivering = deliver
        stopping = stop
    }

    /// Delivers `raw` to `address`'s INBOX as new mail arrives (Dovecot: a file moved into the
    /// Maildir's new/; ours: over SMTP), so that a selected or idling session is told.
    func deliver(_ raw: String, to address: String) throws {
        try delivering(Data(raw.utf8), address)
    }

    /// Stops the server (also done when the object goes away).
    func stop() { stopping() }

    deinit { stopping() }
}
