import Foundation

/// The folder that holds this test process's temporary directories (``Tools/temporaryDirectory()``):
/// one per process in the system's temporary directory, removed when the process exits, so that a
/// test that forgets its `defer` leaves nothing behind (a full `swift test` left about 150 folders
/// in /tmp). A folder whose process ended without exiting (a crash, a kill) is removed by the next
/// test process that starts.
public enum TestRunFolder {
    /// The start of every such folder's name; the process ID follows.
    public static let prefix = "mockserver-tests-run-"

    /// This process's folder, made on first use (older runs' leftovers removed first).
    static let url: URL = {
        let base = FileManager.default.temporaryDirectory
        removeLeftovers(in: base)
        let url = base.appendingPathComponent(prefix + String(ProcessResources.processID))
        // A folder under this process ID is a dead process's whose ID was reused.
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        ProcessResources.atExit { try? FileManager.default.removeItem(at: TestRunFolder.url) }
        return url
    }()

    /// Removes the folders in `base` whose process is gone.
    public static func removeLeftovers(in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != ProcessResources.processID,
                  !ProcessResources.processExists(pid) else { continue }
            try? FileManager.default.removeItem(at: base.appendingPathComponent(name))
        }
    }
}
