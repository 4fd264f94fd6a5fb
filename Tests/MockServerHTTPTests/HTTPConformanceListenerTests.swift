import Foundation
import Testing
import TestSupport

/// The conformance table (``HTTPConformanceCase``) against every HTTP-speaking listener of the
/// `mockserver` command, each in its own process: each row gets its status, a body naming the
/// problem, `Connection: close` and the end of the connection (or, for the rows a strict server
/// accepts, the listener's own answer); the transcript names each refusal; and the process is still
/// serving, and stops cleanly, after all of them. A process that dies fails the table.
@Suite("HTTP/1.1 conformance: every listener", .offPool)
struct HTTPConformanceListenerTests {
    enum Listener: String, CaseIterable, CustomTestStringConvertible {
        case script, endpoints, mockData, webDAV, controlAPI, recorder, webSocketHandshake
        var testDescription: String { rawValue }

        /// Whether every request gets an answer: a script closes a connection whose request no
        /// pattern matches (the bundled ones match CR LF line ends only), without one.
        var answersEverything: Bool { self != .script && self != .webDAV }
    }

    /// The repository's root, for the bundled scripts and the test fixtures.
    static let root = Tools.repositoryRoot

    /// A listener's running processes, the port to send to, and its transcript file (nil for the control API's).
    struct Running {
        var commands: [RunningCommand]
        var port: UInt16
        var transcript: URL?
    }

    static func listeningPort(in line: String) -> UInt16? {
        line.split(separator: " ").first { $0.contains(":") }.flatMap { word in
            word.split(separator: ":").last.flatMap { UInt16($0.filter(\.isNumber)) }
        }
    }

    static func start(_ listener: Listener, in folder: URL) throws -> Running {
        let transcript = folder.appendingPathComponent("transcript.jsonl")
        let responses = root.appendingPathComponent("Responses")
        func run(_ arguments: [String]) throws -> Running {
            let command = try RunningCommand(arguments + ["--transcript", transcript.path])
            let port = try #require(listeningPort(in: command.firstLine), "\(command.firstLine)")
            return Running(commands: [command], port: port, transcript: transcript)
        }
        switch listener {
        case .script:
            return try run([responses.appendingPathComponent("http.json").path])
        case .endpoints:
            return try run([responses.appendingPathComponent("endpoints.json").path])
        case .mockData:
            return try run(["--mock-data", root.appendingPathComponent("Tests/MockServerMockDataTests/VOKMockData").path])
        case .webDAV:
            let files = folder.appendingPathComponent("files")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            return try run([responses.appendingPathComponent("webdav.json").path, "--files", files.path])
        case .controlAPI:
            let command = try RunningCommand(["--admin"])
            let line = command.nextLine()
            let port = try #require(URL(string: String(line.split(separator: " ").last ?? ""))?.port.map(UInt16.init), "\(line)")
            return Running(commands: [command], port: port, transcript: nil)
        case .recorder:
            let upstream = try RunningCommand([responses.appendingPathComponent("http.json").path])
            let upstreamPort = try #require(listeningPort(in: upstream.firstLine), "\(upstream.firstLine)")
            let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstreamPort)",
                                                                "--mock-data", folder.appendingPathComponent("recorded").path,
                                                                "--transcript", transcript.path])
            let port = try #require(listeningPort(in: recorder.firstLine), "\(recorder.firstLine)")
            return Running(commands: [recorder, upstream], port: port, transcript: transcript)
        case .webSocketHandshake:
            let script = folder.appendingPathComponent("websocket.json")
            try Data(#"{"scheme": "websocket", "responses": {"echo": {"pattern": ".*", "commands": ["$0"]}}}"#.utf8).write(to: script)
            return try run([script.path])
        }
    }

    /// Sends a row on a new connection and reads the answer: to the end for a refusal (the
    /// server closes), one whole response otherwise.
    static func exchange(_ row: HTTPConformanceCase, port: UInt16) throws -> String {
        let client = try TestClient(port: port)
        // A server that refused early may stop reading: what is left unsent does not matter.
        try? client.send(row.bytes)
        if case .refused = row.outcome { return String(decoding: try client.readToEnd(), as: UTF8.self) }
        // A script that matches nothing closes the connection without an answer.
        guard let status = try? client.readLine() else { return "" }
        var head = status + "\r\n"
        var length: Int?
        var closes = false
        while true {
            let line = try client.readLine()
            head += line + "\r\n"
            if line.isEmpty { break }
            let lower = line.lowercased()
            if lower.hasPrefix("content-length:") { length = Int(lower.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
            if lower.hasPrefix("connection:") && lower.contains("close") { closes = true }
        }
        let body = if let length { try client.read(count: length) } else if closes { try client.readToEnd() } else { [UInt8]() }
        return head + String(decoding: body, as: UTF8.self)
    }

    @Test("every row, on every listener: nginx's status, the problem named, the connection closed; accepted rows answered; the process serves on and stops cleanly",
          arguments: Listener.allCases)
    func table(_ listener: Listener) throws {
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try Self.start(listener, in: folder)
        var refusals: [String] = []
        // On a listener the preface starts HTTP/2 (`--http2 allow`, the default): HTTP2ServingTests
        // serve it; the codec's table (HTTPConformanceTests) still refuses it.
        for row in HTTPConformanceCase.all where row.name != "the HTTP/2 connection preface" {
            let answer: String
            do {
                answer = try Self.exchange(row, port: running.port)
            } catch {
                Issue.record("\(row.name): \(error)")
                continue
            }
            switch row.outcome {
            case .refused(let status, let problem):
                #expect(answer.hasPrefix("HTTP/1.1 \(status) "), "\(row.name): \(answer.prefix(300))")
                #expect(answer.contains("Connection: close\r\n"), "\(row.name): \(answer.prefix(300))")
                #expect(answer.contains(problem), "\(row.name): \(answer.prefix(300))")
                refusals.append(problem)
            case .accepted:
                #expect(answer.hasPrefix("HTTP/1.") || (answer.isEmpty && !listener.answersEverything), "\(row.name): \(answer.prefix(300))")
                #expect(!answer.contains("malformed request") && !answer.contains("longer than the limit"), "\(row.name): \(answer.prefix(300))")
            }
        }
        // Still serving: a plain request on a new connection gets an answer.
        let after = try Self.exchange(HTTPConformanceCase("after the table", "GET /conformance HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", .accepted),
                                      port: running.port)
        #expect(after.hasPrefix("HTTP/1.1 "), "\(after.prefix(300))")
        for command in running.commands {
            let (status, errors) = command.terminate()
            #expect(status == 0, "\(listener): exit status \(status); \(errors.suffix(2000))")
        }
        // The transcript names each refusal.
        if let transcript = running.transcript {
            let text = try String(contentsOf: transcript, encoding: .utf8)
            for problem in Set(refusals) {
                #expect(text.contains(problem), "\(listener): the transcript does not name \"\(problem)\"")
            }
        }
    }
}
