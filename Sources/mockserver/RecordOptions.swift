import Foundation
import MockServer

/// What `mockserver record` was asked to do.
struct RecordOptions: Equatable {
    var upstream = ""
    var mockData: String?
    var endpoints: String?
    var script: String?
    var upstreamCA: String?
    var files: String?
    var port: UInt16 = 0
    var host = "127.0.0.1"
    var maskHeaders: [String] = []
    var maskJSONFields: [String] = []
    var maskQueries: [String] = []
    var maskFormFields: [String] = []
    var unmaskedHeaders: [String] = []
    var keepTiming = false
    var timeout: Double = 30
    /// `--max-body`: the longest upstream answer body recorded.
    var maximumBody = HTTPRecorder.defaultMaximumBodySize
    /// `--max-request-body`: the longest client request body taken.
    var maximumRequestBody = MockServer.HTTPServerSettings().maximumRequestBodySize
    var transcriptFile: String?
    var verbose = false
    var help = false
    /// `--tls`: the recorder listens for HTTPS (a generated test identity, `h2` and `http/1.1` through ALPN).
    var tls = false
    var tlsCAOut: String?
    /// `--http2`: whether the recorder's listener speaks HTTP/2 too.
    var http2 = MockServer.HTTP2ServerSettings.Mode.allow
    /// `--proto FILE`s, `--proto-path DIR`s and `--descriptor-set FILE`s: the schemas gRPC calls
    /// are written by (JSON messages), as the server command reads them.
    var protoFiles: [String] = []
    var protoPaths: [String] = []
    var descriptorSets: [String] = []

