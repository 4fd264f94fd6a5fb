import Foundation
import MockServer
import MockServerAdmin
import Testing
import TestSupport

// A line protocol written here with the public spellings alone, as a user's package would: COUNTER
// keeps named counters. It has its own settings (`CounterSettings`), its own driver on the main port
// (`CounterDriver`, not the script interpreter), its own listener beside it (`TotalsDriver`: each
// connection is told every counter, then closed), a variable its listener's port gives scripts
// (`$totalsport`), and a control-API route reporting its state (`GET /counter`). A server built from
// these values serves it; the engine and the control API name none of it. (MockServerAdmin is
// imported only to start the control API as `mockserver --admin` does: it is the command's.)

/// COUNTER's part of a server's configuration.
struct CounterSettings: Sendable, Hashable {
    /// The longest line a connection may send, CR and LF included.
    var maximumLine = 64
    /// What a counter starts at.
    var start = 0
}

/// Why a COUNTER server would not start.
struct CounterSettingsError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// The counters every connection of one server shares, and the control API reads.
///
/// `@unchecked Sendable`: `counters` is read and written only while `lock` is held.
final class CounterStore: @unchecked Sendable {
    private let lock = NSLock()
    private var counters: [String: Int] = [:]

    func increment(_ name: String, from start: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let value = (counters[name] ?? start) + 1
        counters[name] = value
        return value
    }

    func value(_ name: String, from start: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counters[name] ?? start
    }

    var all: [String: Int] {
        lock.lock()
        defer { lock.unlock() }
        return counters
    }
}

/// The port of COUNTER's totals listener, as its substitution value.
struct TotalsPort: Sendable {
    let port: UInt16
}

/// The lines of a connection (LF-terminated, a CR before the LF dropped), as the actions answering each.
struct CounterDriver: ScriptConnections.Driver {
    let store: CounterStore
    let start: Int
    /// The totals listener's port, from the context's substitution values.
    let totalsPort: UInt16

    mutating func opened(connection: Int) -> [ScriptConnections.Action] {
        [.send(Array("COUNTER ready (connection \(connection))\r\n".utf8))]
    }

    mutating func read(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action] {
        guard let end = input.firstIndex(of: UInt8(ascii: "\n")) else { return [] }
        var line = input[..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        input = input[(end + 1)...]
        let text = String(decoding: line, as: UTF8.self)
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        let answer: String
        switch (words.first ?? "", words.count) {
        case ("INCR", 2): answer = "\(words[1])=\(store.increment(words[1], from: start))"
        case ("GET", 2): answer = "\(words[1])=\(store.value(words[1], from: start))"
        case ("TOTALS", 1): answer = "TOTALS \(totalsPort)"
        case ("QUIT", 1): return [.record(Array(line)), .send(Array("BYE\r\n".utf8)), .close("quit")]
        default: answer = "ERR \(text)"
        }
        return [.record(Array(line)), .send(Array("\(answer)\r\n".utf8))]
    }

    /// A last line without its LF is not a command: the client is told so before the close.
    mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action] {
        input.isEmpty ? [] : [.send(Array("ERR unterminated \(String(decoding: input, as: UTF8.self))\r\n".utf8))]
    }
}

/// The totals listener's connections: every counter, one line each in name order, then a close.
struct TotalsDriver: ScriptConnections.Driver {
    let store: CounterStore

    mutating func opened(connection: Int) -> [ScriptConnections.Action] {
        let lines = store.all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)\r\n" }.joined()
        return [.send(Array((lines + "END\r\n").utf8)), .close("totals sent")]
    }

    mutating func read(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action] {
        input.removeAll()
        return []
    }
}

struct CounterProtocol: ScriptProtocol {
    let store: CounterStore
    /// The path of its control-API route.
    var routePath = "/counter"
    /// The prefix of its route that tells one counter as text.
    var prefixPath = "/counter/"
    var name = "COUNTER"
    var schemes: Set<String> = ["counter"]
    /// `$totalsport`: the totals listener's port.
    let variables = [ScriptProtocolVariable("totalsport") { String($0.protocolValues[TotalsPort.self]?.port ?? 0) }]

