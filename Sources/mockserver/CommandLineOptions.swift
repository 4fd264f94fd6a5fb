import MockServer
import MockServerCore

/// What the `mockserver` command was asked to do.
struct CommandLineOptions: Equatable {
    var port: UInt16 = 0
    var dataPort: UInt16 = 0
    var host = "127.0.0.1"
    var set = "default"
    var dataFile: String?
    var filesDirectory: String?
    var uploadsDirectory: String?
    var mockDataDirectories: [String] = []
    /// `--proto FILE`s, `--proto-path DIR`s and `--descriptor-set FILE`s: the gRPC schemas.
    var protoFiles: [String] = []
    var protoPaths: [String] = []
    var descriptorSets: [String] = []
    var allowsWildcards = false
    var admin = false
    var adminPort: UInt16 = 0
    /// `--latency`, `--jitter` and `--bandwidth`: every connection's network conditions.
    var conditions: NetworkConditions?
    var transcriptFile: String?
    /// `--http2`: whether HTTP listeners speak HTTP/2 too.
    var http2 = MockServer.HTTP2ServerSettings.Mode.allow
    /// `--http2-max-streams`, `--http2-window`, `--http2-max-frame`: HTTP/2's advertised settings,
    /// when given (checked against RFC 9113's ranges when the server starts).
    var http2MaxStreams: Int?
    var http2Window: Int?
    var http2MaxFrame: Int?
    /// `--http2-reset-budget`, `--http2-empty-frame-budget`, `--http2-zero-window-timeout`: HTTP/2's
    /// flood defences (each `off` turns one off).
    var http2Defences = MockServer.HTTP2ServerSettings.Defences()
    /// `--max-request-body`: the longest HTTP/1.1 request body taken, when given.
    var maximumRequestBody: Int?
    /// `--request-head-timeout`: how long an HTTP/1.1 request head may take (0: no limit), when given.
    var requestHeadTimeout: Duration??
    /// `--max-upload`: the longest FTP upload taken, when given.
    var maximumUpload: Int?
    var verbose = false
    var file: String?
    var check = false
    var help = false
    /// `--tls` (implicit) or `--starttls` (explicit), when given.
    var tlsMode: TLSMode?
    var tlsCAOut: String?
    var tlsCertificate: String?
    var tlsKey: String?
    var tlsHosts: [String] = []
    var tlsFault: TLSSettings.CertificateFault?
    var tlsHandshakeFault: TLSSettings.HandshakeFault?
    var tlsSendsCloseNotify = true
    var tlsClientCertificates = TLSSettings.ClientCertificates.none
    var tlsClientCA: String?
    var tlsRequireReuse = false
    var tlsRequired = false
    /// `--tls-handshake-timeout`: how long a handshake may take, when given.
    var tlsHandshakeTimeout: Duration?

    /// When TLS begins on the main port.
    enum TLSMode: Equatable {
        case implicit
        case explicit
    }

