import Foundation
import Testing
import TestSupport
import MockServer

/// FTP recorded from pyftpdlib through `mockserver record`, data connections included, and
/// replayed by `mockserver --files DIR SCRIPT` with pyftpdlib stopped.
@Suite("Recording FTP", .offPool)
struct FTPRecordingTests {
    static var hasPyftpdlib: Bool {
        Tools.hasPython && Tools.hasLftp && Tools.hasCurl && ((try? Tools.python("import pyftpdlib").status) == 0)
    }

    /// An ftplib session: login, the root's names, a download, the size of a file in a folder.
    static let ftplibSession = """
        import ftplib, hashlib, io, sys
        ftp = ftplib.FTP()
        print(ftp.connect("127.0.0.1", int(sys.argv[1]), timeout=20).split()[0])
        print(ftp.login().split()[0])
        print(sorted(ftp.nlst()))
        data = io.BytesIO()
        ftp.retrbinary("RETR sub/b.bin", data.write)
        print(hashlib.sha256(data.getvalue()).hexdigest())
        ftp.cwd("sub")
        print(ftp.size("b.bin"))
        ftp.quit()
        """

    @Test("lftp mirror, a curl upload and an ftplib session recorded from pyftpdlib; replayed with it stopped: same files, same bytes",
          .enabled(if: hasPyftpdlib))
    func recordsFTP() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let root = work.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("hello ftp\n".utf8).write(to: root.appendingPathComponent("a.txt"))
        let binary = Tools.randomBytes(100_000, seed: 25)
        try binary.write(to: root.appendingPathComponent("sub/b.bin"))
        let upload = work.appendingPathComponent("up.txt")
        try Data("uploaded through the recorder\n".utf8).write(to: upload)
        let script = work.appendingPathComponent("ftp-recorded.json")
        let files = work.appendingPathComponent("files")

        let server = try PythonServer(PythonServer.pyftpdlib, arguments: [root.path])
        let upstream = server.port

        let recorder = try RunningCommand(["record", "--upstream", "ftp://127.0.0.1:\(upstream)", "--script", script.path, "--files", files.path])
        let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
        #expect(recorder.nextLine() == "mockserver recording ftp://127.0.0.1:\(upstream) into \(script.path) and \(files.path)")
        let mirrored = work.appendingPathComponent("mirror")
        let mirror = try Tools.run("lftp", ["-e", "set ftp:passive-mode on; set net:max-retries 1; mirror / \(mirrored.path); quit", "-u", "anonymous,", "ftp://127.0.0.1:\(port)"])
        #expect(mirror.status == 0, "\(mirror.stderr)")
        let curl = try Tools.curl(["-T", upload.path, "ftp://127.0.0.1:\(port)/up.txt"])
        #expect(curl.status == 0, "\(curl.stderr)")
        let session = try Tools.run("python3", ["-c", Self.ftplibSession, String(port)])
        #expect(session.status == 0, "\(session.stderr)")
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        #expect(stderr.contains("mockserver recorded 3 connections"), "\(stderr)")
        server.stop()

        // What passed: the downloads and the upload, at the client's paths.
        #expect(try Data(contentsOf: mirrored.appendingPathComponent("sub/b.bin")) == binary)
        #expect(try Data(contentsOf: files.appendingPathComponent("sub/b.bin")) == binary)
        #expect(try Data(contentsOf: files.appendingPathComponent("a.txt")) == Data("hello ftp\n".utf8))
        #expect(try Data(contentsOf: files.appendingPathComponent("up.txt")) == (try Data(contentsOf: upload)))
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains("pyftpdlib ready.") && text.contains("\"scheme\": \"ftp\""))
        #expect(try Tools.run(Tools.mockserver.path, ["--check", script.path]).status == 0)

        let replay = try RunningCommand(["--files", files.path, script.path])
        let replayPort = try #require(replay.ports?.0, "first line: \(replay.firstLine)")
        defer { _ = replay.terminate() }
        #expect(try Tools.run(Tools.path(of: "python3") ?? "python3", ["-c", Self.ftplibSession, String(replayPort)]).stdout == session.stdout)
        let again = work.appendingPathComponent("mirror-again")
        let mirrorAgain = try Tools.run("lftp", ["-e", "set ftp:passive-mode on; set net:max-retries 1; mirror / \(again.path); quit", "-u", "anonymous,", "ftp://127.0.0.1:\(replayPort)"])
        #expect(mirrorAgain.status == 0, "\(mirrorAgain.stderr)")
        #expect(try Data(contentsOf: again.appendingPathComponent("sub/b.bin")) == binary)
        #expect(try Data(contentsOf: again.appendingPathComponent("a.txt")) == Data("hello ftp\n".utf8))
        #expect(try Tools.curl(["-T", upload.path, "ftp://127.0.0.1:\(replayPort)/up2.txt"]).status == 0)
        #expect(session.stdout.hasPrefix("220\n230\n['a.txt', 'sub', 'up.txt']\n"), "\(session.stdout)")
    }
}
