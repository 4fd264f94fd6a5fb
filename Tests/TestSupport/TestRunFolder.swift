import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder that holds this test process's temporary directories (``Tools/temporaryDirectory()``):
/// one per process in the system's temporary directory, removed when the process exits, so that a
/// test that forgets its `defer` leaves nothing behind (a full `swift test` left about 150 folders
/// in /tmp). A folder whose process ended without exiting (a crash, a kill) is removed by the next
/// test process that starts.
enum TestRunFolder {
    /// The start of every such folder's name; the process ID follows.
    static let prefix = "mockserver-tests-run-"

    /// This process's folder, made on first use (older runs' leftovers removed first).
    static let url: URL = {
        let base = FileManager.default.temporaryDirectory
        removeLeftovers(in: base)
        let url = base.appendingPathComponent(prefix + String(getpid()))
        // A folder under this process ID is a dead process's whose ID was reused.
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestRunFolder.url) }
        return url
    }()

    /// Removes the folders in `base` whose process is gone.
    static func removeLeftovers(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid(), !isAlive(pid) else { continue }
            try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
        }
    }

    /// Whether a process with this ID exists (one of another user's counts: its signal is refused, not unknown).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }
}
