import Foundation
import Testing
import TestSupport
import MockServerResponses
import MockServer

/// The largest FTP upload taken (issue 48): an upload is held in memory, so past
/// `maximumUploadSize` the data connection closes, nothing is kept, and the client gets 552.
@Suite("FTP uploads: the size limit (552)", .offPool)
struct FTPUploadLimitTests {
    /// ftplib stores `argv[2]` bytes as `argv[3]` and prints the final reply (or the error: when the
    /// server cuts the data connection first, the control connection's reply), then whether the
    /// control connection still answers.
    private static let uploader = """
        import ftplib, io, sys
        f = ftplib.FTP(); f.connect("127.0.0.1", int(sys.argv[1]), timeout=20); f.login("u", "p")
        try:
            print(f.storbinary("STOR " + sys.argv[3], io.BytesIO(b"u" * int(sys.argv[2])))[:3])
        except ftplib.all_errors as error:
            if not isinstance(error, ftplib.Error):
                # The data connection was cut while the client still sent: the reply comes next.
                try: f.voidresp()
                except ftplib.all_errors as reply: error = reply
            print(str(error)[:3], "limit" if "longer than" in str(error) and "--max-upload" in str(error) else str(error))
        print(f.sendcmd("NOOP")[:3])
        """

    private func store(_ port: UInt16, _ size: Int, as name: String) throws -> String {
        let result = try Tools.run("python3", ["-c", Self.uploader, String(port), String(size), name], timeout: 60)
        return result.stdout + result.stderr
    }

    @Test("just under the limit stored, just over it 552 with nothing kept and the session going on; raised: stored", .enabled(if: Tools.hasPython))
    func limit() throws {
        let limit = 100_000
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.FTPServerSettings.self, default: .init()].maximumUploadSize = limit
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: configuration)
        try server.start()
        defer { server.stop() }
        #expect(try store(server.port, limit, as: "exact.bin") == "226\n200\n")
        #expect(try store(server.port, 4 * limit, as: "over.bin") == "552 limit\n200\n")
        #expect(server.uploads.map(\.name) == ["exact.bin"])
        #expect(server.uploads.first?.data.count == limit)

        var raised = MockServer.Configuration()
        raised.settings[MockServer.FTPServerSettings.self, default: .init()].maximumUploadSize = 8 * limit
        let roomy = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: raised)
        try roomy.start()
        defer { roomy.stop() }
        #expect(try store(roomy.port, 4 * limit, as: "over.bin") == "226\n200\n")
        #expect(MockServer.FTPServerSettings().maximumUploadSize == 64 << 20)
    }
}
