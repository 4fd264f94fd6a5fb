import Foundation
import MockServerResponses
import Testing
import TestSupport
import MockServer

/// `CWD`, `CDUP`, `CWD ..` and `CWD /` through the bundled `ftp.json` with no files, beside
/// pyftpdlib over an empty folder: a folder that is not there is refused at the `CWD` (550), as
/// real servers refuse it, not at the upload that follows.
@Suite("FTP working directory as real servers answer it", .offPool)
struct FTPWorkingDirectoryTests {
    static var hasPyftpdlib: Bool { Tools.hasPython && Tools.hasPythonModule("pyftpdlib") }

    /// An ftplib session printing each command's reply code and the working directory after it.
    static func ftplibSession(port: UInt16) -> String {
        """
        import ftplib, io
        f = ftplib.FTP(); f.connect("127.0.0.1", \(port), timeout=20); f.login()
        def code(command):
            try:
                return f.sendcmd(command)[:3]
            except ftplib.error_perm as error:
                return str(error)[:3]
        for command in ["CWD missing", "CWD missing/deeper", "CDUP", "CWD ..", "CWD /", "MKD made", "CWD made",
                        "CWD ../made/./", "CDUP", "CWD made/up.txt", "CWD /made", "CWD /"]:
            print(command, code(command), f.pwd())
            if command == "CWD made":
                f.storbinary("STOR up.txt", io.BytesIO(b"up"))
        try:
            f.storbinary("STOR /nothere/x.txt", io.BytesIO(b"x"))
        except ftplib.error_perm as error:
            print("STOR /nothere/x.txt", str(error)[:1])  # vsftpd's 553, pyftpdlib's 550
        f.quit()
        """
    }

    static let expected = """
        CWD missing 550 /
        CWD missing/deeper 550 /
        CDUP 250 /
        CWD .. 250 /
        CWD / 250 /
        MKD made 257 /
        CWD made 250 /made
        CWD ../made/./ 250 /made
        CDUP 250 /
        CWD made/up.txt 550 /
        CWD /made 250 /made
        CWD / 250 /
        STOR /nothere/x.txt 5

        """

    private func startFTP() throws -> MockServer {
        let server = try MockServer(script: BundledResponses.script(named: "ftp"))
        try server.start()
        return server
    }

    @Test("ftplib: the same reply codes and working directories from the bundled script as from pyftpdlib",
          .enabled(if: hasPyftpdlib))
    func besidePyftpdlib() throws {
        let root = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let reference = try PythonServer(PythonServer.pyftpdlib, arguments: [root.path])
        let theirs = try Tools.python(Self.ftplibSession(port: reference.port))
        reference.stop()
        #expect(theirs.stdout == Self.expected, "pyftpdlib: \(theirs.stderr)")

        let server = try startFTP()
        defer { server.stop() }
        let ours = try Tools.python(Self.ftplibSession(port: server.port))
        #expect(ours.stdout == Self.expected, "\(ours.stderr)\n\(server.transcript.dump())")
        #expect(server.files["/made/up.txt"] == Data("up".utf8))
    }

    @Test("curl -T into a missing folder fails at the CWD (exit 9), and --ftp-create-dirs makes it and uploads",
          .enabled(if: Tools.hasCurl))
    func curlUploadIntoMissingFolder() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let upload = work.appendingPathComponent("up.txt")
        try Data("uploaded\n".utf8).write(to: upload)
        let server = try startFTP()
        defer { server.stop() }
        let url = "ftp://127.0.0.1:\(server.port)/new/dir/up.txt"
        // Told 250 at the CWD, curl would send STOR and fail there with 553 (exit 25).
        let refused = try Tools.curl(["-T", upload.path, url])
        #expect(refused.status == 9, "\(refused.stderr)\n\(server.transcript.dump())")
        #expect(server.uploads.isEmpty)
        let made = try Tools.curl(["--ftp-create-dirs", "-T", upload.path, url])
        #expect(made.status == 0, "\(made.stderr)\n\(server.transcript.dump())")
        #expect(server.files["/new/dir/up.txt"] == Data("uploaded\n".utf8))
    }
}
