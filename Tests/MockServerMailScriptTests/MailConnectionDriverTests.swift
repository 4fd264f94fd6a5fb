import Foundation
import MockServerCore
import MockServerEngine
import MockServerMail
import MockServerScript
@testable import MockServerMailScript
import MockServerTLS
import Testing
import TestSupport

/// A dialogue of the test's own: a greeting that names the connection's security, `ECHO text`
/// answered with the text, `TLS` answered `GO` and then TLS, `QUIT` closing; each command recorded.
private struct EchoDialogue: MailDialogue {
    let peer: NetworkAddress?
    var security: MailTransportSecurity

    mutating func start() -> [MailAction] {
        [.send(Array("HELLO \(security.rawValue) \(peer?.host ?? "?")\r\n".utf8))]
    }

    mutating func read(_ input: inout ArraySlice<UInt8>) -> [MailAction] {
        guard let end = input.firstIndex(of: UInt8(ascii: "\n")) else { return [] }
        let line = String(decoding: input[..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        input = input[(end + 1)...]
        let record = MailAction.record(Array(line.utf8))
        switch line {
        case "TLS": return [record, .send(Array("GO\r\n".utf8)), .startTLS]
        case "QUIT": return [record, .send(Array("BYE\r\n".utf8)), .close("QUIT")]
        default: return [record, .send(Array("\(line.dropFirst(5)) (\(security.rawValue))\r\n".utf8))]
        }
    }

    mutating func tlsStarted() {
        security = .startTLS
    }

    var expectsCommand: Bool { true }

    func commandLine(in input: ArraySlice<UInt8>) -> (line: ArraySlice<UInt8>, length: Int)? {
        guard let end = input.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = input[..<end]
        return (line.last == UInt8(ascii: "\r") ? line.dropLast() : line, end + 1 - input.startIndex)
    }
}

@Suite("A mail dialogue on real connections: its actions, STARTTLS and implicit TLS", .offPool)
struct MailConnectionDriverTests {
    private static func server(tls: TLSSettings? = nil, limit: Int = 100) throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.tls = tls
        let serving = MailServingProtocol(name: "ECHO", maximumInput: limit) { EchoDialogue(peer: $0, security: $1) }
        let server = MockServer(responder: PatternResponder([]), configuration: configuration, vocabulary: ScriptVocabulary([]), serving: serving)
        try server.start()
        return server
    }

    private static func caFile(_ tls: TLSSettings) throws -> String {
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(tls.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        return ca
    }

    @Test("plain text: the greeting with the peer, answers in order to pipelined commands, each recorded, QUIT closes")
    func plain() throws {
        let server = try Self.server()
        defer { server.stop() }
        let result = try Tools.pythonSocket(port: server.port, """
            print(line())
            f.write(b"ECHO one\\r\\nECHO two\\r\\nQUIT\\r\\n"); f.flush()
            print(line()); print(line()); print(line())
            print(repr(f.read()))
            """)
        #expect(result.stdout == "HELLO plain 127.0.0.1\none (plain)\ntwo (plain)\nBYE\nb''\n", "\(result)")
        #expect(server.transcript.inputs.map(\.text) == ["ECHO one", "ECHO two", "QUIT"])
    }

    @Test("STARTTLS: commands pipelined after it are discarded, the dialogue is told, answers go on under TLS")
    func startTLS() throws {
        let tls = try TLSSettings.generated(mode: .explicit)
        let server = try Self.server(tls: tls)
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(try Self.caFile(tls))")
            raw = socket.create_connection(("127.0.0.1", \(server.port)), timeout=10)
            f = raw.makefile("rwb")
            print(f.readline().decode().strip())
            f.write(b"TLS\\r\\nECHO smuggled\\r\\n"); f.flush()
            print(f.readline().decode().strip())
            secure = context.wrap_socket(raw, server_hostname="localhost")
            g = secure.makefile("rwb")
            g.write(b"ECHO secret\\r\\n"); g.flush()
            print(g.readline().decode().strip())
            """)
        #expect(result.stdout == "HELLO plain 127.0.0.1\nGO\nsecret (startTLS)\n", "\(result)")
    }

    @Test("implicit TLS: the dialogue starts knowing it")
    func implicitTLS() throws {
        let tls = try TLSSettings.generated()
        let server = try Self.server(tls: tls)
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(try Self.caFile(tls))")
            secure = context.wrap_socket(socket.create_connection(("127.0.0.1", \(server.port)), timeout=10), server_hostname="localhost")
            g = secure.makefile("rwb")
            print(g.readline().decode().strip())
            """)
        #expect(result.stdout == "HELLO implicitTLS 127.0.0.1\n", "\(result)")
    }

    @Test("input the dialogue leaves unconsumed past the limit closes the connection")
    func limit() throws {
        let server = try Self.server(limit: 16)
        defer { server.stop() }
        let result = try Tools.pythonSocket(port: server.port, """
            line()
            f.write(b"ECHO " + b"x" * 64); f.flush()
            print(repr(f.read()))
            """)
        #expect(result.stdout == "b''\n", "\(result)")
    }
}
