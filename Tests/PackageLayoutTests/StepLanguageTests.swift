import Foundation
import Testing
import TestSupport

/// One step language (issue 36): a foreign command cannot reach a driver, because the load refuses
/// it and the types do not let it through. So no step type carries a type-erased payload to be
/// downcast when it runs, and no driver or command has a run-time "wrong protocol" branch.
@Suite("One step language", .cpuBound)
struct StepLanguageTests {
    /// Every Swift file under Sources, with its path from the repository's root.
    static func sources() throws -> [(path: String, text: String)] {
        let root = PackageLayoutTests.root
        let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        var files: [(String, String)] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            files.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        #expect(files.count > 100)
        return files
    }

    @Test("no enum case of Sources carries an `any Sendable` payload")
    func noErasedPayload() throws {
        let erased = try NSRegularExpression(pattern: #"^\s*(?:public |package )?case \w+\((?:\w+: )?any Sendable\)"#, options: .anchorsMatchLines)
        for (path, text) in try Self.sources() {
            for match in erased.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                Issue.record("\(path): `\(text[Range(match.range, in: text)!].trimmingCharacters(in: .whitespaces))`: a step's payload is typed by its protocol (ReplyStep<Output>)")
            }
        }
    }

    @Test("no driver or command skips a command of another protocol when it runs")
    func noWrongProtocolBranch() throws {
        // The branches this replaced logged "… (a command of another protocol); skipped" and
        // "… needs a connection of its own (a line script); skipped".
        let branch = try NSRegularExpression(pattern: #"command of another protocol|needs an? [\w ()]*connection[^"]*skipped"#)
        for (path, text) in try Self.sources() {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                if branch.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                    Issue.record("\(path):\(index + 1): a run-time wrong-protocol branch: `\(line.trimmingCharacters(in: .whitespaces))`")
                }
            }
        }
    }

    @Test("one reader: only Core's ReplyInterpreter works out a then of reply steps for a driver")
    func oneConverter() throws {
        // Each driver's converter switched over the steps, `then` included, and HTTP/2 and the
        // in-process path read them again; now every driver runs ReplyInterpreter's actions.
        let allowed: Set<String> = ["Sources/MockServerCore/Loop/ReplyInterpreter.swift", "Sources/MockServerCore/Loop/ReplyStep.swift"]
        for (path, text) in try Self.sources() where !allowed.contains(path) {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("case .then(let ") {
                Issue.record("\(path):\(index + 1): a converter of reply steps beside Core's ReplyPerformer: `\(line.trimmingCharacters(in: .whitespaces))`")
            }
        }
    }
}
