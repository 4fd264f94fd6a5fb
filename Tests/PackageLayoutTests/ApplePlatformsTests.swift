import Foundation
import Testing
import TestSupport

/// iOS, tvOS and visionOS are declared (issue 39), so every library target must build for them: no
/// API that they lack (spawning processes, home directories, a library loaded from a system path)
/// outside a branch that only Linux or macOS takes. Nothing compiles the package for iOS here; this
/// scan and the iOS pass of `Scripts/darwin-typecheck.sh` are what hold it.
@Suite("Apple platforms", .offPool)
struct ApplePlatformsTests {
    /// Calls and names that iOS, tvOS and visionOS do not have, with what each stands for.
    static let forbidden: [(pattern: String, name: String)] = [
        (#"\bProcess\b"#, "Process"),
        (#"\b(v?fork|posix_spawnp?|system|popen|execv[pe]?|execl[pe]?)\s*\("#, "a process spawn"),
        (#"\b(homeDirectory\w*|NSHomeDirectory|getpwuid|getpwnam)\b"#, "a home directory"),
        (#""/[^"]*\.(dylib|so)(\.[0-9]+)*""#, "a library at a system path"),
    ]

    /// The patterns of ``forbidden``, compiled once: `String.range(of:options: .regularExpression)`
    /// compiles its pattern at each call, which made this scan 16 s of a serial suite run.
    static let compiled: [(expression: NSRegularExpression, name: String)] = forbidden.map {
        // The patterns are literals above: one that does not compile is this file's bug.
        (try! NSRegularExpression(pattern: $0.pattern), $0.name)
    }

    /// Branch conditions that iOS, tvOS and visionOS never take.
    static let guards: Set<String> = ["os(Linux)", "os(macOS)", "os(macOS) || os(Linux)", "os(Linux) || os(macOS)", "canImport(Glibc)", "!canImport(Darwin)"]

    /// One forbidden name outside a guard.
    struct Hit: CustomStringConvertible, Equatable {
        let path: String
        let line: Int
        let name: String
        var description: String { "\(path):\(line): \(name), which iOS lacks, outside `#if os(macOS) || os(Linux)`" }
    }

    /// The forbidden names in `source` (comments left out) that no enclosing branch guards.
    static func hits(in source: String, path: String) -> [Hit] {
        // Each open `#if`: the conditions of its branches so far, and the current branch's.
        var stack: [(earlier: [String], current: String)] = []
        var hits: [Hit] = []
        for (index, line) in NeutralLayersTests.code(of: source).components(separatedBy: "\n").enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#if ") {
                stack.append(([], String(text.dropFirst(4)).trimmingCharacters(in: .whitespaces)))
            } else if text.hasPrefix("#elseif "), let top = stack.popLast() {
                stack.append((top.earlier + [top.current], String(text.dropFirst(8)).trimmingCharacters(in: .whitespaces)))
            } else if text == "#else", let top = stack.popLast() {
                let all = top.earlier + [top.current]
                stack.append((all, all.count == 1 ? "!" + all[0] : "#else"))
            } else if text == "#endif" {
                _ = stack.popLast()
            } else if !stack.contains(where: { guards.contains($0.current) }) {
                let range = NSRange(line.startIndex..., in: line)
                for (expression, name) in compiled where expression.firstMatch(in: line, range: range) != nil {
                    hits.append(Hit(path: path, line: index + 1, name: name))
                }
            }
        }
        return hits
    }

    /// The Swift files of every library target (the executables are not built for Apple's devices).
    static func librarySources() throws -> [String] {
        let root = PackageLayoutTests.root.path
        let folders = try FileManager.default.contentsOfDirectory(atPath: root + "/Sources")
            .filter { !["mockserver", "mockserver-bench", "CMockServerLinux"].contains($0) }
            .map { "Sources/" + $0 } + ["Responses"]
        return folders.flatMap { folder in
            (FileManager.default.enumerator(atPath: root + "/" + folder)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".swift") }.map { folder + "/" + $0 }
        }.sorted()
    }

    @Test func noLibraryTargetUsesWhatIOSLacks() throws {
        let files = try Self.librarySources()
        #expect(files.count > 100)
        var hits: [Hit] = []
        for file in files {
            hits += Self.hits(in: try String(contentsOfFile: PackageLayoutTests.root.path + "/" + file, encoding: .utf8), path: file)
        }
        #expect(hits.isEmpty, "\(hits.map(\.description).joined(separator: "\n"))")
    }

    @Test func theScanSeesThroughBranches() {
        let source = """
            let a = Process()               // 1: unguarded
            #if os(Linux)
            let b = Process()
            #else
            let c = "/usr/lib/libssl.so.3"  // 5: the branch iOS takes
            #endif
            #if canImport(Glibc)
            let d = fork()
            #elseif canImport(Darwin)
            let e = NSHomeDirectory()       // 10: Darwin includes iOS
            #endif
            #if !canImport(Darwin)
            let f = posix_spawn(nil)
            #endif
            #if os(macOS) || os(Linux)
            let g = FileManager.default.homeDirectoryForCurrentUser
            #endif
            let h = ProcessInfo.processInfo // not Process
            // Process() in a comment
            """
        #expect(Self.hits(in: source, path: "x").map(\.line) == [1, 5, 10])
    }

    /// `Scripts/darwin-typecheck.sh --ios-api` on `files`: its status and output.
    static func scanIOSAPI(_ files: [String]) throws -> (status: Int32, output: String) {
        let result = try Tools.run(PackageLayoutTests.root.path + "/Scripts/darwin-typecheck.sh", ["--ios-api"] + files, directory: PackageLayoutTests.root)
        return (result.status, result.stdout + result.stderr)
    }

    @Test("no public declaration or conformance of a library target sits under a platform condition (darwin-typecheck.sh --ios-api), so the iOS face of the API is the Linux one the README's first hour is type-checked against")
    func publicAPIIsTheSameOnIOS() throws {
        let scan = try Self.scanIOSAPI(try Self.librarySources())
        #expect(scan.status == 0, "\(scan.output)")
        #expect(scan.output.contains("no public declaration or conformance under a platform condition"), "\(scan.output)")
    }

    @Test("darwin-typecheck.sh --ios-api refuses a public declaration or a conformance under #if os(Linux) or canImport(Glibc), and a file importing Glibc that the libc check does not take")
    func publicAPIUnderAPlatformConditionIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ios-api-\(UUID().uuidString).swift")
        try """
            #if canImport(Glibc)
            import Glibc
            #endif
            public enum Greeting {
                #if os(Linux)
                /// Linux only.
                public static let text = "hi"
                #else
                static let other = 1
                #endif
                @inlinable public static func unconditional() {}
            }
            #if canImport(Glibc)
            extension Greeting {
                @discardableResult nonisolated public static func more() -> Int { 1 }
                package static func notPublic() {}
            }
            extension Greeting: Equatable {}
            #endif

            """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let scan = try Self.scanIOSAPI([file.path])
        #expect(scan.status == 1)
        let refusals = scan.output.components(separatedBy: "\n").filter { $0.contains("a public declaration under a platform condition") }
        #expect(refusals.count == 2, "\(scan.output)")
        #expect(refusals.contains { $0.contains(file.path + ":7:") } && refusals.contains { $0.contains(file.path + ":15:") }, "\(scan.output)")
        #expect(scan.output.contains(file.path + ":18: a conformance under a platform condition"), "\(scan.output)")
        #expect(scan.output.contains(file.path + ": imports Glibc but is not among the files the libc check takes"), "\(scan.output)")
    }

    @Test func packageDeclaresApplePlatforms() throws {
        let manifest = try String(contentsOfFile: PackageLayoutTests.root.path + "/Package.swift", encoding: .utf8)
        for platform in [".macOS(.v13)", ".iOS(.v16)", ".tvOS(.v16)", ".visionOS(.v1)"] {
            #expect(manifest.contains(platform), "Package.swift does not declare \(platform)")
        }
    }

    /// An API newer than the minimums is asked for on every Apple platform: `*` alone would let iOS
    /// call it at iOS 16.
    @Test func availabilityNamesEveryApplePlatform() throws {
        for file in try Self.librarySources() {
            let source = try String(contentsOfFile: PackageLayoutTests.root.path + "/" + file, encoding: .utf8)
            for line in source.components(separatedBy: "\n") where line.contains("available(macOS") {
                for platform in ["iOS", "tvOS", "visionOS"] {
                    #expect(line.contains(platform + " "), "\(file): `\(line.trimmingCharacters(in: .whitespaces))` does not name \(platform)")
                }
            }
        }
    }
}
