import Foundation
import Testing
import TestSupport

/// Tests start programs through TestSupport (its `Tools` runners and `ChildProcess`: posix_spawn),
/// never through Foundation's `Process`. On Linux, swift-corelibs-foundation before PR #5472 (Swift
/// 6.3.x included) lists `/proc/self/fd` in every `Process.run()` and copies each entry's whole
/// 256-byte name, which reads past readdir's buffer when the listing nearly fills it: a test
/// process that holds about 1,350 descriptors or more at that moment can crash with SIGSEGV (it did
/// once in a full `swift test`). README's snippets (Tests/ReadmeSnippets) show what a user writes
/// and keep their `Process`.
@Suite("Foundation's Process", .cpuBound)
struct FoundationProcessTests {
    /// The folder whose files may use `Process`: README's snippets, compiled as written there.
    static let allowedFolder = "ReadmeSnippets/"

    /// The lines (1-based) of `source` whose code (not comments or string literals) names `Process`.
    static func processLines(in source: String) -> [Int] {
        // Bytes rather than Characters (seconds a run in a debug build): a name is a run of letters,
        // digits, underscores and non-ASCII bytes.
        let name = Array("Process".utf8)
        var lines: [Int] = []
        var line = 1
        var word: [UInt8] = []
        var matched = false
        for byte in NeutralLayersTests.code(of: source, keepingStrings: false).utf8 + [10] {
            let inName = byte == 95 || byte >= 128 || (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
            if inName { word.append(byte); continue }
            if word == name { matched = true }
            word.removeAll(keepingCapacity: true)
            if byte == 10 {
                if matched { lines.append(line) }
                matched = false
                line += 1
            }
        }
        return lines
    }

    @Test("no test outside README's snippets starts a program with Foundation's Process")
    func testsSpawnThroughTestSupport() throws {
        let tests = PackageLayoutTests.root.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        var checked = 0
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift"), !relative.hasPrefix(Self.allowedFolder) else { continue }
            checked += 1
            let source = try String(contentsOf: tests.appendingPathComponent(relative), encoding: .utf8)
            for line in Self.processLines(in: source) {
                Issue.record("""
                    Tests/\(relative):\(line): uses Foundation's Process. On Linux with Swift 6.3.x, Process.run() \
                    reads past a buffer listing /proc/self/fd when the test process holds about 1,350 descriptors \
                    (swift-corelibs-foundation PR #5472) and can crash the whole test run; start the program through \
                    TestSupport (its Tools runners or ChildProcess: posix_spawn) instead
                    """)
            }
        }
        #expect(checked > 100, "only \(checked) test files scanned: the search is broken")
    }

    @Test func theScanSeesOnlyCode() {
        let source = #"""
            let a = try Process.run(url, arguments: [])  // 1
            let b = ProcessInfo.processInfo              // not Process
            let c = try ChildProcess(path: "/bin/true")  // not Process
            // Process() in a comment
            /* Process() in a block */ let d = Foundation.Process()  // 5
            let e = "Process() in a string"
            let f = #"\bProcess\b"#
            let g = """
                Process()
                """
            let h: Process? = nil                        // 11
            """#
        #expect(Self.processLines(in: source) == [1, 5, 11])
    }
}