    static let usage = """
        USAGE: mockserver record --upstream URL (--mock-data DIR | --endpoints FILE) [--upstream-ca FILE] [--port N] [--host ADDR]
                                 [--mask-header NAME]... [--unmask-header NAME]... [--mask-query NAME]...
                                 [--mask-form-field NAME]... [--mask-json-field NAME]...
                                 [--keep-timing] [--timeout SECONDS] [--max-body BYTES] [--max-request-body BYTES]
                                 [--transcript FILE] [--verbose] [--tls [--tls-ca-out FILE]] [--http2 allow|refuse|require]
                                 [--proto FILE]... [--proto-path DIR]... [--descriptor-set FILE]...
               mockserver record --upstream tcp://HOST:PORT --script FILE [--port N] [--host ADDR] [--keep-timing]
                                 [--mask-header NAME]... [--unmask-header NAME]... [--transcript FILE] [--verbose]
               mockserver record --upstream ftp://HOST:PORT --script FILE --files DIR [...]

        A recording reverse proxy: each request goes to the upstream, the client gets the upstream's
        answer, and the exchange is written (masked) as mock-data files or endpoints, for
        "mockserver --mock-data DIR" or "mockserver FILE" to answer the same requests later. A
        request the folder or file already answers is answered from there and not forwarded
        (capture on miss). The first line printed is "mockserver listening on HOST:PORT", the
        second "mockserver recording URL into PATH". SIGINT or SIGTERM writes what is pending and stops.
        HTTP/2 clients are served too (h2c with prior knowledge or Upgrade, h2 through ALPN with
        --tls): each stream's request goes upstream on its own, and the files are the same.

        With a tcp:// upstream, each connection is relayed byte for byte and the dialogues are written
        as a response script (Docs/Recording.md gives the rules), for "mockserver FILE" to replay.
        With an ftp:// upstream, data connections pass through the recorder too: what is downloaded
        and uploaded is kept in --files DIR, and "mockserver --files DIR FILE" replays the session.

        OPTIONS:
          --upstream URL       the server to record: http(s)://HOST[:PORT][/PATH] (HOST may be a name),
                               or h2c://HOST[:PORT][/PATH] for one that speaks only HTTP/2 (a gRPC server)
          --upstream-ca FILE   an https upstream's certificate must chain to a CA in this PEM file
                               (default: the system's trust store)
          --mock-data DIR      write .http files named by VOKMockUrlProtocol's convention into DIR
          --endpoints FILE     write an endpoints file (a stub script); its endpoints are kept, first
          --script FILE        with a tcp:// or ftp:// upstream: write the dialogues as a response script
          --files DIR          with an ftp:// upstream: keep what was downloaded and uploaded in DIR
          --port N             port to listen on (default 0: the system picks one)
          --host ADDR          numeric address to listen on (default 127.0.0.1)
          --mask-header NAME   also mask this header's value; repeat for more. Masked by default:
                               Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key,
                               Api-Key, X-Auth-Token, X-Amz-Security-Token, X-CSRF-Token, and any
                               name containing token, secret, api-key or apikey (any case)
          --unmask-header NAME write this header's value after all (a default or pattern-matched one)
          --mask-query NAME    also mask this query parameter's value (file names included); repeat
          --mask-form-field NAME  also mask this field of form (x-www-form-urlencoded) bodies; repeat
          --mask-json-field NAME  also mask this key's value in JSON bodies, at any depth; repeat
                               Query parameters, form and JSON fields masked by default: password,
                               passwd, token, access_token, refresh_token, api_key, apikey, secret,
                               client_secret (any case). A replay masks a request the same way before
                               it looks it up, so the masked recording answers the original request.
          --keep-timing        endpoints get the upstream's time to answer as their "delay"; a script
                               gets it as a pause before each reply
          --timeout SECONDS    how long the upstream may take per request (default 30); then 502
          --max-body BYTES     the longest upstream answer body recorded (default 67108864, 64 MiB):
                               an answer is held whole to be written, so a longer one gets the
                               client a 502 naming the limit, and is neither forwarded nor recorded
          --max-request-body BYTES  the longest request body a client may send (default 67108864);
                               a longer one is answered 413, as for mockserver --max-request-body
          --transcript FILE    append the transcript to FILE as JSON lines (masked values hidden)
          --verbose            print the transcript to standard error (masked values hidden)
          --tls                listen for HTTPS with a generated test identity (ALPN h2 and http/1.1)
          --tls-ca-out FILE    write that identity's CA certificate (PEM) to FILE, for clients to trust
          --http2 allow|refuse|require  HTTP/2 beside HTTP/1.1 on the recorder's listener (default
                               allow), as for mockserver --http2
          --proto FILE         with --endpoints: read a .proto file (repeat for more), as mockserver
                               --proto does; a gRPC call of a method it has is written with its
                               messages as {"json": ...}, matched by its first request message
                               ("request": {"grpc": {"json": ...}}; not for client-streaming calls),
                               and its error's grpc-status-details-bin as "details". Other calls,
                               and all without a schema, are written as bytes. Replay the file with
                               mockserver --proto FILE ENDPOINTS
          --proto-path DIR     where --proto files and their imports are found, as protoc's -I
                               (repeat; default: the current directory)
          --descriptor-set FILE  read the files of a FileDescriptorSet, as protoc writes one with
                               its imports included; with --proto or instead of it (repeat)
          -h, --help           show this help

        EXIT STATUS: 0 stopped by SIGINT or SIGTERM; 64 bad arguments; 66 unreadable destination;
        71 cannot listen; 73 cannot write.
        """

