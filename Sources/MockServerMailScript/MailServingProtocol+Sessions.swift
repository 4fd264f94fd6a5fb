import MockServerMail
import MockServerTLS

extension MailServingProtocol {
    /// SMTP over `store`, as `configuration` says: its host name, message size, TLS and logins; it
    /// carries the mailbox's control-API routes (Mailpit's), so that the mail server's one API has them once.
    static func smtp(store: MailStore, faults: MailFaultPlan, configuration: MailServerConfiguration, scriptFirst: Bool) -> MailServingProtocol {
        let settings = SMTPSettings(hostName: configuration.hostName, maximumMessageSize: configuration.maximumMessageSize,
                                    tls: configuration.tlsMode)
        return MailServingProtocol(name: "SMTP", maximumInput: settings.authenticationLineLimit + 1024, scriptFirst: scriptFirst,
                                   adminRoutes: MailpitAPI(store: store, faults: faults).routes + MailControlAPI(store: store, faults: faults).routes) { peer, _ in
            SMTPDialogue(session: SMTPSession(settings: settings, store: store, faults: faults, client: peer))
        }
    }

    /// POP3 over `store`, as `configuration` says: its host name and TLS.
    static func pop3(store: MailStore, faults: MailFaultPlan, configuration: MailServerConfiguration, scriptFirst: Bool) -> MailServingProtocol {
        let settings = POP3Settings(hostName: configuration.hostName, tls: configuration.tlsMode)
        return MailServingProtocol(name: "POP3", maximumInput: settings.authenticationLineLimit + 1024, scriptFirst: scriptFirst) { _, _ in
            POP3Dialogue(session: POP3Session(settings: settings, store: store, faults: faults))
        }
    }

    /// IMAP over `store`, as `configuration` says: its host name, TLS and hidden capabilities. A
    /// command's text is bounded by the reader; its literals (an APPEND's message) by the store's
    /// byte limit, which the unconsumed input may hold once.
    static func imap(store: MailStore, faults: MailFaultPlan, configuration: MailServerConfiguration, scriptFirst: Bool) -> MailServingProtocol {
        let limits = IMAPReaderLimits(literalSize: UInt64(configuration.maximumMessageSize))
        let settings = IMAPSettings(hostName: configuration.hostName, tls: configuration.tlsMode,
                                    hiddenCapabilities: configuration.hiddenIMAPCapabilities, limits: limits)
        return MailServingProtocol(name: "IMAP", maximumInput: limits.lineLength + Int(limits.literalSize) + 1024, scriptFirst: scriptFirst) { _, _ in
            IMAPDialogue(session: IMAPSession(settings: settings, store: store, faults: faults))
        }
    }
}

extension MailServerConfiguration {
    /// How every listener uses TLS.
    var tlsMode: MailTLSMode {
        guard let tls else { return .none }
        if tls.mode == .implicit { return .implicit }
        return tlsRequired ? .required : .offered
    }
}
