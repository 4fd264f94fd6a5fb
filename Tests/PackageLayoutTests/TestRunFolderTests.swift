import Foundation
import Testing
import TestSupport

/// The tests' temporary folders: a dead test process's folder is removed by the next run, a live
/// one's is not, and nothing else in the temporary directory is touched.
@Suite("Test run folders", .offPool)
struct TestRunFolderTests {
    @Test func onlyDeadProcessesFoldersAreRemoved() throws {
        let base = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        // A process ID that was in use a moment ago and is free now.
        let ended = try ChildProcess("/bin/sh", ["-c", "exit 0"])
        #expect(ended.wait() == 0)
        let own = TestRunFolder.prefix + String(ProcessResources.processID)
        let dead = TestRunFolder.prefix + String(ended.pid)
        let names = [own, dead, TestRunFolder.prefix + "1", TestRunFolder.prefix + "x", "mockserver-tests-other"]
        for name in names {
            try FileManager.default.createDirectory(at: base.appendingPathComponent(name + "/inside"), withIntermediateDirectories: true)
        }
        TestRunFolder.removeLeftovers(in: base)
        let left = try FileManager.default.contentsOfDirectory(atPath: base.path)
        #expect(Set(left) == Set(names).subtracting([dead]))
    }
}