    var adminRoutes: [ScriptVocabulary.AdminRoute] {
        let store = self.store
        return [ScriptVocabulary.AdminRoute(verb: "GET", path: routePath) { request in
            let counters = store.all
            if let name = request.query["name"] {
                guard let value = counters[name] else { return .init(status: 404, json: .object(["error": .string("no counter \(name)")])) }
                return .init(json: .object([name: .number(value)]))
            }
            return .init(json: .object(["counters": .object(counters.mapValues { .number($0) }), "total": .number(counters.values.reduce(0, +))]))
        }, ScriptVocabulary.AdminRoute(verb: "GET", pathPrefix: prefixPath) { request in
            // One counter's value as text: `GET /counter/a` is `2`.
            guard let value = store.all[request.rest] else { return .init(status: 404, body: Array("no counter \(request.rest)\n".utf8), contentType: "text/plain") }
            return .init(body: Array("\(value)\n".utf8), contentType: "text/plain; charset=utf-8")
        }, ScriptVocabulary.AdminRoute(verb: "DELETE", path: routePath) { _ in
            // An answer made later, off the handler: the total once the route's task has run.
            .init(deferred: {
                await Task.yield()
                return .init(status: 202, json: .object(["later": .number(store.all.values.reduce(0, +))]))
            })
        }]
    }

    /// Before the settings are read (a server composes them next): with the defaults.
    func connections(framing: Framing) -> ScriptConnections {
        Self.connections(store: store, settings: CounterSettings())
    }

    /// A COUNTER script's connections with the configuration's settings, refused when they make no sense.
    func compose(_ connections: ScriptConnections, script: ResponseScript?, settings: inout ScriptSettings) throws -> ScriptConnections {
        guard script.flatMap(\.scheme).map(schemes.contains) == true else { return connections }
        let counter = settings[CounterSettings.self] ?? CounterSettings()
        guard counter.maximumLine > 0 else {
            throw CounterSettingsError(description: "CounterSettings.maximumLine is \(counter.maximumLine): it takes 1 or more")
        }
        return Self.connections(store: store, settings: counter)
    }

    static func connections(store: CounterStore, settings: CounterSettings) -> ScriptConnections {
        let totals = ScriptConnections.PortListener(values: { ScriptSettings([TotalsPort(port: $0)]) }) { _ in TotalsDriver(store: store) }
        return ScriptConnections.driven(maximumInput: settings.maximumLine) { context in
            CounterDriver(store: store, start: settings.start, totalsPort: context.values.protocolValues[TotalsPort.self]?.port ?? 0)
        }.adding(totals)
    }
}

@Suite("A line protocol from outside: its own settings, driver, listener and admin route", .offPool)
struct CounterProtocolTests {
    static let script = #"{"scheme": "counter", "responses": {}}"#

    /// A stopped server of COUNTER, built from values: the vocabulary with the protocol, the
    /// script that names it, the configuration with its settings.
    static func server(_ store: CounterStore, settings: CounterSettings? = nil, conditions: NetworkConditions? = nil,
                       protocols: [any ScriptProtocol] = []) throws -> MockServer {
        var vocabulary = try ScriptVocabulary.standard.adding(CounterProtocol(store: store))
        for added in protocols { vocabulary = try vocabulary.adding(added) }
        let script = try ResponseScript(json: script, file: "counter.json", vocabulary: vocabulary)
        var configuration = MockServer.Configuration()
        configuration.settings[CounterSettings.self] = settings
        configuration.conditions = conditions
        return MockServer(responder: try PatternResponder(script: script), configuration: configuration, vocabulary: vocabulary)
    }