    static let usage = """
        USAGE: mockserver [--port N] [--data-port N] [--host ADDR] [--set NAME] [--data FILE]
                          [--files DIR] [--uploads DIR] [--verbose] [FILE]
               mockserver [--port N] [--host ADDR] --mock-data DIR [--allow-wildcards] [--verbose] [ENDPOINTS]
               mockserver ... [--admin] [--admin-port N] [--transcript FILE]
               mockserver ... [--proto FILE]... [--proto-path DIR]... [--descriptor-set FILE]... [ENDPOINTS]
               mockserver ... [--latency SECONDS [--jitter SECONDS]] [--bandwidth BYTES_PER_SECOND]
               mockserver ... [--http2 allow|refuse|require] [--http2-max-streams N] [--http2-window BYTES] [--http2-max-frame BYTES]
                          [--http2-reset-budget N|off] [--http2-empty-frame-budget N|off] [--http2-zero-window-timeout SECONDS|off]
               mockserver ... [--max-request-body BYTES] [--request-head-timeout SECONDS] [--max-upload BYTES]
               mockserver ... (--tls | --starttls) [--tls-ca-out FILE] [--tls-host NAME]... [--tls-fault NAME]
                          [--tls-client-certs MODE [--tls-client-ca FILE]] [--tls-require-reuse] [--tls-required] [--tls-handshake-timeout SECONDS] [--tls-cert FILE --tls-key FILE]
               mockserver record --upstream URL (--mock-data DIR | --endpoints FILE) [...]   (mockserver record --help)
               mockserver --check FILE
               mockserver --check --mock-data DIR
               mockserver --help

        Serves a response script (default: the bundled FTP script) until interrupted. The first line
        printed is "mockserver listening on HOST:PORT (data port DATAPORT)"; an HTTP or WebDAV
        script has no data port, and the line ends after PORT.

        OPTIONS:
          --port N         main port (default 0: the system picks one)
          --data-port N    passive-data port of a line script (default 0: the system picks one)
          --host ADDR      numeric address to listen on (default 127.0.0.1; ::1 for IPv6)
          --set NAME       response set to start with (default "default")
          --data FILE      bytes for the data port, «data» and $size (default: the script's "data")
          --files DIR      serve the files in DIR and its folders (FTP and WebDAV share them)
          --uploads DIR    write each upload to DIR under its own path (never outside DIR)
          --mock-data DIR  answer HTTP from DIR's files named after requests (VOKMockUrlProtocol's
                           convention, Docs/MockData.md); repeat to search several folders in
                           order; with an endpoints FILE, its endpoints answer first
          --allow-wildcards  let mock-data file names use * for the whole query or body
          --proto FILE     read a .proto file (proto2 or proto3; repeat for more): gRPC endpoints
                           may then give messages and request patterns as JSON, and the server
                           answers reflection (grpcurl list) and health (Docs/GRPC.md)
          --proto-path DIR  where --proto files and their imports are found, as protoc's -I
                           (repeat; default: the current directory); google/protobuf/*.proto and
                           google/rpc/*.proto are built in
          --descriptor-set FILE  read the files of a FileDescriptorSet, as protoc writes one
                           with its imports included (repeat for more)
          --admin          serve the control API (JSON over HTTP, Docs/Admin.md) on a loopback port
                           the system picks; the second line printed is
                           "mockserver admin on http://127.0.0.1:PORT/"
          --admin-port N   the control API on port N (implies --admin)
          --transcript FILE  append the transcript to FILE as JSON lines while serving
          --verbose        print the transcript to standard error as it happens
          --latency SECONDS  delay everything the server sends by SECONDS (fractions allowed), on
                           every connection: control, data, HTTP, WebSocket
          --jitter SECONDS add or take up to SECONDS at random from each write's latency
          --bandwidth BYTES_PER_SECOND  at most this many bytes a second each way on every
                           connection (downloads and uploads alike)
          --http2 allow|refuse|require  HTTP/2 on HTTP listeners beside HTTP/1.1 (allow, the
                           default: h2c with prior knowledge, h2 through ALPN under --tls),
                           HTTP/1.1 only (refuse), or HTTP/2 only (require: HTTP/1.1 gets a 505)
          --http2-max-streams N  concurrent HTTP/2 streams a client may open (default 100); more
                           are reset with REFUSED_STREAM
          --http2-window BYTES  each HTTP/2 stream's upload window (default 1048576; 0 stalls
                           every upload)
          --http2-max-frame BYTES  the largest HTTP/2 frame taken (16384, the default, to 16777215)
          --http2-reset-budget N|off  RST_STREAM frames an HTTP/2 client may send at once (default
                           1000, coming back over 30 seconds); past it the connection ends with
                           GOAWAY ENHANCE_YOUR_CALM ("rapid reset", CVE-2023-44487); off: no limit
          --http2-empty-frame-budget N|off  HTTP/2 frames that carry nothing a client may send at
                           once (default 10000, coming back over 30 seconds and with each request
                           or DATA with bytes): empty DATA, PRIORITY, SETTINGS, PING, WINDOW_UPDATE
                           on a closed stream, ...; past it GOAWAY ENHANCE_YOUR_CALM; off: no limit
          --http2-zero-window-timeout SECONDS|off  how long HTTP/2 response bytes may wait on
                           windows a client keeps at zero before GOAWAY ENHANCE_YOUR_CALM (default
                           30); off: for ever
          --max-request-body BYTES  the longest HTTP/1.1 request body taken (default 67108864,
                           64 MiB); a longer one is answered 413 Content Too Large
          --request-head-timeout SECONDS  how long an HTTP/1.1 request head may take to arrive
                           (default 60; 0: no limit); then 408 Request Timeout and the connection closes
          --max-upload BYTES  the longest FTP upload taken (default 67108864, 64 MiB); past it the
                           data connection closes, nothing is kept, and the client gets 552
          --tls            TLS from the first byte on the main port (HTTPS, implicit FTPS), with a
                           fresh test CA and a certificate for 127.0.0.1, ::1 and localhost
          --starttls       the same identity, but connections start in plain text until a script's
                           «starttls» (FTP's AUTH TLS, SMTP's STARTTLS)
          --tls-ca-out FILE  write the test CA's certificate (PEM) to FILE, for clients to trust
          --tls-host NAME  another host name (or address) for the certificate; repeat for more
          --tls-fault NAME a certificate clients must refuse: expired, not-yet-valid, wrong-host or
                           self-signed (the CA written by --tls-ca-out stays the one to trust); a
                           handshake that fails after the ClientHello: hang, reset or alert; or
                           no-close-notify (connections end with a bare TCP close); repeat to combine
          --tls-client-certs required|optional
                           ask clients for certificates (mutual TLS) that chain to the test CA, or
          --tls-client-ca FILE  to the CAs in this PEM file
          --tls-require-reuse  FTPS data connections must resume the control connection's TLS
                           session (vsftpd's require_ssl_reuse): others get 522
          --tls-required   plain-text logins are refused (ftp.json: USER and PASS before AUTH TLS
                           get 530), where a script's {"requireTLS": …} says so
          --tls-handshake-timeout SECONDS
                           how long a client may take over its handshake before the connection is
                           closed (10 by default; more for many clients at once on a busy machine)
          --tls-cert FILE  serve your own PEM certificate (chain) instead of a generated one; needs
          --tls-key FILE   its PEM private key
          --check FILE     validate a response file: exit 0, or FILE:LINE:COLUMN: message and exit 65;
                           with --mock-data, every file of the folders too; warnings (a "<<close>>"
                           that is sent as text) are printed as FILE:LINE:COLUMN: warning: message
          -h, --help       show this help

        EXIT STATUS: 0 stopped by SIGINT or SIGTERM, or a valid --check; 64 bad arguments;
        65 invalid response file (or unusable --tls-cert/--tls-key); 66 unreadable file;
        69 TLS unavailable (no OpenSSL 3); 70 TLS setup failed; 71 cannot listen; 73 cannot write
        --tls-ca-out.
        """

