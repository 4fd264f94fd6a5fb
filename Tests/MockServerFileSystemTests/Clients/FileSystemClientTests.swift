import Foundation
import Testing
import TestSupport

/// Real FTP and WebDAV clients against `mockserver --files DIR` with the bundled scripts: folders,
/// recursive downloads and uploads byte for byte, resume, and errors where a real server gives them.
@Suite("Shared file system with real clients", .offPool)
struct FileSystemClientTests {
    /// A local tree: files at several depths, an empty folder, names with a space and non-ASCII.
    static func makeTree() throws -> URL {
        let root = try Tools.temporaryDirectory().appendingPathComponent("tree")
        let manager = FileManager.default
        for folder in ["docs/deep", "empty", "more"] { try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true) }
        try Data("top\n".utf8).write(to: root.appendingPathComponent("top.txt"))
        try Tools.randomBytes(3_000, seed: 1).write(to: root.appendingPathComponent("docs/a.txt"))
        try Tools.randomBytes(70_000, seed: 2).write(to: root.appendingPathComponent("docs/deep/b.bin"))
        try Data("spaced\n".utf8).write(to: root.appendingPathComponent("more/with space.txt"))
        try Data("unicode\n".utf8).write(to: root.appendingPathComponent("more/ünï.txt"))
        return root
    }

    /// Every file below `root` by relative path, with its bytes, and every folder (ending in `/`).
    static func contents(of root: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let base = root.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        while let relative = walker.nextObject() as? String {
            let path = base + "/" + relative
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue { result[relative + "/"] = Data() } else { result[relative] = try Data(contentsOf: URL(fileURLWithPath: path)) }
        }
        return result
    }

    /// `mockserver [script] --files tree` and its port.
    private func serve(_ tree: URL, script: String? = nil, options: [String] = []) throws -> (RunningCommand, UInt16) {
        var arguments = ["--files", tree.path] + options
        // The bundled script as the repository has it (Responses/), which is the file BundledResponses copies.
        if let script { arguments.append(Tools.fixture("Responses/\(script).json").path) }
        let command = try RunningCommand(arguments)
        let port = try #require(command.firstLine.split(separator: " ")[3].split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) },
                                "first line: \(command.firstLine)")
        return (command, port)
    }

    @Test("wget -r copies the whole tree byte for byte, folders in place", .enabled(if: Tools.hasWget))
    func wgetRecursive() throws {
        let tree = try Self.makeTree()
        let (command, port) = try serve(tree)
        defer { _ = command.terminate() }
        let out = try Tools.temporaryDirectory()
        let result = try Tools.run("wget", ["-r", "-nH", "-q", "-P", out.path, "ftp://127.0.0.1:\(port)/"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Self.contents(of: tree).filter { $0.key != "empty/" } // wget makes no empty folders
        #expect(try Self.contents(of: out).filter { $0.key != "empty/" } == expected)
    }

    @Test("lftp mirror down, mirror -R up, and down again: byte for byte", .enabled(if: Tools.hasLftp))
    func lftpMirror() throws {
        let tree = try Self.makeTree()
        let (command, port) = try serve(tree)
        defer { _ = command.terminate() }
        let down = try Tools.temporaryDirectory().appendingPathComponent("down")
        func lftp(_ script: String) throws -> Tools.Result {
            try Tools.run("lftp", ["-u", "anonymous,x", "-p", String(port), "-e", "set net:max-retries 1; set net:timeout 20; \(script); quit", "127.0.0.1"], timeout: 120)
        }
        let mirror = try lftp("mirror / \(down.path)")
        #expect(mirror.status == 0, "\(mirror.stderr)")
        #expect(try Self.contents(of: down) == Self.contents(of: tree))
        let upload = try lftp("mkdir /copy; mirror -R \(tree.path) /copy/tree")
        #expect(upload.status == 0, "\(upload.stderr)")
        let again = try Tools.temporaryDirectory().appendingPathComponent("again")
        #expect(try lftp("mirror /copy/tree \(again.path)").status == 0)
        #expect(try Self.contents(of: again) == Self.contents(of: tree))
    }

    @Test("ncftpget -R fetches a folder with its subfolders", .enabled(if: Tools.path(of: "ncftpget") != nil))
    func ncftpgetRecursive() throws {
        let tree = try Self.makeTree()
        let (command, port) = try serve(tree)
        defer { _ = command.terminate() }
        let out = try Tools.temporaryDirectory()
        let result = try Tools.run("ncftpget", ["-R", "-V", "-t", "20", "-P", String(port), "127.0.0.1", out.path, "/docs"], timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Self.contents(of: out.appendingPathComponent("docs")) == Self.contents(of: tree.appendingPathComponent("docs")))
    }

    @Test("curl -C - resumes a download with REST; a missing file is 550 (curl 78, urllib an error)", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func resumeAndMissing() throws {
        let tree = try Self.makeTree()
        let (command, port) = try serve(tree)
        defer { _ = command.terminate() }
        let local = try Tools.temporaryDirectory().appendingPathComponent("b.bin")
        let whole = try Data(contentsOf: tree.appendingPathComponent("docs/deep/b.bin"))
        try whole.prefix(20_000).write(to: local)
        let resumed = try Tools.curl(maxTime: 30, ["-C", "-", "-o", local.path, "ftp://127.0.0.1:\(port)/docs/deep/b.bin"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Data(contentsOf: local) == whole)
        #expect(try Tools.curl(maxTime: 30, ["ftp://127.0.0.1:\(port)/docs/nothere.txt"]).status == 78)
        let urllib = try Tools.python("""
            import urllib.request, urllib.error
            try:
                urllib.request.urlopen("ftp://127.0.0.1:\(port)/docs/nothere.txt", timeout=20).read()
                print("no error")
            except urllib.error.URLError as error:
                print("error", "550" in str(error))
            print(urllib.request.urlopen("ftp://127.0.0.1:\(port)/top.txt", timeout=20).read())
            """)
        #expect(urllib.stdout == "error True\nb'top\\n'\n", "\(urllib.stderr)")
    }

    @Test("ftplib: CWD, PWD, MKD, RNFR/RNTO, DELE, RMD, APPE and SIZE/MDTM agree with LIST and MLSD", .enabled(if: Tools.hasPython))
    func ftplibChanges() throws {
        let tree = try Self.makeTree()
        let (command, port) = try serve(tree)
        defer { _ = command.terminate() }
        let result = try Tools.python("""
            import ftplib, io
            f = ftplib.FTP(); f.connect("127.0.0.1", \(port), timeout=20); f.login("u", "p")
            f.cwd("docs"); print(f.pwd())
            try:
                f.cwd("nothere")
            except ftplib.error_perm as error:
                print(str(error)[:3])
            print(sorted(f.nlst()))
            f.mkd("new"); f.cwd("new"); f.storbinary("STOR n.txt", io.BytesIO(b"12345")); f.storbinary("APPE n.txt", io.BytesIO(b"678"))
            print(f.size("n.txt"), f.sendcmd("MDTM n.txt")[:4])
            f.cwd(".."); f.rename("new/n.txt", "/moved.txt"); print(f.size("/moved.txt"))
            try:
                f.rmd("deep")
            except ftplib.error_perm as error:
                print(str(error)[:3])
            f.rmd("new"); f.delete("/moved.txt"); f.cwd("/")
            print(sorted(name for name, facts in f.mlsd()))
            print([line.split()[-1] for line in (lambda l: (f.retrlines("LIST docs", l.append), l)[1])([])])
            f.quit()
            """)
        #expect(result.stdout == "/docs\n550\n['a.txt', 'deep']\n8 213 \n8\n550\n['docs', 'empty', 'more', 'top.txt']\n['a.txt', 'deep']\n", "\(result.stderr)")
    }

    @Test("rclone sync and check, over FTP and over WebDAV, both ways", .enabled(if: Tools.hasRclone))
    func rcloneSync() throws {
        let tree = try Self.makeTree()
        let work = try Tools.temporaryDirectory()
        let obscured = try Tools.run("rclone", ["obscure", "pass"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for script in [nil, "webdav"] {
            let (command, port) = try serve(tree, script: script)
            defer { _ = command.terminate() }
            let remote = script == nil
                ? [":ftp:", "--ftp-host", "127.0.0.1", "--ftp-port", String(port), "--ftp-user", "anonymous", "--ftp-pass", obscured]
                : [":webdav:", "--webdav-url", "http://127.0.0.1:\(port)/", "--webdav-user", "user", "--webdav-pass", obscured]
            let options = remote.dropFirst() + ["--config", work.appendingPathComponent("rclone.conf").path, "--retries", "1", "--low-level-retries", "1"]
            let down = work.appendingPathComponent("down-\(script ?? "ftp")")
            let sync = try Tools.run("rclone", ["sync", remote[0], down.path] + options, timeout: 120)
            #expect(sync.status == 0, "\(script ?? "ftp"): \(sync.stderr)")
            #expect(try Tools.run("rclone", ["check", remote[0], down.path] + options, timeout: 120).status == 0)
            #expect(try Self.contents(of: down).filter { $0.key != "empty/" } == Self.contents(of: tree).filter { $0.key != "empty/" })
            let up = try Tools.run("rclone", ["sync", tree.path, remote[0] + "copy"] + options, timeout: 120)
            #expect(up.status == 0, "\(script ?? "ftp"): \(up.stderr)")
            let check = try Tools.run("rclone", ["check", tree.path, remote[0] + "copy"] + options, timeout: 120)
            #expect(check.status == 0, "\(script ?? "ftp"): \(check.stderr)")
        }
    }

    @Test("rclone over TLS: FTP with explicit_tls (--starttls) and tls (--tls), WebDAV over https; sync both ways and check",
          .enabled(if: Tools.hasRclone))
    func rcloneOverTLS() throws {
        let tree = try Self.makeTree()
        let work = try Tools.temporaryDirectory()
        let obscured = try Tools.run("rclone", ["obscure", "pass"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for (script, mode, flag) in [(nil, "--starttls", "--ftp-explicit-tls"), (nil, "--tls", "--ftp-tls"), ("webdav", "--tls", nil)] {
            let name = "\(script ?? "ftp")\(mode)"
            let ca = work.appendingPathComponent("ca\(name).pem").path
            let (command, port) = try serve(tree, script: script, options: [mode, "--tls-ca-out", ca])
            defer { _ = command.terminate() }
            let remote = script == nil
                ? [":ftp:", "--ftp-host", "127.0.0.1", "--ftp-port", String(port), "--ftp-user", "anonymous", "--ftp-pass", obscured] + [flag].compactMap { $0 }
                : [":webdav:", "--webdav-url", "https://127.0.0.1:\(port)/", "--webdav-user", "user", "--webdav-pass", obscured]
            let options = remote.dropFirst() + ["--config", work.appendingPathComponent("rclone.conf").path, "--retries", "1", "--low-level-retries", "1"]
            // rclone's FTP backend ignores --ca-cert; Go takes the CA from SSL_CERT_FILE.
            let environment = ["SSL_CERT_FILE": ca]
            let down = work.appendingPathComponent("down-\(name)")
            let sync = try Tools.run("rclone", ["sync", remote[0], down.path] + options, timeout: 120, environment: environment)
            #expect(sync.status == 0, "\(name): \(sync.stderr)")
            #expect(try Self.contents(of: down).filter { $0.key != "empty/" } == Self.contents(of: tree).filter { $0.key != "empty/" }, "\(name)")
            let up = try Tools.run("rclone", ["sync", tree.path, remote[0] + "copy"] + options, timeout: 120, environment: environment)
            #expect(up.status == 0, "\(name): \(up.stderr)")
            let check = try Tools.run("rclone", ["check", tree.path, remote[0] + "copy"] + options, timeout: 120, environment: environment)
            #expect(check.status == 0, "\(name): \(check.stderr)")
            // Without the CA, rclone refuses the server.
            let refused = try Tools.run("rclone", ["lsf", remote[0]] + options, timeout: 120)
            #expect(refused.status != 0 && refused.stderr.contains("x509"), "\(name): \(refused.status) \(refused.stderr)")
        }
    }

    /// Whether Python has webdavclient3 (`pip install webdavclient3`; CI installs it).
    static let hasWebDAVClient3 = Tools.hasPython && (try? Tools.python("import webdav3.client").status) == 0

    @Test("webdavclient3: check, upload, mkdir, copy, move, list and download", .enabled(if: hasWebDAVClient3))
    func webdavclient3() throws {
        let tree = try Self.makeTree()
        let (command, port) = try serve(tree, script: "webdav")
        defer { _ = command.terminate() }
        let local = try Tools.temporaryDirectory()
        try Data("uploaded\n".utf8).write(to: local.appendingPathComponent("up.txt"))
        let result = try Tools.python("""
            from webdav3.client import Client
            c = Client({"webdav_hostname": "http://127.0.0.1:\(port)", "webdav_login": "user", "webdav_password": "pass"})
            print(c.check("docs/a.txt"), c.check("docs/nothere"))
            c.mkdir("made")
            c.upload_sync(remote_path="made/up.txt", local_path="\(local.path)/up.txt")
            c.copy(remote_path_from="made/up.txt", remote_path_to="docs/copied.txt")
            c.move(remote_path_from="docs/copied.txt", remote_path_to="more/moved.txt")
            print(sorted(c.list("more")))
            c.download_sync(remote_path="more/moved.txt", local_path="\(local.path)/back.txt")
            print(open("\(local.path)/back.txt").read(), end="")
            print(c.info("made/up.txt")["size"])
            """, timeout: 120)
        // (webdavclient3 prints its own progress lines for mkdir.)
        let lines = result.stdout.split(separator: "\n").filter { !$0.hasPrefix("Mak") && !$0.hasPrefix("Made ") }
        #expect(lines == ["True False", "['moved.txt', 'with space.txt', 'ünï.txt']", "uploaded", "9"], "\(result.stdout)\(result.stderr)")
    }
}
