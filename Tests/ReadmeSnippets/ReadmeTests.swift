import Foundation
import Testing
import TestSupport

/// Every Swift snippet in the README is a file of this folder, verbatim (imports included), so
/// `swift test` compiles and runs it; the manifest snippet is checked by SwiftPM itself.
@Suite("README snippets", .offPool)
struct ReadmeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The README's fenced blocks of `language`, in order.
    static func blocks(_ language: String) throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The snippet files: every Swift file here but this one.
    static func snippetFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") && name != "ReadmeTests.swift" {
            files[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    @Test("each Swift block is a snippet file, character for character, and each file is in the README")
    func snippetsAreTheFiles() throws {
        let files = try Self.snippetFiles()
        let code = try Self.blocks("swift").filter { !$0.hasPrefix("// Package.swift") }
        for block in code {
            #expect(files.values.contains(block), "a README block is not a file of Tests/ReadmeSnippets:\n\(block)")
        }
        for (name, text) in files {
            #expect(code.contains(text), "Tests/ReadmeSnippets/\(name) is not in the README verbatim")
        }
        #expect(files.count >= 7)
    }

    @Test("the shown hello-http.json is the one the example loads")
    func shownResponseFile() throws {
        let file = try String(contentsOf: Self.folder.appendingPathComponent("Responses/hello-http.json"), encoding: .utf8)
        #expect(try Self.blocks("json").contains(file))
    }

    static let python = folder.deletingLastPathComponent().appendingPathComponent("Python")

    @Test("each Python block is a file of Tests/Python, run by a test (test_admin.py by AdminTests)")
    func pythonExamples() throws {
        let blocks = try Self.blocks("python")
        for name in ["bad_login.py", "test_admin.py"] {
            #expect(try blocks.contains(String(contentsOf: Self.python.appendingPathComponent(name), encoding: .utf8)), "\(name)")
        }
        #expect(blocks.count == 2)
    }

    @Test("the Python example of starting mockserver meets the bad-login set's refusal", .enabled(if: Tools.hasPython))
    func pythonBadLogin() throws {
        let result = try Tools.run("python3", [Self.python.appendingPathComponent("bad_login.py").path], timeout: 60,
                                   environment: ["MOCKSERVER": Tools.mockserver.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("the Package.swift snippet is a valid manifest", .enabled(if: Tools.path(of: "swift") != nil))
    func manifestSnippet() throws {
        let manifest = try #require(try Self.blocks("swift").first { $0.hasPrefix("// Package.swift") })
        let package = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: package) }
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Tests/MyTests"), withIntermediateDirectories: true)
        let text = "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n    name: \"MyPackage\",\n" + manifest + ")\n"
        try Data(text.utf8).write(to: package.appendingPathComponent("Package.swift"))
        let result = try Tools.run("swift", ["package", "dump-package"], timeout: 120, directory: package)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"MockServerTesting\""))
    }
}
