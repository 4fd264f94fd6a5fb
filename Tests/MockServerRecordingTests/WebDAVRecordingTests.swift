import Foundation
import Testing
import TestSupport
import MockServer

/// WebDAV recorded from a real server (wsgidav), replayed from the mock-data folder with it stopped.
@Suite("Recording HTTP: WebDAV", .offPool)
struct WebDAVRecordingTests {
    static var hasWsgidav: Bool {
        Tools.hasCurl && Tools.hasPython && ((try? Tools.python("import wsgidav, cheroot").status) == 0)
    }

    /// wsgidav over cheroot on a port it prints first, serving the folder given as argument.
    static let server = """
        import sys
        from cheroot import wsgi
        from wsgidav.wsgidav_app import WsgiDAVApp
        app = WsgiDAVApp({"provider_mapping": {"/": sys.argv[1]}, "simple_dc": {"user_mapping": {"*": True}},
                          "verbose": 0, "logging": {"enable": False}, "property_manager": True, "lock_storage": True})
        server = wsgi.Server(("127.0.0.1", 0), app)
        server.prepare()
        print(server.bind_addr[1], flush=True)
        server.serve()
        """

    static let propfind = #"<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getcontentlength/><resourcetype/></prop></propfind>"#

    /// curl's status and body for one WebDAV request.
    static func curl(_ port: UInt16, _ arguments: [String], _ path: String) throws -> String {
        let result = try Tools.curl(["-w", "\n%{http_code}"] + arguments + ["http://127.0.0.1:\(port)\(path)"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static let requests: [([String], String)] = [
        (["-X", "PUT", "--data-binary", "recorded through the proxy\n"], "/new.txt"),
        ([], "/new.txt"),
        (["-X", "PROPFIND", "-H", "Depth: 1", "-H", "Content-Type: application/xml", "--data-binary", propfind], "/"),
        (["-X", "MKCOL"], "/folder/"),
        ([], "/missing.txt"),
    ]

    @Test("PUT, GET, PROPFIND and MKCOL against wsgidav through mockserver record; replayed from the folder with wsgidav stopped", .enabled(if: hasWsgidav))
    func recordsWebDAV() throws {
        let work = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let root = work.appendingPathComponent("dav")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("already there\n".utf8).write(to: root.appendingPathComponent("old.txt"))
        let folder = work.appendingPathComponent("VOKMockData")
        let dav = try PythonServer(Self.server, arguments: [root.path])
        let upstream = dav.port

        let recorder = try RunningCommand(["record", "--upstream", "http://127.0.0.1:\(upstream)", "--mock-data", folder.path])
        let port = try #require(UInt16(recorder.firstLine.split(separator: ":").last ?? ""), "first line: \(recorder.firstLine)")
        let recorded = try Self.requests.map { try Self.curl(port, $0.0, $0.1) }
        let (status, stderr) = recorder.terminate()
        #expect(status == 0)
        #expect(stderr.contains("mockserver recorded 5 exchanges"), "\(stderr)")
        dav.stop()
        #expect(recorded[0].hasSuffix("\n201"))
        #expect(recorded[1] == "recorded through the proxy\n\n200")
        #expect(recorded[2].hasSuffix("\n207") && recorded[2].contains("old.txt") && recorded[2].contains("new.txt"), "\(recorded[2])")
        #expect(recorded[3].hasSuffix("\n201") && recorded[4].hasSuffix("\n404"))

        let replay = try RunningCommand(["--mock-data", folder.path])
        let replayPort = try #require(UInt16(replay.firstLine.split(separator: ":").last ?? ""), "first line: \(replay.firstLine)")
        defer { _ = replay.terminate() }
        let replayed = try Self.requests.map { try Self.curl(replayPort, $0.0, $0.1) }
        #expect(replayed == recorded)
    }
}
