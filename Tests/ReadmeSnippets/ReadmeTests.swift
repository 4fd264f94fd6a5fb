import Foundation
import Testing
import TestSupport

/// Every Swift snippet in the README is a file of this folder, verbatim (imports included), so
/// `swift test` compiles and runs it; the manifest snippet is checked by SwiftPM itself.
@Suite("README snippets", .offPool)
struct ReadmeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The fenced blocks of `language` in `file` (the README's by default), in order.
    static func blocks(_ language: String, in file: URL = readme) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
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

    @Test("a snippet's test that may be skipped says why: a newcomer sees the reason, not a bare «skipped»")
    func skipsGiveAReason() throws {
        for block in try Self.blocks("swift") {
            var rest = Substring(block)
            while let start = rest.range(of: ".enabled(if: ") {
                // The trait's arguments up to its closing parenthesis; a reason is a second, top-level argument.
                var depth = 1, topLevelComma = false, end = start.upperBound
                while end < rest.endIndex, depth > 0 {
                    switch rest[end] {
                    case "(": depth += 1
                    case ")": depth -= 1
                    case "," where depth == 1: topLevelComma = true
                    default: break
                    }
                    end = rest.index(after: end)
                }
                #expect(topLevelComma, "a README test is skipped without a reason: \(rest[start.lowerBound..<end])")
                rest = rest[end...]
            }
        }
    }

    @Test("the README's first guillemet says how to type one and its JSON escape, and that <<…>> is text")
    func firstGuillemetExplained() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let first = try #require(text.firstIndex(of: "«"))
        let near = text[first...].prefix(400)
        for hint in ["Option-\\", "\\u00ab", "<<"] {
            #expect(near.contains(hint), "the README's first « is not followed closely by \(hint): \(near)")
        }
    }

    @Test("the shown hello-http.json is the one the example loads")
    func shownResponseFile() throws {
        let file = try String(contentsOf: Self.folder.appendingPathComponent("Responses/hello-http.json"), encoding: .utf8)
        #expect(try Self.blocks("json").contains(file))
    }

    static let python = folder.deletingLastPathComponent().appendingPathComponent("Python")

    @Test("each Python block is a file of Tests/Python, run by a test (test_admin.py, in Docs/Admin.md, by AdminTests)")
    func pythonExamples() throws {
        let badLogin = try String(contentsOf: Self.python.appendingPathComponent("bad_login.py"), encoding: .utf8)
        #expect(try Self.blocks("python") == [badLogin])
        let testAdmin = try String(contentsOf: Self.python.appendingPathComponent("test_admin.py"), encoding: .utf8)
        #expect(try Self.blocks("python", in: Self.readme.deletingLastPathComponent().appendingPathComponent("Docs/Admin.md")) == [testAdmin])
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
        // TMPDIR: SwiftPM leaves its lock files and the Swift driver's TemporaryDirectory.* folder there.
        let result = try Tools.run("swift", ["package", "dump-package"], timeout: 120, environment: ["TMPDIR": package.path], directory: package)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"MockServerTesting\""))
        // Apple platforms at least MockServer's minimums: SwiftPM refuses a target below its dependency's.
        let ours = try String(contentsOf: Self.readme.deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        for platform in [".macOS(", ".iOS("] {
            let spelling = try #require(ours.range(of: platform).map { ours[$0.lowerBound...].prefix { $0 != ")" } + ")" })
            #expect(manifest.contains(spelling), "the Package.swift snippet does not declare \(spelling), MockServer's minimum")
        }
    }

    /// Set (to anything) to run ``manifestBuilds()``: it builds all of MockServer again in a fresh
    /// package, minutes on two cores, so `.ci/run` runs it as a step of its own, not in every `swift test`.
    static let buildsManifest = ProcessInfo.processInfo.environment["MOCKSERVER_BUILD_MANIFEST_SNIPPET"] != nil

    @Test("the Package.swift snippet builds as written: a fresh package with the folders its first line makes, depending on this checkout",
          .enabled(if: buildsManifest && Tools.path(of: "swift") != nil))
    func manifestBuilds() throws {
        let manifest = try #require(try Self.blocks("swift").first { $0.hasPrefix("// Package.swift") })
        let root = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // This checkout under the name the snippet's path dependency gives it: the identity is the folder's name.
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("MockServer"), withDestinationURL: Self.readme.deletingLastPathComponent())
        let package = root.appendingPathComponent("MyPackage")
        // The folders the snippet's first line asks for (`mkdir -p A B`), and a test that imports the product.
        let firstLine = try #require(manifest.split(separator: "\n").first)
        let mkdir = try #require(firstLine.range(of: "mkdir -p "), "the snippet's first line makes no folders: \(firstLine)")
        for folder in firstLine[mkdir.upperBound...].split(separator: " ") {
            try FileManager.default.createDirectory(at: package.appendingPathComponent(String(folder)), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Tests/MyTests"), withIntermediateDirectories: true)
        try Data("import MockServerTesting\nimport Testing\n\n@Test func builds() {}\n".utf8)
            .write(to: package.appendingPathComponent("Tests/MyTests/MyTests.swift"))
        // The snippet with its path alternative in place of the URL line, which names no real repository.
        var lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let url = try #require(lines.firstIndex { $0.contains(".package(url:") })
        let path = try #require(lines.first { $0.contains("// or, from a folder on disk: ") })
        lines[url] = "    " + path.components(separatedBy: "// or, from a folder on disk: ")[1]
        let text = "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n    name: \"MyPackage\",\n"
            + lines.joined(separator: "\n") + ")\n"
        try Data(text.utf8).write(to: package.appendingPathComponent("Package.swift"))
        let started = Date()
        let result = try Tools.run("swift", ["build", "--build-tests"], timeout: 1800, directory: package)
        #expect(result.status == 0, "\(text)\n\(result.stdout.suffix(3000))\(result.stderr.suffix(3000))")
        print("the Package.swift snippet built in \(Int(Date().timeIntervalSince(started))) s")
    }
}
