import Foundation
import Testing
import TestSupport

/// Docs/Admin.md's examples of what each kind of mock answers, read out of the markdown and asked of
/// `mockserver --admin` started as each row's command says: the docs are what the code does.
@Suite("Docs/Admin.md's examples, per kind of mock", .offPool)
struct AdminDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One row of the examples' table: a command, a request (with a JSON body or none) and its answer.
    struct Example: CustomStringConvertible {
        var command: String
        var method: String
        var path: String
        var body: String?
        var status: Int
        var answer: String

        var description: String { "\(command): \(method) \(path)\(body.map { " " + $0 } ?? "") -> \(status) \(answer)" }
    }

    /// The rows of the table under `## What each kind of mock answers`, in order.
    static func examples() throws -> [Example] {
        let text = try String(contentsOf: root.appendingPathComponent("Docs/Admin.md"), encoding: .utf8)
        guard let heading = text.range(of: "\n## What each kind of mock answers\n") else { return [] }
        let section = String(text[heading.upperBound...]).components(separatedBy: "\n## ")[0]
        var examples: [Example] = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `mockserver ") {
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            guard cells.count == 3 else { continue }
            let request = codeSpans(cells[1])
            let answer = codeSpans(cells[2])
            let target = request.first?.split(separator: " ", maxSplits: 1).map(String.init) ?? []
            guard let command = codeSpans(cells[0]).first, target.count == 2, let json = answer.first,
                  let status = Int(cells[2].prefix { $0.isNumber }) else { continue }
            examples.append(Example(command: command, method: target[0], path: target[1], body: request.dropFirst().first, status: status, answer: json))
        }
        return examples
    }

    /// The texts between backticks in a table cell.
    static func codeSpans(_ cell: String) -> [String] {
        cell.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    /// A JSON text as a value that compares equal whatever its spacing and key order.
    static func value(_ json: String) -> NSObject? {
        try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]) as? NSObject
    }

    @Test("every kind (a script, an endpoints file, a mock-data folder) is shown, and each example's answer is the one mockserver gives",
          .enabled(if: Tools.hasCurl))
    func examplesAnswerAsDocumented() throws {
        let examples = try Self.examples()
        let commands = examples.reduce(into: [String]()) { if !$0.contains($1.command) { $0.append($1.command) } }
        #expect(commands.count >= 3 && commands.contains { $0.contains("--mock-data") } && commands.contains { $0.contains("endpoints.json") },
                "Docs/Admin.md shows too few kinds: \(commands)")
        // mockserver runs in a folder where `Responses` is the package's and any other path (a user's
        // mock-data folder) is made, empty: the rows' relative paths, and the errors naming them, as written.
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("Responses"), withDestinationURL: Self.root.appendingPathComponent("Responses"))
        for command in commands {
            let arguments = command.split(separator: " ").dropFirst().map(String.init)
            for path in arguments where !path.hasPrefix("-") && !FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
            }
            let running = try RunningCommand(arguments, directory: folder)
            defer { _ = running.terminate() }
            let admin = try #require(running.nextLine().split(separator: " ").last.map(String.init), "\(command): \(running.firstLine)")
            // `mockserver listening on 127.0.0.1:PORT`: a row's PORT is that one.
            let port = try #require(running.firstLine.split(separator: " ").dropFirst(3).first?.split(separator: ":").last.map(String.init))
            for example in examples where example.command == command {
                var curl = ["-s", "-w", "\n%{http_code}", "-X", example.method, admin + example.path.dropFirst()]
                if let body = example.body { curl += ["-H", "Content-Type: application/json", "--data-binary", body] }
                let output = try Tools.curl(curl).stdout
                let status = Int(output.split(separator: "\n").last ?? "")
                let answer = String(output[..<(output.lastIndex(of: "\n") ?? output.endIndex)])
                #expect(status == example.status, "\(example): the status is \(status.map(String.init) ?? "none")")
                #expect(Self.value(answer) != nil && Self.value(answer) == Self.value(example.answer.replacingOccurrences(of: "PORT", with: port)), "\(example): the answer is \(answer)")
            }
        }
    }
}