    @Test("its driver answers Python's socket client on the main port, LF and CRLF lines alike, and its listener tells the totals")
    func servesBothPorts() async throws {
        let store = CounterStore()
        let server = try Self.server(store, settings: CounterSettings(start: 10))
        try await server.start()
        defer { server.stop() }
        #expect(server.dataPort != 0 && server.dataPort != server.port)
        let result = try Tools.pythonSocket(port: server.port, """
            print(line())
            for text in [b"INCR a\\r\\n", b"INCR a\\n", b"GET a\\r\\n", b"INCR b\\n", b"TOTALS\\r\\n", b"HUH\\n"]:
                f.write(text); f.flush()
                print(line())
            f.write(b"QUIT\\r\\n"); f.flush()
            print(line())
            print(repr(f.read()))
            print(repr(connect(\(server.dataPort))[1].read()))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["COUNTER ready (connection 1)", "a=11", "a=12", "a=12", "b=11", "TOTALS \(server.dataPort)", "ERR HUH", "BYE", "b''",
                                                         #"b'a=12\r\nb=11\r\nEND\r\n'"#], "\(result.stdout)\(result.stderr)")
        // The driver's records are the transcript's inputs; the close is the driver's.
        try await server.waitForConnectionsClosed()
        let entries = server.transcript.entries.filter { $0.connection == 1 }
        #expect(entries.compactMap { if case .input(let input, _) = $0.event { input.text } else { nil } } == ["INCR a", "INCR a", "GET a", "INCR b", "TOTALS", "HUH", "QUIT"])
        #expect(entries.contains { if case .closed(.finished("quit")) = $0.event { true } else { false } }, "\(entries)")
    }

    @Test("lines that arrive in pieces of 1, 2 and 3 bytes are answered whole, several per read or one over many")
    func splitReads() async throws {
        for size in [1, 2, 3] {
            var conditions = NetworkConditions()
            conditions.toServer.sliceSize = size
            let server = try Self.server(CounterStore(), conditions: conditions)
            try await server.start()
            defer { server.stop() }
            let result = try Tools.pythonSocket(port: server.port, """
                f.readline()
                s.sendall(b"INCR x\\r\\nINCR x\\nGET x\\r\\nQUIT\\r\\n")
                print(f.read().decode().replace("\\r\\n", "|"))
                """)
            #expect(result.stdout == "x=1|x=2|x=2|BYE|\n", "size \(size): \(result.stdout)\(result.stderr)")
        }
    }

    @Test("a client that stops sending mid-line gets the driver's last word, then the close")
    func inputEndsMidLine() throws {
        let server = try Self.server(CounterStore())
        try server.start()
        defer { server.stop() }
        let result = try Tools.pythonSocket(port: server.port, """
            f.readline()
            s.sendall(b"INCR a\\nGET a")
            s.shutdown(socket.SHUT_WR)
            print(f.read().decode().replace("\\r\\n", "|"))
            """)
        #expect(result.stdout == "a=1|ERR unterminated GET a|\n", "\(result.stdout)\(result.stderr)")
    }

    @Test("a line over the configured bound closes the connection as too long; one at the bound is answered")
    func lineOverTheBound() async throws {
        let server = try Self.server(CounterStore(), settings: CounterSettings(maximumLine: 16))
        try await server.start()
        defer { server.stop() }
        // "INCR " and a 9-byte name and CRLF: 16 bytes, at the bound; one byte more is past it.
        let result = try Tools.pythonSocket(port: server.port, """
            f.readline()
            f.write(b"INCR abcdefghi\\r\\n"); f.flush()
            print(line())
            f.write(b"INCR abcdefghij" + b"j" * 100); f.flush()
            print(repr(f.read()))
            """)
        #expect(result.stdout == "abcdefghi=1\nb''\n", "\(result.stdout)\(result.stderr)")
        try await server.waitForConnectionsClosed()
        #expect(server.transcript.entries.contains { if case .closed(.inputTooLong(limit: 16)) = $0.event { true } else { false } })
    }

    @Test("bad settings stop the server from starting, naming the setting")
    func badSettings() throws {
        let server = try Self.server(CounterStore(), settings: CounterSettings(maximumLine: 0))
        #expect(throws: CounterSettingsError(description: "CounterSettings.maximumLine is 0: it takes 1 or more")) { try server.start() }
        #expect(!server.isRunning)
    }

    @Test("the control API serves the protocol's route beside its own, answered to curl")
    func adminRoute() async throws {
        let store = CounterStore()
        let server = try Self.server(store)
        try await server.start()
        defer { server.stop() }
        let admin = MockServer(httpResponder: try AdminResponder(.init(server: server, shutdown: {})), configuration: .init(host: "127.0.0.1"))
        try await admin.start()
        defer { admin.stop() }
        let result = try Tools.pythonSocket(port: server.port, """
            f.readline()
            for text in [b"INCR a\\n", b"INCR a\\n", b"INCR b\\n"]:
                f.write(text); f.flush(); f.readline()
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let base = "http://127.0.0.1:\(admin.port)"
        let all = try Tools.run("curl", ["-sS", "-w", "\\n%{http_code}", "\(base)/counter"])
        #expect(all.stdout == #"{"counters":{"a":2,"b":1},"total":3}"# + "\n\n200", "\(all.stdout)\(all.stderr)")
        let one = try Tools.run("curl", ["-sS", "-w", "\\n%{http_code}", "\(base)/counter?name=zzz"])
        #expect(one.stdout == #"{"error":"no counter zzz"}"# + "\n\n404", "\(one.stdout)\(one.stderr)")
        // The API's own routes answer as before, and its 404 lists the protocol's route.
        let missing = try Tools.run("curl", ["-sS", "\(base)/nothing"])
        #expect(missing.stdout.contains(#""GET /counter""#), "\(missing.stdout)")
        #expect(missing.stdout.contains(#""GET /counter/REST""#), "\(missing.stdout)")
        #expect(missing.stdout.contains(#""GET /info""#), "\(missing.stdout)")
    }

    @Test("a prefix route hands its handler the rest of the path and answers bytes of its own type; a deferred answer is awaited")
    func prefixAndDeferredRoutes() async throws {
        let store = CounterStore()
        _ = store.increment("a b", from: 0)
        _ = store.increment("x/y", from: 6)
        let server = try Self.server(store)
        let admin = MockServer(httpResponder: try AdminResponder(.init(server: server, shutdown: {})), configuration: .init(host: "127.0.0.1"))
        try await admin.start()
        defer { admin.stop() }
        let base = "http://127.0.0.1:\(admin.port)"
        let spaced = try Tools.run("curl", ["-sS", "-w", "%{http_code} %{content_type}", "\(base)/counter/a%20b"])
        #expect(spaced.stdout == "1\n200 text/plain; charset=utf-8", "\(spaced.stdout)\(spaced.stderr)")
        let nested = try Tools.run("curl", ["-sS", "-w", "%{http_code}", "\(base)/counter/x/y"])
        #expect(nested.stdout == "7\n200", "\(nested.stdout)\(nested.stderr)")
        let unknown = try Tools.run("curl", ["-sS", "-w", "%{http_code} %{content_type}", "\(base)/counter/zzz"])
        #expect(unknown.stdout == "no counter zzz\n404 text/plain", "\(unknown.stdout)\(unknown.stderr)")
        // The prefix alone is not the route's: the rest is never empty.
        let bare = try Tools.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/counter/"])
        #expect(bare.stdout == "404", "\(bare.stdout)\(bare.stderr)")
        let later = try Tools.run("curl", ["-sS", "-X", "DELETE", "-w", "\n%{http_code}", "\(base)/counter"])
        #expect(later.stdout == #"{"later":8}"# + "\n\n202", "\(later.stdout)\(later.stderr)")
        // Unit-test spellings: a request with a rest, an answer resolved.
        let route = CounterProtocol(store: store).adminRoutes[1]
        #expect(route.isPrefix && route.path == "/counter/" && route.verb == "GET")
        let answer = await route.handle(.init(rest: "a b")).resolved()
        #expect(answer.body == Array("1\n".utf8) && answer.status == 200 && answer.deferred == nil)
    }

    @Test("a prefix route that shares paths with another route is refused at start, naming both", arguments: [
        ("/files/", "COUNTER's GET /files/REST", "the control API's GET /files/PATH"),
        ("/files/deep/", "COUNTER's GET /files/deep/REST", "the control API's GET /files/PATH"),
        ("/uplo", "COUNTER's GET /uploREST", "the control API's GET /uploads"),
        ("/count", "COUNTER's GET /countREST", "COUNTER's GET /counter"),
    ])
    func prefixClash(prefix: String, newcomer: String, holder: String) throws {
        let vocabulary = try ScriptVocabulary.standard.adding(CounterProtocol(store: CounterStore(), prefixPath: prefix))
        let server = MockServer(responder: try PatternResponder(script: try ResponseScript(json: Self.script, vocabulary: vocabulary)), vocabulary: vocabulary)
        #expect(throws: AdminRouteClash(newcomer: newcomer, holder: holder)) {
            _ = try AdminResponder(.init(server: server, shutdown: {}))
        }
    }

