import Foundation
import Testing
import MockServerFTP
import MockServerFileSystem

/// «ftp»'s commands on their own: files and times in memory, one command line at a time.
@Suite("FTP file system")
struct FTPFileSystemTests {
    static let start = Date(timeIntervalSince1970: 1_704_110_400) // 2024-01-01 12:00:00 UTC

    struct Session {
        var files: [String: [UInt8]] = ["/a.txt": Array("abcdef".utf8), "docs/b.txt": Array("b".utf8), "/empty/": []]
        var times = FileTimes(origin: FTPFileSystemTests.start)
        var state = FTPSessionState()
        var now = FTPFileSystemTests.start

        mutating func send(_ line: String) -> FTPAnswer {
            var system = FTPFileSystem(files: files, times: times, data: Array("DATA".utf8), now: now)
            let answer = system.answer(line + "\r\n", session: &state)
            files = system.files
            times = system.times
            return answer
        }

        mutating func reply(_ line: String) -> String {
            if case .reply(let text) = send(line) { return text }
            return "not a reply"
        }

        mutating func listing(_ line: String) -> String {
            if case .download(_, let bytes, _) = send(line) { return String(decoding: bytes, as: UTF8.self) }
            return "not a listing: \(send(line))"
        }

        mutating func upload(_ line: String, _ bytes: String) {
            guard case .upload(_, let path, let offset, _) = send(line) else { return }
            var system = FTPFileSystem(files: files, times: times, data: [], now: now)
            system.store(Array(bytes.utf8), at: path, offset: offset)
            files = system.files
            times = system.times
        }
    }

    @Test("paths: relative and absolute, . and .., never above the root")
    func paths() {
        #expect(FTPFileSystem.resolve("b.txt", in: "/docs/") == "/docs/b.txt")
        #expect(FTPFileSystem.resolve("../../../x", in: "/docs/") == "/x")
        #expect(FTPFileSystem.resolve("/a/./b/../c/", in: "/docs/") == "/a/c")
        #expect(FTPFileSystem.resolve(".", in: "/") == "/")
    }

    @Test("a working directory: CWD, CDUP, PWD, and 550 for what is not a folder")
    func workingDirectory() {
        var session = Session()
        #expect(session.reply("PWD") == "257 \"/\" is the current directory.\r\n")
        #expect(session.reply("CWD docs").hasPrefix("250 "))
        #expect(session.reply("PWD") == "257 \"/docs\" is the current directory.\r\n")
        #expect(session.reply("CWD nothere") == "550 nothere: No such directory.\r\n")
        #expect(session.reply("CWD /a.txt").hasPrefix("550 "))
        #expect(session.reply("CDUP").hasPrefix("250 ") && session.state.directory == "/")
        #expect(session.reply("SIZE docs/b.txt") == "213 1\r\n")
        #expect(session.reply("SIZE docs") == "550 docs: No such file or directory.\r\n")
    }

