/// What an IMAP listener's sessions are configured with: the greeting's host name, TLS, the SASL
/// mechanisms offered, capabilities hidden on demand, and the reader's bounds.
package struct IMAPSettings: Sendable, Hashable {
    /// The host name in the greeting and in `ID`'s answer.
    package var hostName: String
    /// How TLS is offered.
    package var tls: MailTLSMode
    /// The SASL mechanisms AUTHENTICATE accepts and CAPABILITY lists (`AUTH=PLAIN`), in order.
    package var authenticationMechanisms: [MailAuthMechanism]
    /// Capabilities the server acts as if it did not have (`MOVE`, `IDLE`, `UIDPLUS`, `CONDSTORE`,
    /// …, upper-case): left out of CAPABILITY, and their commands and response codes refused or
    /// left out, so that a client's fallbacks can be tested.
    package var hiddenCapabilities: Set<String>
    /// The bounds of a command: line length, literal sizes, nesting, argument counts.
    package var limits: IMAPReaderLimits
    /// The longest line a client sends inside an AUTHENTICATE exchange, CRLF included.
    package var authenticationLineLimit: Int

    /// Settings for the sessions of one listener.
    ///
    /// - Parameters:
    ///   - hostName: the greeting's host name; `localhost` by default.
    ///   - tls: how TLS is offered; ``MailTLSMode/none`` by default.
    ///   - authenticationMechanisms: PLAIN, LOGIN, CRAM-MD5 and XOAUTH2 by default.
    ///   - hiddenCapabilities: none by default.
    ///   - limits: the reader's bounds (64 KiB lines, 64 MiB literals by default).
    package init(hostName: String = "localhost", tls: MailTLSMode = .none,
                 authenticationMechanisms: [MailAuthMechanism] = MailAuthMechanism.allCases,
                 hiddenCapabilities: Set<String> = [], limits: IMAPReaderLimits = IMAPReaderLimits(),
                 authenticationLineLimit: Int = 12_288) {
        self.hostName = hostName
        self.tls = tls
        self.authenticationMechanisms = authenticationMechanisms
        self.hiddenCapabilities = Set(hiddenCapabilities.map { $0.uppercased() })
        self.limits = limits
        self.authenticationLineLimit = authenticationLineLimit
    }

    /// Whether `capability` is offered (not hidden).
    package func offers(_ capability: String) -> Bool { !hiddenCapabilities.contains(capability) }
}
