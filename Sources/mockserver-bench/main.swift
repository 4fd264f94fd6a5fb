// Micro-benchmarks that need no load generator: server start+stop time and pattern-matching cost
// per line. Run with `swift run -c release mockserver-bench [SCRIPT]`; Benchmarks/run.sh does.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import MockServerCore
import MockServerHTTP
import MockServerScript
import MockServerStubs

func median<Value: Comparable>(_ values: [Value]) -> Value { values.sorted()[values.count / 2] }
func percentile(_ values: [Duration], _ fraction: Double) -> Duration { values.sorted()[min(values.count - 1, Int(Double(values.count) * fraction))] }
/// Command-line argument number `index` (the mode's name is 1) without `prefix` (`only:`, `parallel:`), when it has it.
func option(_ prefix: String, at index: Int) -> String? {
    CommandLine.arguments.dropFirst(index).first.flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
}
func micros(_ duration: Duration) -> String {
    String(format: "%.1f", Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12)
}

// `mockserver-bench serve-stubs N`: an HTTPMockServer with N stubs (literal paths, :param templates
// and one closure reading the cache) for wrk; prints the listening line, serves until killed.
if CommandLine.arguments.dropFirst().first == "serve-stubs" {
    let count = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 100
    let server = HTTPMockServer()
    server.cache.greeting = "hello"
    for index in 0..<count {
        if index.isMultiple(of: 2) {
            server.stubRequest("GET", "/literal/\(index)").andReturn(200).withBody("literal \(index)\n")
        } else {
            server.stubRequest("GET", "/template/:id/\(index)").andReturn(200).withBody("template \(index)\n")
        }
    }
    server.add(.GET, "/dynamic/:name") { request, cache in
        .ok(body: "\(cache.greeting as? String ?? "") \(request.pathParameters.name ?? "")\n")
    }
    try server.start()
    FileHandle.standardOutput.write(Data("mockserver listening on 127.0.0.1:\(server.port)\n".utf8))
    while true { sleep(3600) }
}

// `mockserver-bench urlsession [REQUESTS] [ROUNDS]`: URLSession requests per second (`data(for:)`,
// one at a time and 8 at once) through a minimal constant URLProtocol, through the in-process path
// to a stub, and to the same stub over loopback, in alternating rounds of the same run.
if CommandLine.arguments.dropFirst().first == "urlsession" {
    let requests = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 2_000
    let roundCount = CommandLine.arguments.dropFirst(3).first.flatMap { Int($0) } ?? 3
    let server = HTTPMockServer()
    server.stubRequest("GET", "/x").andReturn(200).withBody("ok\n")
    try server.start()
    let constant = URLSessionConfiguration.ephemeral
    constant.protocolClasses = [ConstantURLProtocol.self] + (constant.protocolClasses ?? [])
    let sessions: [(String, URLSession)] = [
        ("constant-urlprotocol", URLSession(configuration: constant)),
        ("in-process", try server.makeInProcessSession()),
        ("loopback", URLSession(configuration: .ephemeral)),
    ]
    let rounds = URLSessionRounds(url: server.url(for: "/x"), requests: requests)
    // `urlsession N R only:NAME [parallel:P]` runs one of the three alone (for a profiler), at
    // both levels of parallelism or at P only.
    let only = option("only:", at: 4)
    let levels = option("parallel:", at: 5).flatMap { Int($0) }.map { [$0] } ?? [1, 8]
    if let only, let session = sessions.first(where: { $0.0 == only }) {
        for parallel in levels {
            var total = 0.0
            for _ in 0..<roundCount { total += try await rounds.rate(session.1, parallel: parallel) }
            print("urlsession: \(only) parallel=\(parallel) requests=\(requests) rounds=\(roundCount) rate=\(String(format: "%.0f", total / Double(roundCount)))")
        }
        server.stop()
        exit(0)
    }
    try await rounds.compare(sessions.map { (name: $0.0, session: $0.1) }, rounds: roundCount, parallelism: levels,
                             ratios: [("in-process", "constant-urlprotocol", "constant"), ("in-process", "loopback", "loopback")])
    server.stop()
    exit(0)
}

// `mockserver-bench urlprotocol [REQUESTS] [only:NAME]`: the time of one `startLoading` alone, with a client
// that only counts, for the constant URLProtocol and the in-process one (a stub, as above): what
// the in-process engine adds to every request, without URLSession's own noise around it.
if CommandLine.arguments.dropFirst().first == "urlprotocol" {
    let requests = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 20_000
    let server = HTTPMockServer()
    server.stubRequest("GET", "/x").andReturn(200).withBody("ok\n")
    try server.start()
    let configuration = URLSessionConfiguration.ephemeral
    try server.installInProcess(in: configuration)
    guard let inProcess = configuration.protocolClasses?.first as? URLProtocol.Type else { exit(1) }
    let request = URLRequest(url: server.url(for: "/x"))
    let clock = ContinuousClock()
    // `only:NAME` times one of the two (for a profiler, or valgrind's instruction counts).
    let only = option("only:", at: 3)
    let protocols = [("constant-urlprotocol", ConstantURLProtocol.self as URLProtocol.Type), ("in-process", inProcess)]
    for (name, protocolClass) in protocols where only == nil || only == name {
        var samples: [Duration] = []
        for _ in 0..<5 {
            let client = CountingURLProtocolClient()
            let elapsed = clock.measure {
                for _ in 0..<requests {
                    let loader = protocolClass.init(request: request, cachedResponse: nil, client: client)
                    loader.startLoading()
                    loader.stopLoading()
                }
            }
            guard client.finished == requests, client.bytes == 3 * requests else {
                print("urlprotocol: \(name) finished \(client.finished) of \(requests), \(client.bytes) bytes, \(client.failures) failures")
                exit(1)
            }
            samples.append(elapsed / requests)
        }
        print("urlprotocol: \(name) median_us=\(micros(median(samples))) requests=\(requests)")
    }
    server.stop()
    exit(0)
}

