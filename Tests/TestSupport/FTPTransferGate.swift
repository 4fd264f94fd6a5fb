/// One URLSession FTP transfer at a time in the test process.
///
/// FoundationNetworking on Linux (Swift 6.3.1) sometimes never opens an FTP transfer's data
/// connection: libcurl has read the 229 and waits for a wake-up that does not come, and the transfer
/// fails with -1001 after a minute (Docs/URLSessionFailures.md). Session 26 saw it only while other
/// URLSession FTP transfers of the process ran beside it: 0 stalls in 840 downloads of one test, 7 in
/// 43 runs beside the FTP upload and URLSession suites, and once in the eighth of eight whole suite
/// runs (the 10 MiB download). The suite's URLSession FTP transfers take turns through this gate, so
/// that they never overlap; curl, ftplib and lftp transfers do not need it.
public actor FTPTransferGate {
    /// The process's gate.
    public static let shared = FTPTransferGate()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `transfer` once no other transfer holds the gate, holding it meanwhile.
    public nonisolated func oneAtATime<Result>(_ transfer: () async throws -> Result) async rethrows -> Result {
        await enter()
        do {
            let result = try await transfer()
            await leave()
            return result
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func leave() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
