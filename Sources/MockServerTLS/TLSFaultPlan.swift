/// The TLS faults a configuration asks a connection to play (a handshake that hangs, resets or
/// fails with an alert; an end without `close_notify`), apart from the record layer:
/// ``TLSTransport`` asks this value what to do at the few points where a fault can change it (the
/// ClientHello held by the context's callback, a failed handshake, the connection's end), and its
/// reading and writing know no faults.
package struct TLSFaultPlan: Sendable, Equatable {
    /// The handshake fault played on every connection's ClientHello; `nil`: none.
    package var handshake: TLSSettings.HandshakeFault?
    /// Whether connections end with `close_notify` (`false`: a bare TCP end, a truncation).
    package var sendsCloseNotify: Bool

    /// A plan with `handshake` and `sendsCloseNotify` as given.
    package init(handshake: TLSSettings.HandshakeFault? = nil, sendsCloseNotify: Bool = true) {
        self.handshake = handshake
        self.sendsCloseNotify = sendsCloseNotify
    }

    /// The faults `configuration` asks for.
    package init(_ configuration: TLSSettings) {
        self.init(handshake: configuration.handshakeFault, sendsCloseNotify: configuration.sendsCloseNotify)
    }

    /// No fault: what a client connection, or a healthy server, plays.
    package static let none = TLSFaultPlan()

    /// What the transport does with a ClientHello that the context's callback held
    /// (`SSL_ERROR_WANT_CLIENT_HELLO_CB`).
    package enum HeldHello: Sendable, Equatable {
        /// Leave it unanswered, reading and dropping what follows; `note` goes to the transcript.
        case hang(note: String)
        /// Fail for `reason` and close with an RST; `note` goes to the transcript.
        case reset(note: String, reason: String)
        /// No fault holds handshakes: fail as OpenSSL says.
        case fail
    }

    /// What to do with a held ClientHello.
    package var heldHello: HeldHello {
        switch handshake {
        case .hang?: .hang(note: "hang: the ClientHello is left unanswered")
        case .reset?: .reset(note: "reset: the connection is reset after the ClientHello", reason: "reset after the ClientHello (handshake fault reset)")
        case .alert?, nil: .fail
        }
    }

    /// The transcript's note when a handshake fails, if the failure is the fault's doing (the
    /// alert the context's callback made OpenSSL send).
    package var handshakeFailureNote: String? {
        handshake == .alert ? "alert: the ClientHello is answered with a handshake_failure alert" : nil
    }

    /// How an open connection's TLS ends.
    package enum Ending: Sendable, Equatable {
        /// With `close_notify`.
        case closeNotify
        /// With a bare TCP end; `note` goes to the transcript.
        case withoutCloseNotify(note: String)
    }

    /// How an open connection's TLS ends.
    package var ending: Ending {
        sendsCloseNotify ? .closeNotify : .withoutCloseNotify(note: "the connection ends without close_notify")
    }
}