    @Test("listings: ls -l with a time for recent dates and a year for old ones, NLST, MLSD, MLST")
    func listings() {
        var session = Session()
        session.now = Self.start.addingTimeInterval(60)
        let long = session.listing("LIST -la")
        #expect(long == """
            -rw-r--r--   1 mock     mock                6 Jan  1 12:00 a.txt\r
            drwxr-xr-x   1 mock     mock             4096 Jan  1 12:00 docs\r
            drwxr-xr-x   1 mock     mock             4096 Jan  1 12:00 empty\r

            """)
        session.now = Self.start.addingTimeInterval(365 * 86_400)
        #expect(session.listing("LIST a.txt") == "-rw-r--r--   1 mock     mock                6 Jan  1  2024 a.txt\r\n")
        #expect(session.reply("MDTM a.txt") == "213 20240101120000\r\n")
        #expect(session.listing("NLST") == "a.txt\r\ndocs\r\nempty\r\n")
        #expect(session.listing("NLST docs") == "docs/b.txt\r\n")
        #expect(session.listing("MLSD docs") == "type=file;size=1;modify=20240101120000;perm=adfrw; b.txt\r\n")
        #expect(session.reply("MLST docs") == "250-Listing /docs\r\n type=dir;modify=20240101120000;perm=flcdmpe; /docs\r\n250 End.\r\n")
        #expect(session.reply("LIST nothere") == "550 nothere: No such file or directory.\r\n")
        #expect(session.reply("MLSD a.txt").hasPrefix("501 "))
    }

    @Test("transfers: REST for downloads and uploads, APPE, and the errors of each")
    func transfers() {
        var session = Session()
        #expect(session.reply("REST 2").hasPrefix("350 "))
        guard case .download(_, let rest, _) = session.send("RETR a.txt") else { Issue.record("no download"); return }
        #expect(rest == Array("cdef".utf8))
        guard case .download(_, let whole, _) = session.send("RETR a.txt") else { Issue.record("no download"); return }
        #expect(whole == Array("abcdef".utf8)) // REST applies to one transfer
        #expect(session.reply("REST 7") == "350 Restarting at 7. Send STORE or RETRIEVE.\r\n")
        #expect(session.reply("RETR a.txt").hasPrefix("554 "))
        #expect(session.reply("REST x").hasPrefix("501 "))
        #expect(session.reply("RETR nothere.txt") == "550 nothere.txt: No such file or directory.\r\n")
        #expect(session.reply("STOR nodir/x.txt").hasPrefix("553 "))
        #expect(session.reply("STOR docs").hasPrefix("550 "))
        session.now = Self.start.addingTimeInterval(30)
        session.upload("STOR docs/new.txt", "12345")
        session.upload("APPE docs/new.txt", "67")
        _ = session.reply("REST 3")
        session.upload("STOR docs/new.txt", "XY")
        #expect(session.files["/docs/new.txt"] == Array("123XY".utf8))
        _ = session.reply("REST 8")
        session.upload("STOR docs/new.txt", "Z")
        #expect(session.files["/docs/new.txt"] == Array("123XY\0\0\0Z".utf8))
        #expect(session.reply("MDTM docs/new.txt") == "213 20240101120030\r\n")
    }

    @Test("REST past a file's end: an upload fills the gap with zeros up to 16 MiB, and a larger gap is refused before anything is allocated")
    func restartGap() {
        var session = Session()
        let limit = FTPFileSystem.maximumUploadGap
        // REST 9223372036854775807 then STOR ended the process: the gap was allocated.
        for offset in [Int.max, Int.max - 807, limit + 7] {
            _ = session.reply("REST \(offset)")
            #expect(session.reply("STOR a.txt") == "554 Restart offset \(offset) is \(offset - 6) bytes past the end of a.txt (6 bytes);"
                    + " at most \(limit) bytes of zeros fill a gap.\r\n")
        }
        _ = session.reply("REST \(limit + 1)")
        #expect(session.reply("STOR docs/new.txt").hasPrefix("554 "))
        _ = session.reply("REST \(limit + 6)")
        guard case .upload(_, "/a.txt", let offset, _) = session.send("STOR a.txt") else { Issue.record("no upload at the limit"); return }
        #expect(offset == limit + 6)
        _ = session.reply("REST 9223372036854775807")
        guard case .upload(_, "/a.txt", 6, _) = session.send("APPE a.txt") else { Issue.record("APPE does not append"); return }
        #expect(session.files["/a.txt"] == Array("abcdef".utf8))
    }

    @Test("changes: MKD, RMD, DELE, RNFR/RNTO for files and folders, with their errors")
    func changes() {
        var session = Session()
        #expect(session.reply("MKD docs/sub") == "257 \"/docs/sub\" directory created.\r\n")
        #expect(session.reply("MKD docs/sub").hasPrefix("550 "))
        #expect(session.reply("MKD no/parent").hasPrefix("550 "))
        #expect(session.reply("RMD docs").hasPrefix("550 ") && session.reply("RMD docs") == "550 docs: Directory not empty.\r\n")
        #expect(session.reply("RNTO x") == "503 RNFR first.\r\n")
        #expect(session.reply("RNFR docs") == "350 Ready for RNTO.\r\n")
        #expect(session.reply("RNTO moved") == "250 Rename successful.\r\n")
        #expect(session.files["/moved/b.txt"] == Array("b".utf8) && session.files["docs/b.txt"] == nil)
        #expect(session.reply("RNFR moved") == "350 Ready for RNTO.\r\n")
        #expect(session.reply("RNTO moved/sub/inside").hasPrefix("553 "))
        #expect(session.reply("RNFR a.txt").hasPrefix("350 ") && session.reply("RNTO moved/a2.txt").hasPrefix("250 "))
        #expect(session.reply("DELE moved/a2.txt") == "250 File deleted.\r\n")
        #expect(session.reply("DELE moved").hasPrefix("550 "))
        #expect(session.reply("RMD empty") == "250 Directory removed.\r\n")
        #expect(session.reply("RMD /").hasPrefix("550 "))
        #expect(session.listing("NLST") == "moved\r\n")
    }

    @Test("CWD, CDUP, CWD .. and CWD / with no files at all: 550 for a folder that is not there, as real servers answer")
    func workingDirectoryWithoutFiles() {
        var session = Session()
        session.files = [:]
        #expect(session.reply("CWD missing") == "550 missing: No such directory.\r\n")
        #expect(session.reply("CWD missing/deeper").hasPrefix("550 ") && session.state.directory == "/")
        #expect(session.reply("CDUP") == "250 Directory changed to /.\r\n")
        #expect(session.reply("CWD ..") == "250 Directory changed to /.\r\n")
        #expect(session.reply("CWD /") == "250 Directory changed to /.\r\n")
        #expect(session.reply("XCWD") == "250 Directory changed to /.\r\n")
        // A folder MKD made, and one an upload's path implies, are there.
        #expect(session.reply("MKD made").hasPrefix("257 "))
        #expect(session.reply("CWD made") == "250 Directory changed to /made.\r\n")
        session.upload("STOR up.txt", "up")
        #expect(session.files["/made/up.txt"] == Array("up".utf8))
        #expect(session.reply("CWD /made/up.txt").hasPrefix("550 "))
        #expect(session.reply("CWD ../made/./") == "250 Directory changed to /made.\r\n")
        #expect(session.reply("CDUP") == "250 Directory changed to /.\r\n")
        session.files = ["set/by/test.txt": []]
        #expect(session.reply("CWD set/by") == "250 Directory changed to /set/by.\r\n")
        // The folder removed under the session: CDUP answers 550 while its parent is gone too.
        session.files = [:]
        #expect(session.reply("CDUP") == "550 ..: No such directory.\r\n" && session.state.directory == "/set/by/")
        #expect(session.reply("CWD /") == "250 Directory changed to /.\r\n")
    }

    @Test("FEAT and OPTS; with no files at all, any name gives the data")
    func featuresAndLegacy() {
        var session = Session()
        let features = session.reply("FEAT")
        #expect(features.hasPrefix("211-Features:\r\n") && features.contains(" REST STREAM\r\n") && features.contains(" MLST type*;size*;modify*;perm*;\r\n"))
        #expect(session.reply("OPTS UTF8 ON") == "200 OK.\r\n")
        #expect(session.reply("OPTS BOGUS").hasPrefix("501 "))
        var legacy = Session()
        legacy.files = [:]
        #expect(legacy.reply("CWD any/where").hasPrefix("550 "))
        #expect(legacy.reply("SIZE whatever.bin") == "213 4\r\n")
        guard case .download(_, let bytes, _) = legacy.send("RETR whatever.bin") else { Issue.record("no download"); return }
        #expect(bytes == Array("DATA".utf8))
    }
}