    /// Parses the arguments after the program name.
    ///
    /// - Throws: ``CommandLineError/usage(_:)`` naming the culprit.
    init(arguments: [String]) throws(CommandLineError) {
        var remaining = arguments[...]
        func value(for option: String) throws(CommandLineError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else { throw .usage("\(option) needs a value") }
            return value
        }
        func portValue(for option: String) throws(CommandLineError) -> UInt16 {
            let text = try value(for: option)
            guard let port = UInt16(text) else { throw .usage("\(option) takes a port from 0 to 65535, not \"\(text)\"") }
            return port
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--port": port = try portValue(for: argument)
            case "--data-port": dataPort = try portValue(for: argument)
            case "--host": host = try value(for: argument)
            case "--set": set = try value(for: argument)
            case "--data": dataFile = try value(for: argument)
            case "--files": filesDirectory = try value(for: argument)
            case "--uploads": uploadsDirectory = try value(for: argument)
            case "--mock-data": mockDataDirectories.append(try value(for: argument))
            case "--proto": protoFiles.append(try value(for: argument))
            case "--proto-path": protoPaths.append(try value(for: argument))
            case "--descriptor-set": descriptorSets.append(try value(for: argument))
            case "--allow-wildcards": allowsWildcards = true
            case "--admin": admin = true
            case "--admin-port": admin = true; adminPort = try portValue(for: argument)
            case "--transcript": transcriptFile = try value(for: argument)
            case "--verbose", "-v": verbose = true
            case "--http2":
                let text = try value(for: argument)
                guard let mode = MockServer.HTTP2ServerSettings.Mode(rawValue: text) else {
                    throw .usage("--http2 takes allow, refuse or require, not \"\(text)\"")
                }
                http2 = mode
            case "--http2-max-streams", "--http2-window", "--http2-max-frame":
                let text = try value(for: argument)
                guard let number = Int(text), number >= 0 else { throw .usage("\(argument) takes a whole number of 0 or more, not \"\(text)\"") }
                switch argument {
                case "--http2-max-streams": http2MaxStreams = number
                case "--http2-window": http2Window = number
                default: http2MaxFrame = number
                }
            case "--http2-reset-budget", "--http2-empty-frame-budget":
                let text = try value(for: argument)
                let budget: Int?
                if text == "off" {
                    budget = nil
                } else {
                    guard let number = Int(text), number >= 1 else { throw .usage("\(argument) takes a whole number of 1 or more, or off, not \"\(text)\"") }
                    budget = number
                }
                if argument == "--http2-reset-budget" { http2Defences.resetBudget = budget } else { http2Defences.emptyFrameBudget = budget }
            case "--http2-zero-window-timeout":
                let text = try value(for: argument)
                if text == "off" {
                    http2Defences.zeroWindowTimeout = nil
                } else {
                    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                        throw .usage("--http2-zero-window-timeout takes seconds above 0, at most 86400, or off, not \"\(text)\"")
                    }
                    http2Defences.zeroWindowTimeout = Duration.rounded(seconds: seconds)
                }
            case "--max-request-body", "--max-upload":
                let text = try value(for: argument)
                guard let bytes = Int(text), bytes >= 0 else { throw .usage("\(argument) takes a number of bytes from 0, not \"\(text)\"") }
                if argument == "--max-upload" { maximumUpload = bytes } else { maximumRequestBody = bytes }
            case "--request-head-timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                    throw .usage("--request-head-timeout takes seconds from 0 (no limit) to 86400, not \"\(text)\"")
                }
                requestHeadTimeout = .some(seconds == 0 ? nil : Duration.rounded(seconds: seconds))
            case "--latency", "--jitter", "--bandwidth":
                try ConditionOption.apply(argument, value: try value(for: argument), to: &conditions)
            case "--tls", "--starttls":
                let mode: TLSMode = argument == "--tls" ? .implicit : .explicit
                if let tlsMode, tlsMode != mode { throw .usage("--tls and --starttls exclude each other: choose one") }
                tlsMode = mode
            case "--tls-ca-out": tlsCAOut = try value(for: argument)
            case "--tls-host": tlsHosts.append(try value(for: argument))
            case "--tls-client-certs":
                let mode = try value(for: argument)
                guard let parsed = TLSSettings.ClientCertificates(rawValue: mode), parsed != .none else {
                    throw .usage("--tls-client-certs takes required or optional, not \"\(mode)\"")
                }
                tlsClientCertificates = parsed
            case "--tls-client-ca": tlsClientCA = try value(for: argument)
            case "--tls-require-reuse": tlsRequireReuse = true
            case "--tls-required": tlsRequired = true
            case "--tls-handshake-timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                    throw .usage("--tls-handshake-timeout takes seconds above 0, at most 3600, not \"\(text)\"")
                }
                tlsHandshakeTimeout = Duration.rounded(seconds: seconds)
            case "--tls-fault":
                let name = try value(for: argument)
                if let fault = TLSSettings.CertificateFault(rawValue: name) {
                    tlsFault = fault
                } else if let fault = TLSSettings.HandshakeFault(rawValue: name) {
                    tlsHandshakeFault = fault
                } else if name == "no-close-notify" {
                    tlsSendsCloseNotify = false
                } else {
                    let names = TLSSettings.CertificateFault.allCases.map(\.rawValue) + TLSSettings.HandshakeFault.allCases.map(\.rawValue) + ["no-close-notify"]
                    throw .usage("--tls-fault takes \(names.joined(separator: ", ")), not \"\(name)\"")
                }
            case "--tls-cert": tlsCertificate = try value(for: argument)
            case "--tls-key": tlsKey = try value(for: argument)
            case "--check":
                check = true
                if remaining.first != "--mock-data" { file = try value(for: argument) }
            case "--help", "-h": help = true
            case "--": if let next = remaining.popFirst() { try setFile(next) }
            default:
                guard !argument.hasPrefix("-") || argument == "-" else { throw .usage("unknown option \(argument)") }
                try setFile(argument)
            }
        }
        if allowsWildcards && mockDataDirectories.isEmpty { throw .usage("--allow-wildcards needs --mock-data DIR") }
        if !protoPaths.isEmpty && protoFiles.isEmpty { throw .usage("--proto-path needs --proto FILE") }
        if tlsMode == nil, let option = [("--tls-ca-out", tlsCAOut != nil), ("--tls-host", !tlsHosts.isEmpty), ("--tls-fault", tlsFault != nil || tlsHandshakeFault != nil || !tlsSendsCloseNotify), ("--tls-client-certs", tlsClientCertificates != .none),
                                        ("--tls-client-ca", tlsClientCA != nil), ("--tls-require-reuse", tlsRequireReuse), ("--tls-required", tlsRequired), ("--tls-handshake-timeout", tlsHandshakeTimeout != nil), ("--tls-cert", tlsCertificate != nil),
                                        ("--tls-key", tlsKey != nil)].first(where: { $0.1 })?.0 {
            throw .usage("\(option) needs --tls or --starttls")
        }
        if tlsClientCA != nil && tlsClientCertificates == .none { throw .usage("--tls-client-ca needs --tls-client-certs required or optional") }
        if tlsCertificate != nil && tlsClientCertificates != .none && tlsClientCA == nil {
            throw .usage("with --tls-cert there is no test CA: --tls-client-certs needs --tls-client-ca FILE")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) { throw .usage("--tls-cert and --tls-key go together: give both") }
        if tlsCertificate != nil && (tlsCAOut != nil || !tlsHosts.isEmpty || tlsFault != nil) {
            throw .usage("--tls-ca-out, --tls-host and a certificate --tls-fault are for the generated test identity, not with --tls-cert")
        }
    }

    private mutating func setFile(_ path: String) throws(CommandLineError) {
        guard file == nil else { throw .usage("only one response file can be served (got \"\(file ?? "")\" and \"\(path)\")") }
        file = path
    }
}

extension CommandLineOptions {
    /// Gives `configuration` the HTTP/2 mode, the settings and the defences the options name,
    /// HTTP/1.1's request limits and FTP's upload limit.
    func applyHTTP2(to configuration: inout MockServer.Configuration) {
        var http2Settings = MockServer.HTTP2ServerSettings(mode: http2, defences: http2Defences)
        if let http2MaxStreams { http2Settings.maxConcurrentStreams = http2MaxStreams }
        if let http2Window { http2Settings.initialWindowSize = http2Window }
        if let http2MaxFrame { http2Settings.maxFrameSize = http2MaxFrame }
        configuration.settings[MockServer.HTTP2ServerSettings.self] = http2Settings
        if let maximumRequestBody { configuration.settings[MockServer.HTTPServerSettings.self, default: .init()].maximumRequestBodySize = maximumRequestBody }
        if let requestHeadTimeout { configuration.settings[MockServer.HTTPServerSettings.self, default: .init()].requestHeadTimeout = requestHeadTimeout }
        if let maximumUpload { configuration.settings[MockServer.FTPServerSettings.self, default: .init()].maximumUploadSize = maximumUpload }
    }
}