// Parsing: a browser-like GET of nine header fields, framed alone, as a connection's parser sees it.
if CommandLine.arguments.dropFirst().first == "parse" {
    let bytes = Array(("GET /api/v1/items?page=2&sort=name HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36\r\n"
        + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\nAccept-Language: en-US,en;q=0.9\r\nAccept-Encoding: gzip, deflate, br\r\n"
        + "Cookie: session=abc123; theme=dark\r\nCache-Control: no-cache\r\nConnection: keep-alive\r\nX-Request-Id: 4f1c2d3e-aaaa-bbbb-cccc-1234567890ab\r\n\r\n").utf8)
    let iterations = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 300_000
    var parser = HTTPRequestParser()
    var parsed = 0
    let elapsed = try ContinuousClock().measure {
        for _ in 0..<iterations {
            parser.append(bytes)
            if try parser.next() != nil { parsed += 1 }
        }
    }
    let perRequest = Double(elapsed.components.seconds) * 1e9 / Double(iterations) + Double(elapsed.components.attoseconds) / 1e9 / Double(iterations)
    print("parse: head_bytes=\(bytes.count) ns_per_request=\(String(format: "%.0f", perRequest)) parsed=\(parsed)")
    exit(0)
}

let scriptPath = CommandLine.arguments.dropFirst().first ?? "Benchmarks/cresponder.json"
let script = try ResponseScript(contentsOf: URL(fileURLWithPath: scriptPath))
let responder = try PatternResponder(script: script)

// Start + stop: both listeners bound, the loop thread started, then everything closed and joined.
let clock = ContinuousClock()
var startStop: [Duration] = []
for _ in 0..<2_000 {
    let server = MockServer(responder: responder)
    let elapsed = try clock.measure {
        try server.start()
        server.stop()
    }
    startStop.append(elapsed)
}
print("start+stop: median_us=\(micros(median(startStop))) p99_us=\(micros(percentile(startStop, 0.99))) n=\(startStop.count)")

// Matching: the responder alone, on lines that stop at different depths of the 15 patterns.
let context = SubstitutionContext(data: Array("123456789".utf8))
for line in ["NOOP", "USER anonymous", "RETR dir/file.txt", "XYZZY plugh", "12 not a command"] {
    let input = InputUnit(line)
    var session = ScriptSession(connectionID: 1)
    let iterations = 300_000
    var replies = 0
    let elapsed = clock.measure {
        for _ in 0..<iterations {
            if let reply = responder.respond(to: input, session: &session, context: context) { replies += reply.commands.count }
        }
    }
    let perLine = Double(elapsed.components.seconds) * 1e9 / Double(iterations) + Double(elapsed.components.attoseconds) / 1e9 / Double(iterations)
    print("match: line=\"\(line)\" ns_per_line=\(String(format: "%.0f", perLine)) replies=\(replies)")
}

// Route lookup: the same request against 10 and 1,000 stubs (the index makes the cost of finding
// candidates depend on the path's depth, not on the number of stubs).
for count in [10, 1_000] {
    let router = StubRouter()
    for index in 0..<count {
        _ = router.add(method: "GET", target: StubTarget(index.isMultiple(of: 2) ? "/literal/\(index)" : "/template/:id/\(index)"))
    }
    var parser = HTTPRequestParser()
    parser.append(Array("GET /template/42/\(count - 1) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    guard let request = try parser.next() else {
        print("route: the benchmark request does not parse")
        exit(1)
    }
    let context = HTTPRequestContext(connectionID: 1, peer: nil, local: nil,
                                     environment: ServerEnvironment(transcript: Transcript(), logger: .disabled))
    let iterations = 200_000
    var answered = 0
    let elapsed = clock.measure {
        for _ in 0..<iterations {
            if case .reply = try? router.answerImmediately(request, context: context) { answered += 1 }
        }
    }
    let perRequest = Double(elapsed.components.seconds) * 1e9 / Double(iterations) + Double(elapsed.components.attoseconds) / 1e9 / Double(iterations)
    print("route: stubs=\(count) ns_per_request=\(String(format: "%.0f", perRequest)) answered=\(answered)")
}

// Matching a large request: a 5 MiB WebDAV PUT against the bundled webdav.json, whose patterns are
// tried in order until "put" matches (the prefilter rejects most; lookaheads scan the head).
if let webdavPath = CommandLine.arguments.dropFirst(2).first {
    let webdav = try PatternResponder(script: try ResponseScript(contentsOf: URL(fileURLWithPath: webdavPath)))
    var generator = SystemRandomNumberGenerator()
    let bodies: [(String, [UInt8])] = [
        ("text", Array(String(repeating: "0123456789abcdef", count: 5 * 1024 * 1024 / 16).utf8)),
        ("binary", (0..<5 * 1024 * 1024).map { _ in UInt8.random(in: 0...255, using: &generator) }),
    ]
    for (kind, body) in bodies {
        let head = "PUT /big.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Basic dXNlcjpwYXNz\r\nContent-Length: \(body.count)\r\n\r\n"
        var session = ScriptSession(connectionID: 1)
        var reply: ScriptReply?
        let elapsed = clock.measure {
            reply = webdav.respond(to: InputUnit(bytes: Array(head.utf8) + body), session: &session, context: context)
        }
        print("match: 5 MiB \(kind) PUT us=\(micros(elapsed)) response=\(reply?.response ?? "none")")
    }
}
