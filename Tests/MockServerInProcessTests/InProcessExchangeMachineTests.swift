import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import MockServerCore
import MockServerHTTP
@testable import MockServerInProcess

/// The in-process load's state machine, without URLSession or a mock: events in, actions out.
/// Connections are numbers here.
@Suite("In-process exchange machine")
struct InProcessExchangeMachineTests {
    typealias Machine = InProcessExchangeMachine<Int>

    static let url = URL(string: "http://127.0.0.1:8080/a")!

    static func machine(pieces: Bool = false, follows: Bool = true, accepts: @escaping @Sendable (URLRequest) -> Bool = { _ in true }) -> Machine {
        var machine = Machine(piecesToClient: pieces, followsRedirects: follows, accepts: accepts)
        let started = machine.start(URLRequest(url: url), now: 0)
        #expect(started)
        _ = machine.connected(10, generation: 0)
        return machine
    }

    /// `actions` as short words: `close 10`, `response 200`, `data hello`, `finished`, `failed -1005`…
    static func words(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .open(let request, let generation): "open \(request.url?.path ?? "?") #\(generation)"
            case .close(let connection): "close \(connection)"
            case .abandon(let connection): "abandon \(connection)"
            case .storeCookies(let head, _, _): "cookies \(head.status)"
            case .call(.response(let head, _)): "response \(head.status)"
            case .call(.data(let bytes)): "data \(String(decoding: bytes, as: UTF8.self))"
            case .call(.finished): "finished"
            case .call(.failed(let error)): "failed \(error.code.rawValue)"
            case .call(.redirected(let next, let head, _)): "redirected \(head.status) to \(next.url?.path ?? "?")"
            }
        }
    }

    static let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world".utf8)

    @Test("a response read in pieces of any size: one data call at the end, or each piece as it comes", arguments: [1, 2, 7, 40, 1000])
    func response(chunk: Int) {
        for pieces in [false, true] {
            var machine = Self.machine(pieces: pieces)
            var actions: [Machine.Action] = []
            for start in stride(from: 0, to: Self.response.count, by: chunk) {
                actions += machine.received(.bytes(Array(Self.response[start..<min(start + chunk, Self.response.count)])), generation: 0, now: 1)
            }
            let words = Self.words(actions)
            #expect(Array(words.prefix(2)) == ["cookies 200", "response 200"])
            #expect(words.last == "finished" && words.contains("close 10"))
            let body = words.filter { $0.hasPrefix("data ") }.map { String($0.dropFirst(5)) }.joined()
            #expect(body == "hello world")
            #expect(pieces || words.filter { $0.hasPrefix("data ") }.count == 1)
            #expect(machine.received(.closed, generation: 0, now: 2).isEmpty, "a finished load takes no more events")
        }
    }

    @Test("events of another connection are ignored; start happens once")
    func generations() {
        var machine = Self.machine()
        let again = machine.start(URLRequest(url: Self.url), now: 0)
        #expect(!again)
        #expect(machine.received(.bytes(Self.response), generation: 1, now: 1).isEmpty)
        #expect(machine.idleTime(generation: 1, now: 5) == nil)
        #expect(machine.idleTime(generation: 0, now: 2_000_000_000) == 2)
    }

    @Test("cancelled: the connection is abandoned, one made later too, and nothing more reaches the client")
    func cancel() {
        var machine = Self.machine()
        #expect(Self.words(machine.cancel()) == ["abandon 10"])
        #expect(machine.isCancelled)
        #expect(machine.received(.bytes(Self.response), generation: 0, now: 1).isEmpty)
        #expect(Self.words(machine.connected(11, generation: 1)) == ["abandon 11"])
        #expect(machine.fail(URLError(.timedOut)).isEmpty)
        #expect(machine.idleTime(generation: 0, now: 1) == nil)
    }

    @Test("a reset before the response ends fails the load and abandons the connection; after it, nothing happens")
    func reset() {
        var machine = Self.machine()
        _ = machine.received(.bytes(Array(Self.response.prefix(30))), generation: 0, now: 1)
        #expect(Self.words(machine.received(.reset, generation: 0, now: 2)) == ["abandon 10", "failed \(URLError.networkConnectionLost.rawValue)"])
        var complete = Self.machine()
        let head = Array("HTTP/1.1 200 OK\r\n\r\nuntil close".utf8)
        _ = complete.received(.bytes(head), generation: 0, now: 1)
        _ = complete.received(.closed, generation: 0, now: 2)
        #expect(complete.received(.reset, generation: 0, now: 3).isEmpty)
    }

    @Test("malformed bytes are badServerResponse; a body cut short is networkConnectionLost")
    func brokenResponses() {
        var malformed = Self.machine()
        #expect(Self.words(malformed.received(.bytes(Array("NOT HTTP\r\n\r\n".utf8)), generation: 0, now: 1))
                == ["abandon 10", "failed \(URLError.badServerResponse.rawValue)"])
        var short = Self.machine()
        _ = short.received(.bytes(Array(Self.response.prefix(40))), generation: 0, now: 1)
        #expect(Self.words(short.received(.closed, generation: 0, now: 2)).last == "failed \(URLError.networkConnectionLost.rawValue)")
    }

    static func redirect(to path: String) -> [UInt8] {
        Array("HTTP/1.1 302 Found\r\nLocation: \(path)\r\nContent-Length: 0\r\n\r\n".utf8)
    }

    @Test("a redirect is handed to the loading system (Apple's), or followed on a new connection (FoundationNetworking)")
    func redirects() {
        var handed = Self.machine(follows: false)
        #expect(Self.words(handed.received(.bytes(Self.redirect(to: "/b")), generation: 0, now: 1)) == ["cookies 302", "close 10", "redirected 302 to /b"])
        var followed = Self.machine()
        #expect(Self.words(followed.received(.bytes(Self.redirect(to: "/b")), generation: 0, now: 1)) == ["cookies 302", "close 10", "open /b #1"])
        _ = followed.connected(11, generation: 1)
        #expect(followed.received(.bytes(Self.response), generation: 0, now: 2).isEmpty, "the first connection is done with")
        #expect(Self.words(followed.received(.bytes(Self.response), generation: 1, now: 2)) == ["cookies 200", "response 200", "close 11", "data hello world", "finished"])
        var elsewhere = Self.machine(accepts: { _ in false })
        #expect(Self.words(elsewhere.received(.bytes(Self.redirect(to: "http://other.example/")), generation: 0, now: 1))
                == ["cookies 302", "close 10", "response 302", "finished"])
    }

    @Test("16 redirects are followed; the 17th fails with httpTooManyRedirects")
    func redirectLimit() {
        var machine = Self.machine()
        var last: [String] = []
        for generation in 0...InProcessRedirect.limit {
            last = Self.words(machine.received(.bytes(Self.redirect(to: "/r\(generation)")), generation: generation, now: 1))
            if generation < InProcessRedirect.limit { #expect(last.last == "open /r\(generation) #\(generation + 1)") }
        }
        #expect(last == ["cookies 302", "failed \(URLError.httpTooManyRedirects.rawValue)"])
    }

    @Test("a failure before the start reaches the client once; none after the load ended")
    func failures() {
        var idle = Machine(piecesToClient: false, followsRedirects: true, accepts: { _ in true })
        #expect(Self.words(idle.fail(URLError(.unsupportedURL), abandon: false)) == ["failed \(URLError.unsupportedURL.rawValue)"])
        #expect(idle.fail(URLError(.unsupportedURL)).isEmpty)
        var loading = Self.machine()
        #expect(Self.words(loading.fail(URLError(.cannotConnectToHost), abandon: false)) == ["failed \(URLError.cannotConnectToHost.rawValue)"])
        var timedOut = Self.machine()
        #expect(Self.words(timedOut.fail(URLError(.timedOut))) == ["abandon 10", "failed \(URLError.timedOut.rawValue)"])
    }
}
