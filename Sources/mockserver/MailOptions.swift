import MockServer

/// What `mockserver mail` was asked to do.
struct MailOptions: Equatable {
    /// How the listeners speak TLS.
    enum Security: Equatable {
        /// Plain text, no STARTTLS offered.
        case plain
        /// `--starttls`: plain listeners that offer STARTTLS (SMTP, IMAP) and STLS (POP3).
        case startTLS
        /// `--tls`: every listener is TLS from the first byte.
        case implicit
    }

    var smtpPort: UInt16 = 0
    var pop3Port: UInt16 = 0
    var imapPort: UInt16 = 0
    /// `--hide-capability NAME`: IMAP capabilities the server acts as if it lacked.
    var hiddenCapabilities: [String] = []
    var host = "127.0.0.1"
    var security = Security.plain
    /// `--tls-required`: commands other than the few the RFCs allow are refused before TLS.
    var tlsRequired = false
    var tlsCAOut: String?
    /// `--user ADDRESS:PASSWORD`, as given.
    var users: [String] = []
    var mailDirectory: String?
    /// `--script FILE`: response scripts tried first, each on the protocol its scheme names.
    var scripts: [String] = []
    /// `--max-size`: the largest message taken; nil for the server's default.
    var maximumSize: Int?
    var admin = false
    var adminPort: UInt16 = 0
    var conditions: NetworkConditions?
    var transcriptFile: String?
    var verbose = false
    var help = false

    static let usage = """
        USAGE: mockserver mail [--smtp-port N] [--pop3-port N] [--imap-port N] [--host ADDR] [--tls | --starttls]
                               [--tls-required] [--tls-ca-out FILE] [--user ADDRESS:PASSWORD]...
                               [--mail-dir DIR] [--max-size BYTES] [--script FILE]... [--hide-capability NAME]...
                               [--admin] [--admin-port N]
                               [--latency SECONDS [--jitter SECONDS]] [--bandwidth BYTES_PER_SECOND]
                               [--transcript FILE] [--verbose]

        A fake mail server: SMTP takes messages into one mailbox, which POP3 and IMAP read. The first
        lines printed are "mockserver smtp on HOST:PORT", "mockserver pop3 on HOST:PORT" and
        "mockserver imap on HOST:PORT", then with --admin "mockserver admin on http://127.0.0.1:PORT/".
        Docs/Mail.md tells the rest.

        OPTIONS:
          --smtp-port N        SMTP's port (default 0: the system picks one)
          --pop3-port N        POP3's port (default 0)
          --imap-port N        IMAP's port (default 0)
          --host ADDR          numeric address to listen on (default 127.0.0.1)
          --tls                every listener is TLS from the first byte (RFC 8314), with a generated
                               test identity
          --starttls           plain listeners that offer STARTTLS (SMTP, IMAP) and STLS (POP3)
          --tls-required       before TLS, refuse every command but EHLO, HELO, NOOP, QUIT and
                               STARTTLS (SMTP), CAPA, STLS and QUIT (POP3), and every login (IMAP:
                               LOGINDISABLED), on loopback too
          --tls-ca-out FILE    write the test identity's CA certificate (PEM) to FILE
          --user ADDRESS:PASSWORD  only these accounts log in (repeat for more); without it any
                               login and password read the mailbox of the address logged in as
          --mail-dir DIR       seed: DIR/ADDRESS/ is a Maildir (cur/, new/, flags after ":2,"), or a
                               folder of .eml files whose subfolders are folders
          --max-size BYTES     the largest message taken (SIZE; default 10240000): larger ones get 552
          --script FILE        a response script tried first on SMTP's, POP3's or IMAP's command lines,
                               as its "scheme" says (smtp, pop3 or imap): its patterns answer what
                               they take (the greeting too, with «initial»), the server the rest;
                               repeat for each
          --hide-capability NAME  IMAP acts as if it lacked NAME (MOVE, IDLE, UIDPLUS, CONDSTORE, …):
                               not in CAPABILITY, its commands refused; repeat for more
          --admin              serve the control API on a loopback port
          --admin-port N       the control API on port N (implies --admin)
          --latency SECONDS    delay everything the server sends by SECONDS
          --jitter SECONDS     add or take up to SECONDS at random from each write's latency
          --bandwidth BYTES_PER_SECOND  at most this many bytes a second each way
          --transcript FILE    append the transcript to FILE as JSON lines (secrets masked)
          --verbose            print the transcript to standard error (secrets masked)
          -h, --help           show this help

        EXIT STATUS: 0 stopped by SIGINT or SIGTERM; 64 bad arguments; 65 invalid --script; 66 unreadable
        --mail-dir or --script;
        69 TLS unavailable (no OpenSSL 3); 71 cannot listen; 73 cannot write --tls-ca-out.
        """

    /// Parses the arguments after `mail`.
    ///
    /// - Throws: ``CommandLineError/usage(_:)`` naming the culprit.
    init(arguments: [String]) throws(CommandLineError) {
        var remaining = arguments[...]
        func value(for option: String) throws(CommandLineError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else { throw .usage("mail: \(option) needs a value") }
            return value
        }
        func portValue(for option: String) throws(CommandLineError) -> UInt16 {
            let text = try value(for: option)
            guard let port = UInt16(text) else { throw .usage("mail: \(option) takes a port from 0 to 65535, not \"\(text)\"") }
            return port
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--smtp-port": smtpPort = try portValue(for: argument)
            case "--pop3-port": pop3Port = try portValue(for: argument)
            case "--imap-port": imapPort = try portValue(for: argument)
            case "--hide-capability": hiddenCapabilities.append(try value(for: argument).uppercased())
            case "--host": host = try value(for: argument)
            case "--tls", "--starttls":
                let mode: Security = argument == "--tls" ? .implicit : .startTLS
                if security != .plain, security != mode { throw .usage("mail: --tls and --starttls exclude each other: choose one") }
                security = mode
            case "--tls-required": tlsRequired = true
            case "--tls-ca-out": tlsCAOut = try value(for: argument)
            case "--user":
                let text = try value(for: argument)
                guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                    throw .usage("mail: --user takes ADDRESS:PASSWORD, not \"\(text)\"")
                }
                users.append(text)
            case "--mail-dir": mailDirectory = try value(for: argument)
            case "--script": scripts.append(try value(for: argument))
            case "--max-size":
                let text = try value(for: argument)
                guard let bytes = Int(text), bytes > 0 else { throw .usage("mail: --max-size takes a number of bytes above 0, not \"\(text)\"") }
                maximumSize = bytes
            case "--admin": admin = true
            case "--admin-port": admin = true; adminPort = try portValue(for: argument)
            case _ where ConditionOption.names.contains(argument):
                try ConditionOption.apply(argument, value: try value(for: argument), to: &conditions, command: "mail: ")
            case "--transcript": transcriptFile = try value(for: argument)
            case "--verbose", "-v": verbose = true
            case "--help", "-h": help = true
            default: throw .usage("mail: unknown argument \(argument)")
            }
        }
        if help { return }
        if tlsCAOut != nil, security == .plain { throw .usage("mail: --tls-ca-out needs --tls or --starttls") }
        if tlsRequired, security == .plain { throw .usage("mail: --tls-required needs --tls or --starttls (there is no TLS to require otherwise)") }
    }
}
