import MockServerMail
import MockServerTLS

extension MailServingProtocol {
    /// SMTP over `store`, as `configuration` says: its host name, message size, TLS and logins; it
    /// carries the mailbox's control-API routes (Mailpit's), so that the mail server's one API has them once.
    static func smtp(store: MailStore, faults: MailFaultPlan, configuration: MailServerConfiguration, scriptFirst: Bool) -> MailServingProtocol {
        let settings = SMTPSettings(hostName: configuration.hostName, maximumMessageSize: configuration.maximumMessageSize,
                                    tls: configuration.smtpTLSMode)
        return MailServingProtocol(name: "SMTP", maximumInput: settings.authenticationLineLimit + 1024, scriptFirst: scriptFirst,
                                   adminRoutes: MailpitAPI(store: store, faults: faults).routes) { peer, _ in
            SMTPDialogue(session: SMTPSession(settings: settings, store: store, faults: faults, client: peer))
        }
    }

    /// POP3 over `store`, as `configuration` says: its host name and TLS.
    static func pop3(store: MailStore, faults: MailFaultPlan, configuration: MailServerConfiguration, scriptFirst: Bool) -> MailServingProtocol {
        let settings = POP3Settings(hostName: configuration.hostName, tls: configuration.pop3TLSMode)
        return MailServingProtocol(name: "POP3", maximumInput: settings.authenticationLineLimit + 1024, scriptFirst: scriptFirst) { _, _ in
            POP3Dialogue(session: POP3Session(settings: settings, store: store, faults: faults))
        }
    }
}

extension MailServerConfiguration {
    /// How SMTP's listener uses TLS.
    var smtpTLSMode: SMTPTLSMode {
        guard let tls else { return .none }
        if tls.mode == .implicit { return .implicit }
        return tlsRequired ? .required : .offered
    }

    /// How POP3's listener uses TLS: as SMTP's.
    var pop3TLSMode: POP3TLSMode {
        switch smtpTLSMode {
        case .none: .none
        case .offered: .offered
        case .required: .required
        case .implicit: .implicit
        }
    }
}
