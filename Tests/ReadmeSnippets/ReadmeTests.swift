import Foundation
import Testing
import TestSupport

/// Every Swift snippet of the README and of the Docs pages is a file of this folder, verbatim
/// (imports included), so `swift test` compiles and runs it; the manifest snippets are checked by
/// SwiftPM itself.
@Suite("README snippets", .offPool)
struct ReadmeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = folder.deletingLastPathComponent().deletingLastPathComponent()
    static let readme = root.appendingPathComponent("README.md")
    static let docs = root.appendingPathComponent("Docs")

    /// The README's first-hour tests: its first Swift block, on its first screen.
    static let firstHour = "FirstHour.swift"

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

    /// The Docs pages (Docs/*.md), by name.
    static func docPages() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
    }

    /// The Swift blocks that must be snippet files: every one of the README's but the manifests, and
    /// every one of a Docs page that starts with an import (a page may show a fragment in passing).
    static func snippetBlocks() throws -> [(page: String, block: String)] {
        var blocks = try Self.blocks("swift").filter { !$0.hasPrefix("// Package.swift") }.map { (page: "README.md", block: $0) }
        for page in try docPages() {
            blocks += try Self.blocks("swift", in: page).filter { $0.hasPrefix("import ") }
                .map { (page: "Docs/" + page.lastPathComponent, block: $0) }
        }
        return blocks
    }

    /// The README's manifest snippets: from a URL, and from a folder on disk.
    static func manifests() throws -> [String] {
        try Self.blocks("swift").filter { $0.hasPrefix("// Package.swift") }
    }

    /// The snippet files: every Swift file here but this one.
    static func snippetFiles() throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") && name != "ReadmeTests.swift" {
            files[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    @Test("each Swift block of the README and Docs/ is a snippet file, character for character, and each file is in one of them")
    func snippetsAreTheFiles() throws {
        let files = try Self.snippetFiles()
        let blocks = try Self.snippetBlocks()
        for (page, block) in blocks {
            #expect(files.values.contains(block), "a block of \(page) is not a file of Tests/ReadmeSnippets:\n\(block)")
        }
        for (name, text) in files {
            #expect(blocks.contains { $0.block == text }, "Tests/ReadmeSnippets/\(name) is in neither the README nor a Docs page verbatim")
        }
        #expect(files.count >= 7)
    }

    @Test("the README's first Swift block is the first-hour file, and an iOS test target can run it: no Process, no /usr/bin, no absolute path")
    func firstHourRunsOnIOS() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(Self.firstHour), encoding: .utf8)
        #expect(try Self.blocks("swift").first == text, "the README's first Swift block is not \(Self.firstHour)")
        #expect(Self.iOSProblems(in: text) == [])
        // The six tasks: in-process, over a socket, HTTPS, a WebSocket, failures, a recording from the bundle.
        #expect(text.components(separatedBy: "@Test").count - 1 == 6)
        for needed in ["makeInProcessSession", "https://", "webSocketTask", ".withFault(.reset)", "withDelay", "in: .module"] {
            #expect(text.contains(needed), "\(Self.firstHour) no longer shows \(needed)")
        }
    }

    /// What an iOS test target cannot run, each with its line: a program and a program's path, a path
    /// outside the test bundle and the temporary directory, a home directory.
    static func iOSProblems(in source: String) -> [String] {
        let forbidden: [(pattern: String, name: String)] = [
            (#"\bProcess\b"#, "Process"),
            (#"\b(v?fork|posix_spawnp?|system|popen|execv[pe]?)\s*\("#, "a process spawn"),
            (#"/usr/bin|"/bin/"#, "a program's path"),
            (#""(~/|/(Users|home|tmp|var|etc|opt|private|usr|bin|Library|System|Applications|Volumes|dev|proc|root)(/|"))"#, "an absolute path"),
            (#"fileURLWithPath|#filePath|#file\b|currentDirectoryPath|homeDirectory|NSHomeDirectory"#, "a path not from the bundle or the temporary directory"),
        ]
        var problems: [String] = []
        for (number, line) in source.components(separatedBy: "\n").enumerated() {
            for (pattern, name) in forbidden where line.range(of: pattern, options: .regularExpression) != nil {
                problems.append("line \(number + 1), \(name): \(line)")
            }
        }
        return problems
    }

    @Test("the iOS check finds what an iOS test target cannot run, and lets a URL's path, the bundle and the temporary directory be")
    func iOSProblemsAreFound() {
        let bad = #"""
            _ = try Process.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments: [])
            let ca = URL(fileURLWithPath: "ca.pem")
            let log = "/tmp/log.txt"
            let here = #filePath
            let home = "~/Downloads"
            """#
        // Line 1: Process, a program's path, an absolute path, fileURLWithPath; then one each.
        #expect(Self.iOSProblems(in: bad).map { $0.prefix(7) } == ["line 1,", "line 1,", "line 1,", "line 1,", "line 2,", "line 3,", "line 4,", "line 5,"])
        let good = #"""
            let (data, _) = try await session.data(from: server.url(for: "/v1/me"))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("up.txt")
            try server.addMockData(named: "VOKMockData", in: .module)
            let info = ProcessInfo.processInfo
            server.stubRequest("GET", "/").andReturn(204)
            """#
        #expect(Self.iOSProblems(in: good) == [])
    }

    /// The package's modules as this test run built them, for `Scripts/darwin-typecheck.sh --ios-snippet`
    /// (`nil` where the build folder holds none, as when the suite runs from an installed bundle).
    static let builtModules: String? = {
        let folder = Tools.mockserver.deletingLastPathComponent().appendingPathComponent("Modules").path
        return FileManager.default.fileExists(atPath: folder + "/MockServerTesting.swiftmodule") ? folder : nil
    }()

    @Test("Scripts/darwin-typecheck.sh type-checks the first hour for iOS, and refuses a copy that uses what iOS lacks, each at its line",
          .enabled(if: ReadmeTests.builtModules != nil && Tools.path(of: "swiftc") != nil, "no built modules or no swiftc here"))
    func firstHourTypeChecksForIOS() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(Self.firstHour), encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ios-snippet-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first hour with a function that uses what an iOS test target lacks, after its last line.
        let last = text.components(separatedBy: "\n").count - 1
        let misuse = folder.appendingPathComponent("FirstHour.swift")
        try (text + """

            func whatIOSLacks() throws {
                let child = Process()
                _ = ProcessInfo.processInfo.userName
                _ = FileManager.default.homeDirectoryForCurrentUser
                _ = getpid()
                _ = Foundation.Process()
                #if os(Linux)
                let onlyOnLinux = 1
                #endif
                _ = onlyOnLinux
                _ = child
            }

            """).write(to: misuse, atomically: true, encoding: .utf8)
        let undecidable = folder.appendingPathComponent("UIKitOnly.swift")
        try "import Foundation\n#if canImport(UIKit)\nimport UIKit\n#endif\n".write(to: undecidable, atomically: true, encoding: .utf8)

        let checked = try Tools.run(Self.root.path + "/Scripts/darwin-typecheck.sh",
                                    ["--ios-snippet", "Tests/ReadmeSnippets/" + Self.firstHour, misuse.path, undecidable.path],
                                    timeout: 600, environment: ["MOCKSERVER_MODULES": try #require(Self.builtModules)], directory: Self.root)
        let output = checked.stdout + checked.stderr
        #expect(checked.status != 0)
        #expect(checked.stdout.contains("iOS snippet, Tests/ReadmeSnippets/\(Self.firstHour) clean"), "\(output)")
        let refusals = [
            "\(last + 3):17: error: 'Process' is unavailable: not on iOS",          // hidden by Scripts/ios-snippet/iOSFoundation.swift
            "\(last + 4): not on iOS: ProcessInfo.userName",                        // members: found in the type-checked tree
            "\(last + 5): not on iOS: FileManager.homeDirectoryForCurrentUser",
            "\(last + 6): getpid(): a libc name from Glibc",                        // libc through Linux Foundation's Glibc
            "\(last + 7): not on iOS: Process.init()",                              // a type named with its module
            "\(last + 11):9: error: cannot find 'onlyOnLinux' in scope",            // an iOS build skips `#if os(Linux)`
        ]
        for refusal in refusals {
            #expect(checked.stderr.contains(misuse.path + ":" + refusal), "\(refusal) is not in:\n\(output)")
        }
        #expect(checked.stderr.contains(undecidable.path + ":2:#if canImport(UIKit): a platform condition this check cannot decide for iOS"), "\(output)")
    }

    @Test("a snippet's test that may be skipped says why: a newcomer sees the reason, not a bare «skipped»")
    func skipsGiveAReason() throws {
        for (page, block) in try Self.snippetBlocks() {
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
                #expect(topLevelComma, "a test of \(page) is skipped without a reason: \(rest[start.lowerBound..<end])")
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

    @Test("the hello-http.json Docs/Testing.md shows is the one its example loads")
    func shownResponseFile() throws {
        let file = try String(contentsOf: Self.folder.appendingPathComponent("Responses/hello-http.json"), encoding: .utf8)
        #expect(try Self.blocks("json", in: Self.docs.appendingPathComponent("Testing.md")).contains(file))
    }

    static let python = folder.deletingLastPathComponent().appendingPathComponent("Python")

    @Test("each Python block is a file of Tests/Python, run by a test (test_admin.py, in Docs/Admin.md, by AdminTests)")
    func pythonExamples() throws {
        let badLogin = try String(contentsOf: Self.python.appendingPathComponent("bad_login.py"), encoding: .utf8)
        #expect(try Self.blocks("python") == [badLogin])
        let testAdmin = try String(contentsOf: Self.python.appendingPathComponent("test_admin.py"), encoding: .utf8)
        #expect(try Self.blocks("python", in: Self.docs.appendingPathComponent("Admin.md")) == [testAdmin])
    }

    @Test("the Python example of starting mockserver meets the bad-login set's refusal", .enabled(if: Tools.hasPython))
    func pythonBadLogin() throws {
        let result = try Tools.run("python3", [Self.python.appendingPathComponent("bad_login.py").path], timeout: 60,
                                   environment: ["MOCKSERVER": Tools.mockserver.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// The manifest `snippet` in a package of its own: the lines SwiftPM needs around it.
    static func manifest(around snippet: String) -> String {
        "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n    name: \"MyPackage\",\n" + snippet + ")\n"
    }

    @Test("the Package.swift snippets, from a URL and from a folder, are valid manifests", .enabled(if: Tools.path(of: "swift") != nil))
    func manifestSnippet() throws {
        let manifests = try Self.manifests()
        #expect(manifests.count == 2)
        #expect(manifests.contains { $0.contains(".package(url: ") } && manifests.contains { $0.contains(".package(path: ") })
        let ours = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for manifest in manifests {
            let package = try Tools.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: package) }
            try FileManager.default.createDirectory(at: package.appendingPathComponent("Tests/MyTests"), withIntermediateDirectories: true)
            try Data(Self.manifest(around: manifest).utf8).write(to: package.appendingPathComponent("Package.swift"))
            // TMPDIR: SwiftPM leaves its lock files and the Swift driver's TemporaryDirectory.* folder there.
            let result = try Tools.run("swift", ["package", "dump-package"], timeout: 120, environment: ["TMPDIR": package.path], directory: package)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"MockServerTesting\""))
            // The product's package: the URL's last part without .git, or the path's folder name.
            let identity = try #require(try Self.dependencyIdentity(in: manifest))
            #expect(manifest.contains(#"package: "\#(identity)")"#), "the snippet's product names another package than \(identity): \(manifest)")
            // Apple platforms at least MockServer's minimums: SwiftPM refuses a target below its dependency's.
            for platform in [".macOS(", ".iOS("] {
                let spelling = try #require(ours.range(of: platform).map { ours[$0.lowerBound...].prefix { $0 != ")" } + ")" })
                #expect(manifest.contains(spelling), "the Package.swift snippet does not declare \(spelling), MockServer's minimum")
            }
        }
    }

    /// The identity SwiftPM gives the snippet's dependency: the URL's last part without `.git`, or
    /// the name of the path's folder.
    static func dependencyIdentity(in manifest: String) throws -> String? {
        let regex = try NSRegularExpression(pattern: #"\.package\((url|path): "([^"]+)""#)
        let range = NSRange(manifest.startIndex..., in: manifest)
        guard let match = regex.firstMatch(in: manifest, range: range), let location = Range(match.range(at: 2), in: manifest) else { return nil }
        let last = manifest[location].split(separator: "/").last.map(String.init) ?? ""
        return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
    }

    /// The README's folder manifest in a fresh package `MyPackage`, with the folders its first line
    /// makes and a test that imports the product, beside this checkout under the folder name the
    /// snippet's path gives it (a path dependency's identity is the folder's name). Returns the
    /// package and the manifest's text; the caller removes `root`.
    static func packageBesideCheckout(in root: URL) throws -> (package: URL, text: String) {
        let manifest = try #require(try Self.manifests().first { $0.contains(".package(path: ") })
        let folder = try #require(try Self.dependencyIdentity(in: manifest))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(folder), withDestinationURL: Self.root)
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
        let text = Self.manifest(around: manifest)
        try Data(text.utf8).write(to: package.appendingPathComponent("Package.swift"))
        return (package, text)
    }

    @Test("the folder Package.swift snippet's package graph loads beside this checkout: the product found in the package it names, every resource folder there, no warning",
          .enabled(if: Tools.path(of: "swift") != nil))
    func manifestResolves() throws {
        let root = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (package, text) = try Self.packageBesideCheckout(in: root)
        // Loading the graph is where SwiftPM refuses a product or package name that is not there,
        // and warns of a resource folder that is missing (the build then fails on it): seconds,
        // where building the fresh package (manifestBuilds) takes minutes.
        let result = try Tools.run("swift", ["package", "show-dependencies"], timeout: 300, environment: ["TMPDIR": package.path], directory: package)
        #expect(result.status == 0, "\(text)\n\(result.stderr)")
        #expect(!result.stderr.contains("warning:") && !result.stderr.contains("error:"), "\(text)\n\(result.stderr)")
        #expect(result.stdout.contains("mockserver<"), "\(result.stdout)")
    }

    /// Set (to anything) to run ``manifestBuilds()``: it builds all of MockServer again in a fresh
    /// package, minutes on two cores (460 s on a loaded machine in session 25), so no `swift test`
    /// runs it unasked; ``manifestResolves()`` checks what a user's paste gets wrong in seconds.
    static let buildsManifest = ProcessInfo.processInfo.environment["MOCKSERVER_BUILD_MANIFEST_SNIPPET"] != nil

    @Test("the folder Package.swift snippet builds as written: a fresh package with the folders its first line makes, beside this checkout under the folder name it gives",
          .enabled(if: buildsManifest && Tools.path(of: "swift") != nil))
    func manifestBuilds() throws {
        let root = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (package, text) = try Self.packageBesideCheckout(in: root)
        let started = Date()
        let result = try Tools.run("swift", ["build", "--build-tests"], timeout: 1800, directory: package)
        #expect(result.status == 0, "\(text)\n\(result.stdout.suffix(3000))\(result.stderr.suffix(3000))")
        print("the Package.swift snippet built in \(Int(Date().timeIntervalSince(started))) s")
    }
}
