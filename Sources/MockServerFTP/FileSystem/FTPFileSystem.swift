import Foundation
import MockServerCore
import MockServerFileSystem

/// An FTP server's file commands over the server's files (the tree WebDAV shares): a working
/// directory per session, listings of folders and files (`LIST` as `ls -l`, `NLST`, `MLSD`,
/// `MLST`), `SIZE`, `MDTM`, `REST`, `RETR`, `STOR`, `APPE`, `MKD`, `RMD`, `DELE`, `RNFR`/`RNTO`, `FEAT`
/// and `OPTS`. Pure: a command, the files and their times in; an answer and the changes out.
package struct FTPFileSystem: FileStoreBacked {
    /// Whether `FEAT` lists FTPS's `AUTH TLS`, `PBSZ` and `PROT` (the server has a TLS identity).
    package var offersTLS = false
    /// The files and their times; the file system's own changes make `MKD`, `RMD`, `DELE` and
    /// `RNTO`'s.
    package var store: FileStore
    /// The script's data: with no files at all, what `RETR` and `SIZE` of any name give. `CWD`
    /// still goes only to folders there are (`/`, and those `MKD` and uploads make), as a real
    /// server's does: a client that changes into a folder learns at the `CWD` that it is missing.
    let data: [UInt8]
    /// A listing set by hand (`server.listing`): `LIST` and `NLST` send it instead.
    let listingOverride: [UInt8]?
    let now: Date
    /// The files as a tree (the store's, remade only when the files change).
    private var tree: FileTree { store.tree }

    /// The most zeros an upload past a file's end (`REST` beyond it, then `STOR`) fills in: 16 MiB.
    package static let maximumUploadGap = 16 << 20

    /// The commands `«ftp»` answers.
    package static let commands: Set<String> = ["PWD", "XPWD", "CWD", "XCWD", "CDUP", "XCUP", "LIST", "NLST", "MLSD", "MLST", "SIZE", "MDTM",
                                                "REST", "RETR", "STOR", "APPE", "MKD", "XMKD", "RMD", "XRMD", "DELE", "RNFR", "RNTO", "FEAT", "OPTS"]

    package init(files: [String: [UInt8]], times: FileTimes, data: [UInt8], listing: [UInt8]? = nil, now: Date = Date()) {
        self.init(store: FileStore(files: files, times: times), data: data, listing: listing, now: now)
    }

    /// The file system over `store` (the server's own, whose tree is made once for its files, not
    /// for each command); `store` holds the changes afterwards.
    package init(store: FileStore, data: [UInt8], listing: [UInt8]? = nil, now: Date = Date()) {
        self.store = store
        self.data = data
        self.listingOverride = listing
        self.now = now
    }

    /// The answer to `line` (a command and its argument), with `session` updated.
    package mutating func answer(_ line: String, session: inout FTPSessionState) -> FTPAnswer {
        // "\r\n" is one Character: drop line ends as characters, not by count.
        var trimmed = line
        while let last = trimmed.last, last.isNewline { trimmed.removeLast() }
        let verb = String(trimmed.prefix { $0 != " " }).uppercased()
        let argument = trimmed.count > verb.count ? String(trimmed.dropFirst(verb.count + 1)) : ""
        let restart = session.restartOffset
        if verb != "REST" { session.restartOffset = 0 }
        if verb != "RNTO", verb != "RNFR" { session.renameFrom = nil }
        switch verb {
        case "PWD", "XPWD":
            return .reply("257 \(Self.quoted(FilePaths.file(session.directory))) is the current directory.\r\n")
        case "CWD", "XCWD":
            // Only a folder there is, files or none: vsftpd, ProFTPD and pyftpdlib answer 550 here,
            // and a client told 250 would only learn of it at the upload (553), too late for
            // `curl --ftp-create-dirs` to make the folder.
            return changeDirectory(to: resolve(argument.isEmpty ? "/" : argument, in: session.directory), argument: argument, session: &session)
        case "CDUP", "XCUP":
            // `CWD ..`: from `/`, `/` again; from a folder removed since, 550 when its parent went too.
            return changeDirectory(to: FilePaths.parent(session.directory), argument: "..", session: &session)
        case "LIST", "NLST", "MLSD":
            return listing(verb, argument: argument, in: session.directory)
        case "MLST":
            let path = resolve(argument.isEmpty ? "." : argument, in: session.directory)
            guard tree.kind(of: path) != nil else { return .reply("550 \(argument): No such file or directory.\r\n") }
            return .reply("250-Listing \(FilePaths.file(path))\r\n \(facts(path))\(FilePaths.file(path))\r\n250 End.\r\n")
        case "SIZE":
            if files.isEmpty { return .reply("213 \(data.count)\r\n") }
            guard case .file(let name)? = tree.kind(of: resolve(argument, in: session.directory)) else {
                return .reply("550 \(argument): No such file or directory.\r\n")
            }
            return .reply("213 \(files[name]?.count ?? 0)\r\n")
        case "MDTM":
            let path = resolve(argument, in: session.directory)
            guard case .file? = tree.kind(of: path) else { return .reply("550 \(argument): No such file or directory.\r\n") }
            return .reply("213 \(Self.timestamp(times.info(path).modified))\r\n")
        case "REST":
            // Any offset a file could have is taken, as vsftpd takes it; the transfer then answers.
            guard let offset = FTPNumber.parse(argument, maximum: Int.max) else {
                return .reply("501 Syntax error in parameters: REST needs a byte offset from 0 to \(Int.max), not \"\(argument)\".\r\n")
            }
            session.restartOffset = offset
            return .reply("350 Restarting at \(offset). Send STORE or RETRIEVE.\r\n")
        case "RETR":
            return retrieve(argument, in: session.directory, from: restart)
        case "STOR", "APPE":
            let path = resolve(argument, in: session.directory)
            guard tree.kind(of: path) != .folder else { return .reply("550 \(argument): Is a directory.\r\n") }
            guard tree.kind(of: FilePaths.parent(path)) == .folder else { return .reply("553 \(argument): No such directory.\r\n") }
            var offset = restart
            if verb == "APPE", case .file(let name)? = tree.kind(of: path) { offset = files[name]?.count ?? 0 }
            var size = 0
            if case .file(let name)? = tree.kind(of: path) { size = files[name]?.count ?? 0 }
            // Past the end, the gap is zeros held in memory: only so many of them.
            if offset > size, offset - size > Self.maximumUploadGap {
                return .reply("554 Restart offset \(offset) is \(offset - size) bytes past the end of \(argument) (\(size) bytes);"
                              + " at most \(Self.maximumUploadGap) bytes of zeros fill a gap.\r\n")
            }
            return .upload(preliminary: "150 Ok to send data.\r\n", path: FilePaths.file(path), offset: offset, final: "226 Transfer complete.\r\n")
        case "MKD", "XMKD":
            let path = resolve(argument, in: session.directory)
            guard tree.kind(of: path) == nil else { return .reply("550 \(argument): File exists.\r\n") }
            guard tree.kind(of: FilePaths.parent(path)) == .folder else { return .reply("550 \(argument): No such directory.\r\n") }
            store.makeFolder(path, at: now)
            return .reply("257 \(Self.quoted(FilePaths.file(path))) directory created.\r\n")
        case "RMD", "XRMD":
            let path = resolve(argument, in: session.directory)
            guard tree.kind(of: path) == .folder, FilePaths.file(path) != "/" else { return .reply("550 \(argument): No such directory.\r\n") }
            guard tree.children(of: path).isEmpty else { return .reply("550 \(argument): Directory not empty.\r\n") }
            remove(path)
            return .reply("250 Directory removed.\r\n")
        case "DELE":
            let path = resolve(argument, in: session.directory)
            guard case .file? = tree.kind(of: path) else { return .reply("550 \(argument): No such file or directory.\r\n") }
            remove(path)
            return .reply("250 File deleted.\r\n")
        case "RNFR":
            let path = resolve(argument, in: session.directory)
            guard tree.kind(of: path) != nil, FilePaths.file(path) != "/" else { return .reply("550 \(argument): No such file or directory.\r\n") }
            session.renameFrom = path
            return .reply("350 Ready for RNTO.\r\n")
        case "RNTO":
            guard let source = session.renameFrom else { return .reply("503 RNFR first.\r\n") }
            session.renameFrom = nil
            return rename(source, to: resolve(argument, in: session.directory), argument: argument)
        case "FEAT":
            var features = ["EPRT", "EPSV", "MDTM", "MLST type*;size*;modify*;perm*;", "PASV", "REST STREAM", "SIZE", "TVFS", "UTF8"]
            if offersTLS { features = ["AUTH TLS", "AUTH SSL"] + features + ["PBSZ", "PROT"] }
            return .reply("211-Features:\r\n" + features.map { " \($0)\r\n" }.joined() + "211 End\r\n")
        case "OPTS":
            let option = argument.uppercased()
            if option.hasPrefix("UTF8") || option.hasPrefix("MLST") { return .reply("200 OK.\r\n") }
            return .reply("501 Option not understood.\r\n")
        default:
            return .reply("502 \(verb) is not implemented.\r\n")
        }
    }

    /// Stores an upload's bytes at `path` from `offset` (past the end, the gap is zeros), as the
    /// server's file there.
    package mutating func store(_ bytes: [UInt8], at path: String, offset: Int) {
        var content: [UInt8] = []
        if case .file(let name)? = tree.kind(of: path) {
            content = files[name] ?? []
            files[name] = nil
        }
        if offset == 0 {
            content = bytes
        } else {
            // `answer` refused a gap past `maximumUploadGap`; a file shrunk since by another session
            // cannot make it longer than the file was.
            if content.count < offset { content += [UInt8](repeating: 0, count: min(offset - content.count, Self.maximumUploadGap)) }
            content = Array(content.prefix(offset)) + bytes
        }
        let file = FilePaths.file(path)
        files[file] = content
        times.touch(file, at: now)
        changed(FilePaths.parent(file))
    }

    // MARK: - Paths

    /// `argument` (absolute, or relative to `directory`) as a path: `.` and `..` resolved, never
    /// above `/`. FTP paths are not percent-encoded.
    package static func resolve(_ argument: String, in directory: String) -> String {
        FilePaths.file(FilePaths.resolved(argument.hasPrefix("/") ? argument : FilePaths.folder(directory) + argument))
    }

    private func resolve(_ argument: String, in directory: String) -> String { Self.resolve(argument, in: directory) }

    /// `path` in double quotes, inner quotes doubled (RFC 959's 257 reply).
    static func quoted(_ path: String) -> String { "\"" + path.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// `CWD` and `CDUP`: into `path` when it is a folder, `550` otherwise (a missing path or a file).
    private func changeDirectory(to path: String, argument: String, session: inout FTPSessionState) -> FTPAnswer {
        guard tree.kind(of: path) == .folder else { return .reply("550 \(argument): No such directory.\r\n") }
        session.directory = FilePaths.folder(path)
        return .reply("250 Directory changed to \(FilePaths.file(path)).\r\n")
    }

    // MARK: - Changes

    private mutating func changed(_ folder: String) {
        times.folderChanged(folder, at: now)
    }

    private mutating func remove(_ path: String) {
        store.remove(path, at: now)
    }

    private mutating func rename(_ source: String, to destination: String, argument: String) -> FTPAnswer {
        guard let kind = tree.kind(of: source) else { return .reply("550 The file to rename is gone.\r\n") }
        guard tree.kind(of: FilePaths.parent(destination)) == .folder else { return .reply("553 \(argument): No such directory.\r\n") }
        if kind == .folder, FilePaths.folder(destination).hasPrefix(FilePaths.folder(source)) {
            return .reply("553 A directory cannot move inside itself.\r\n")
        }
        if tree.kind(of: destination) == .folder { return .reply("553 \(argument): A directory is in the way.\r\n") }
        store.copy(source, to: destination, move: true, at: now)
        return .reply("250 Rename successful.\r\n")
    }

    // MARK: - Reading

    private func retrieve(_ argument: String, in directory: String, from offset: Int) -> FTPAnswer {
        let bytes: [UInt8]
        if files.isEmpty {
            bytes = data
        } else {
            guard case .file(let name)? = tree.kind(of: resolve(argument, in: directory)) else {
                return .reply("550 \(argument): No such file or directory.\r\n")
            }
            bytes = files[name] ?? []
        }
        guard offset <= bytes.count else { return .reply("554 Restart offset \(offset) is past the end (\(bytes.count) bytes).\r\n") }
        return .download(preliminary: "150 Opening BINARY mode data connection for \(argument) (\(bytes.count - offset) bytes).\r\n",
                         bytes: Array(bytes[offset...]), final: "226 Transfer complete.\r\n")
    }

    private func listing(_ verb: String, argument: String, in directory: String) -> FTPAnswer {
        if let listingOverride, verb != "MLSD" {
            return .download(preliminary: "150 Here comes the directory listing.\r\n", bytes: listingOverride, final: "226 Directory send OK.\r\n")
        }
        // `LIST -la` and the like: options are ls's, not a path.
        let target = argument.split(separator: " ").filter { !$0.hasPrefix("-") }.joined(separator: " ")
        let path = resolve(target.isEmpty ? "." : target, in: directory)
        guard let kind = tree.kind(of: path) else { return .reply("550 \(target): No such file or directory.\r\n") }
        let entries = kind == .folder ? tree.children(of: path) : [FilePaths.file(path)]
        if verb == "MLSD" && kind != .folder { return .reply("501 \(target): Not a directory.\r\n") }
        var text = ""
        for entry in entries {
            let name = FilePaths.lastSegment(entry)
            switch verb {
            case "NLST":
                // Names as the argument spelled the folder: `NLST sub` gives `sub/a`, a bare `NLST` just `a`.
                if target.isEmpty { text += name } else if kind == .folder { text += FilePaths.folder(target) + name } else { text += target }
                text += "\r\n"
            case "MLSD": text += facts(entry) + name + "\r\n"
            default: text += longLine(entry, name: name) + "\r\n"
            }
        }
        let preliminary = verb == "NLST" ? "150 Here comes the file list.\r\n" : "150 Here comes the directory listing.\r\n"
        return .download(preliminary: preliminary, bytes: Array(text.utf8), final: "226 Directory send OK.\r\n")
    }

    /// An `ls -l` line: a time for dates within six months of now, the year otherwise.
    private func longLine(_ path: String, name: String) -> String {
        let isFolder = path.hasSuffix("/")
        let size = isFolder ? 4096 : tree.files[path].flatMap { files[$0]?.count } ?? 0
        let modified = times.info(path).modified
        let time = Self.utc(modified)
        let recent = abs(now.timeIntervalSince(modified)) < 180 * 86_400
        let when = recent ? "\(UTCTime.twoDigits(time.hour)):\(UTCTime.twoDigits(time.minute))" : " \(time.year)"
        let sizeText = String(size)
        return (isFolder ? "drwxr-xr-x" : "-rw-r--r--") + "   1 mock     mock     " + String(repeating: " ", count: max(0, 12 - sizeText.count)) + sizeText
            + " \(time.monthAbbreviation) \(time.day < 10 ? " " : "")\(time.day) \(when) \(name)"
    }

    /// RFC 3659 facts for `MLSD` and `MLST`, ending in the space before the name.
    private func facts(_ path: String) -> String {
        let isFolder = tree.kind(of: path) == .folder
        let key = isFolder ? FilePaths.folder(path) : FilePaths.file(path)
        var facts = "type=\(isFolder ? "dir" : "file");"
        if !isFolder, let name = tree.files[key] { facts += "size=\(files[name]?.count ?? 0);" }
        facts += "modify=\(Self.timestamp(times.info(key).modified));perm=\(isFolder ? "flcdmpe" : "adfrw");"
        return facts + " "
    }

    /// `YYYYMMDDHHMMSS` in UTC, as `MDTM` and `modify=` give it.
    static func timestamp(_ date: Date) -> String {
        let time = utc(date)
        return "\(time.year)\(UTCTime.twoDigits(time.month))\(UTCTime.twoDigits(time.day))"
            + "\(UTCTime.twoDigits(time.hour))\(UTCTime.twoDigits(time.minute))\(UTCTime.twoDigits(time.second))"
    }

    /// The UTC calendar fields of `date`, to the second.
    private static func utc(_ date: Date) -> UTCTime {
        UTCTime(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