    /// Parses the arguments after `record`.
    ///
    /// - Throws: ``CommandLineError/usage(_:)`` naming the culprit.
    init(arguments: [String]) throws(CommandLineError) {
        var remaining = arguments[...]
        func value(for option: String) throws(CommandLineError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else { throw .usage("record: \(option) needs a value") }
            return value
        }
        var upstream: String?
        while let argument = remaining.popFirst() {
            switch argument {
            case "--upstream": upstream = try value(for: argument)
            case "--mock-data": mockData = try value(for: argument)
            case "--endpoints": endpoints = try value(for: argument)
            case "--script": script = try value(for: argument)
            case "--upstream-ca": upstreamCA = try value(for: argument)
            case "--files": files = try value(for: argument)
            case "--port":
                let text = try value(for: argument)
                guard let port = UInt16(text) else { throw .usage("record: --port takes a port from 0 to 65535, not \"\(text)\"") }
                self.port = port
            case "--host": host = try value(for: argument)
            case "--mask-header": maskHeaders.append(try value(for: argument))
            case "--unmask-header": unmaskedHeaders.append(try value(for: argument))
            case "--mask-json-field": maskJSONFields.append(try value(for: argument))
            case "--mask-query": maskQueries.append(try value(for: argument))
            case "--mask-form-field": maskFormFields.append(try value(for: argument))
            case "--keep-timing": keepTiming = true
            case "--timeout":
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw .usage("record: --timeout takes seconds above 0 (up to 86400), not \"\(text)\"")
                }
                timeout = seconds
            case "--max-body", "--max-request-body":
                let text = try value(for: argument)
                guard let bytes = Int(text), bytes >= 0 else { throw .usage("record: \(argument) takes a number of bytes from 0, not \"\(text)\"") }
                if argument == "--max-body" { maximumBody = bytes } else { maximumRequestBody = bytes }
            case "--transcript": transcriptFile = try value(for: argument)
            case "--verbose", "-v": verbose = true
            case "--tls": tls = true
            case "--tls-ca-out": tlsCAOut = try value(for: argument)
            case "--http2":
                let text = try value(for: argument)
                guard let mode = MockServer.HTTP2ServerSettings.Mode(rawValue: text) else {
                    throw .usage("record: --http2 takes allow, refuse or require, not \"\(text)\"")
                }
                http2 = mode
            case "--proto": protoFiles.append(try value(for: argument))
            case "--proto-path": protoPaths.append(try value(for: argument))
            case "--descriptor-set": descriptorSets.append(try value(for: argument))
            case "--help", "-h": help = true
            default: throw .usage("record: unknown argument \(argument)")
            }
        }
        if help { return }
        guard let upstream else { throw .usage("record: --upstream URL is required") }
        self.upstream = upstream
        if tlsCAOut != nil && !tls { throw .usage("record: --tls-ca-out needs --tls") }
        if !protoPaths.isEmpty && protoFiles.isEmpty { throw .usage("record: --proto-path needs --proto FILE") }
        if (!protoFiles.isEmpty || !descriptorSets.isEmpty) && endpoints == nil {
            throw .usage("record: --proto and --descriptor-set write gRPC calls into an endpoints file: give --endpoints FILE")
        }
        let scheme = upstream.split(separator: ":").first.map { $0.lowercased() } ?? ""
        switch scheme {
        case "tcp":
            guard script != nil else { throw .usage("record: a tcp:// upstream is recorded as a script: give --script FILE") }
            if mockData != nil || endpoints != nil { throw .usage("record: --mock-data and --endpoints are for http:// upstreams; a tcp:// one takes --script FILE") }
            if upstreamCA != nil { throw .usage("record: --upstream-ca is for https:// upstreams") }
            if files != nil { throw .usage("record: --files is for ftp:// upstreams") }
            if tls || http2 != .allow { throw .usage("record: --tls and --http2 are for http(s):// upstreams") }
        case "ftp":
            guard script != nil, files != nil else { throw .usage("record: an ftp:// upstream is recorded as a script and files: give --script FILE and --files DIR") }
            if mockData != nil || endpoints != nil || upstreamCA != nil {
                throw .usage("record: --mock-data, --endpoints and --upstream-ca are for http(s):// upstreams")
            }
            if tls || http2 != .allow { throw .usage("record: --tls and --http2 are for http(s):// upstreams") }
        default:
            if script != nil { throw .usage("record: --script is for tcp:// and ftp:// upstreams; an http:// one takes --mock-data DIR or --endpoints FILE") }
            if files != nil { throw .usage("record: --files is for ftp:// upstreams") }
            switch (mockData, endpoints) {
            case (nil, nil): throw .usage("record: give --mock-data DIR or --endpoints FILE")
            case (_?, _?): throw .usage("record: --mock-data and --endpoints exclude each other: choose one")
            default: break
            }
        }
    }

    /// The mask the options ask for.
    var mask: HTTPRecorder.Mask {
        var mask = HTTPRecorder.Mask.standard
        mask.headers.removeAll { name in unmaskedHeaders.contains { $0.caseInsensitiveCompare(name) == .orderedSame } }
        mask.unmaskedHeaders = unmaskedHeaders.filter { name in !maskHeaders.contains { $0.caseInsensitiveCompare(name) == .orderedSame } }
        mask.headers += maskHeaders
        mask.jsonFields += maskJSONFields
        mask.queryParameters += maskQueries
        mask.formFields += maskFormFields
        return mask
    }
}
