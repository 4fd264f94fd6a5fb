import Foundation
import Testing
import TestSupport

/// Suites whose tests block a thread (waiting for curl or Python, or reading a socket) must run off
/// Swift's cooperative pool, or two of them at once hold up every `await` of the test process on a
/// two-core machine (README, Testing).
@Suite("Suites that block", .cpuBound)
struct BlockingSuitesTests {
    /// Whether `text` makes a call that blocks the calling thread until an external program or a
    /// socket answers.
    static func blocks(_ text: String) -> Bool {
        text.contains(#/Tools\.(run|curl|python|lftp|wget|ncftp|cadaver|rclone|ab)\b|ftplib\(|TestClient\(|BackgroundRun/#)
    }

    /// The test files, apart from the test support and this file, with their text.
    static func testFiles() throws -> [(path: String, text: String)] {
        let tests = PackageLayoutTests.root.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        var files: [(String, String)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift"), !relative.hasPrefix("TestSupport/"), !relative.hasSuffix("/BlockingSuitesTests.swift") else { continue }
            files.append(("Tests/\(relative)", try String(contentsOf: tests.appendingPathComponent(relative), encoding: .utf8)))
        }
        return files
    }

    @Test("every suite of a file whose tests call curl, Python or a blocking socket carries .offPool")
    func blockingSuitesRunOffPool() throws {
        var checked = 0
        for (path, text) in try Self.testFiles() where text.contains("@Test") && Self.blocks(text) {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            // The attribute, not a comment or a string that names it.
            where line.drop(while: { $0 == " " }).hasPrefix("@Suite") {
                checked += 1
                // The trait must be among the arguments, not inside the suite's name.
                if !line.replacing(#/"(?:[^"\\]|\\.)*"/#, with: "").contains(".offPool") {
                    Issue.record("\(path):\(number + 1): the suite's tests block a thread (it runs curl, Python or a TestClient), but its @Suite lacks the .offPool trait")
                }
            }
        }
        #expect(checked > 40, "only \(checked) suites of blocking tests found: the search is broken")
    }
}
