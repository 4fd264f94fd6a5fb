import MockServerCore

extension StreamConnection {
    /// A connection over TLS on an accepted socket (implicit TLS: the handshake comes first); its
    /// handshake and TLS failures go to the transcript.
    ///
    /// With `issuesTickets` false it sends no session tickets (an FTPS data connection).
    ///
    /// - Throws: ``TLSError`` when OpenSSL cannot make the connection's state.
    package static func acceptingTLS(socket: Socket, loop: EventLoop, driver: any StreamDriver, context: TLSContext, id: Int? = nil,
                                     channel: Transcript.Channel = .main, recordsOutput: Bool = true,
                                     requiredSessionTag: UInt? = nil, issuesTickets: Bool = true) throws -> StreamConnection {
        let reporter = TLSReporter()
        let transport: TLSTransport
        do {
            transport = try TLSTransport(over: loop.environment.transport(for: socket), context: context, report: reporter.report)
            transport.requiredSessionTag = requiredSessionTag
            if !issuesTickets { transport.issueNoTickets() }
        } catch {
            socket.close()
            throw error
        }
        let connection = StreamConnection(transport: transport, loop: loop, driver: driver, id: id, channel: channel, recordsOutput: recordsOutput)
        reporter.connection = connection
        return connection
    }

    /// Starts TLS on this connection from now on (STARTTLS, FTP's `AUTH TLS`): the server's side of
    /// the handshake follows what was sent so far.
    ///
    /// - Throws: ``TLSError`` or the loop's error; the connection is closed then.
    package func startTLS(context: TLSContext, requiredSessionTag: UInt? = nil, issuesTickets: Bool = true) throws {
        let reporter = TLSReporter()
        reporter.connection = self
        try wrapTransport { inner in
            let transport = try TLSTransport(over: inner, context: context, report: reporter.report)
            transport.requiredSessionTag = requiredSessionTag
            if !issuesTickets { transport.issueNoTickets() }
            return transport
        }
        log(.debug, "TLS handshake begins")
    }
}

extension StreamConnection {
    /// The tag of this connection's TLS session (see ``TLSTransport/sessionTag``), when it speaks TLS.
    package var tlsSessionTag: UInt? { (currentTransport as? TLSTransport)?.sessionTag }

    /// Whether this connection speaks TLS now (implicit TLS, or after a STARTTLS).
    package var speaksTLS: Bool { currentTransport is TLSTransport }
}

/// Hands a TLS transport's events to its connection, made after the transport.
private final class TLSReporter {
    weak var connection: StreamConnection?
    /// Who hears of the finished handshake besides the transcript (a client's driver).
    var handshakeDone: ((TLSHandshake) -> Void)?

    func report(_ event: TLSEvent) {
        guard let connection else { return }
        connection.record(.note(event.note))
        switch event {
        case .handshakeDone(let handshake):
            connection.log(.debug, "TLS handshake done: \(handshake)")
            handshakeDone?(handshake)
        case .failed(let reason): connection.log(.warning, "TLS failed: \(reason)")
        case .truncated: connection.log(.debug, "TLS ended without close_notify")
        case .fault(let description): connection.log(.info, "TLS fault: \(description)")
        }
    }
}

extension StreamConnection {
    /// Starts TLS as the client on this outbound connection, once it is made: the ClientHello goes
    /// out at once, and what the driver sends waits for the handshake. `serverName` is what the
    /// server's certificate must be for; a failed check fails the handshake, which closes the
    /// connection with OpenSSL's words (`certificate verify failed`).
    ///
    /// - Parameters:
    ///   - applicationProtocols: what to offer through ALPN, preferred first (`["h2", "http/1.1"]`); none when empty.
    ///   - handshakeDone: called on the loop once the handshake is done, before any of the server's
    ///     data reaches the driver (a driver that waits for ALPN's choice sends its first bytes then).
    /// - Throws: ``TLSError`` or the loop's error; the connection is closed then.
    package func startTLSClient(context: TLSClientContext, serverName: String, applicationProtocols: [String] = [],
                                handshakeDone: ((TLSHandshake) -> Void)? = nil) throws {
        let reporter = TLSReporter()
        reporter.connection = self
        reporter.handshakeDone = handshakeDone
        try wrapTransport { inner in
            try TLSTransport(connectingOver: inner, context: context, serverName: serverName, applicationProtocols: applicationProtocols,
                             report: reporter.report)
        }
    }
}