    @Test("a protocol's route that takes a built-in route's path or another protocol's is refused at start, naming both")
    func routeClash() throws {
        let onFiles = try Self.serverWithRoute("/files/counter")
        #expect(throws: AdminRouteClash(newcomer: "COUNTER's GET /files/counter", holder: "the control API's GET /files/PATH")) {
            _ = try AdminResponder(.init(server: onFiles, shutdown: {}))
        }
        let twice = try Self.server(CounterStore(), protocols: [CounterProtocol(store: CounterStore(), name: "TWIN", schemes: ["twin"])])
        #expect(throws: AdminRouteClash(newcomer: "TWIN's GET /counter", holder: "COUNTER's GET /counter")) {
            _ = try AdminResponder(.init(server: twice, shutdown: {}))
        }
        let error = AdminRouteClash(newcomer: "TWIN's GET /counter", holder: "COUNTER's GET /counter")
        #expect("\(error)" == "TWIN's GET /counter clashes with COUNTER's GET /counter: the control API cannot answer both")
    }

    static func serverWithRoute(_ path: String) throws -> MockServer {
        let store = CounterStore()
        let vocabulary = try ScriptVocabulary.standard.adding(CounterProtocol(store: store, routePath: path))
        let script = try ResponseScript(json: script, vocabulary: vocabulary)
        return MockServer(responder: try PatternResponder(script: script), vocabulary: vocabulary)
    }
}
