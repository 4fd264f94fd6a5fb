import Foundation

/// The messages of a seed folder (`--mail-dir DIR`), read once, never written to.
///
/// `DIR/ADDRESS/` is either a Maildir (it has `cur/` or `new/`: messages in both, `tmp/` ignored,
/// flags from the `:2,` suffix, keywords from its lowercase letters as the folder's
/// `dovecot-keywords` file names them, Maildir++ subfolders `.Sub.Folder` read as `Sub/Folder`) or a
/// folder of `.eml` files whose subfolders are folders (`DIR/ADDRESS/Archive/2026/x.eml` is in
/// `Archive/2026`). Files and folders whose names start with `.` (other than Maildir++ folders)
/// are skipped, as are files of other kinds at the top of `DIR` and, in an `.eml` tree, files
/// not ending in `.eml`. Symbolic links are skipped wherever they are: one may lead outside the
/// seed. Within a folder, messages go in the order of their file names (a Maildir name starts with
/// its delivery time).
package struct MailSeed: Sendable {
    /// The seed folder.
    package let directory: URL
    /// Every message, folder by folder, each folder in file-name order.
    package let messages: [MailSeedMessage]
    /// Every folder of every address, the empty ones too (a Maildir++ folder with no message).
    package let folders: [MailboxAddress: [String]]

    /// Reads `directory`.
    ///
    /// - Throws: ``MailSeedError``, naming the folder or file at fault.
    package init(directory: URL) throws(MailSeedError) {
        self.directory = directory
        var reader = Reader()
        guard Reader.isFolder(directory) else { throw .notAFolder(path: directory.path) }
        for child in try Reader.children(of: directory) where Reader.isFolder(child) {
            let address = MailboxAddress(child.lastPathComponent)
            guard address.isAddress else { throw .notAnAddress(path: child.path) }
            if Reader.isMaildir(child) {
                try reader.readMaildirTree(child, address: address)
            } else {
                try reader.readEMLFolder(child, address: address, folder: MailStore.inbox)
            }
        }
        messages = reader.messages
        folders = reader.folders
    }

    /// The walk over the seed, collecting messages and folders.
    private struct Reader {
        var messages: [MailSeedMessage] = []
        var folders: [MailboxAddress: [String]] = [:]

        static func isFolder(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }

        static func isMaildir(_ url: URL) -> Bool {
            isFolder(url.appendingPathComponent("cur")) || isFolder(url.appendingPathComponent("new"))
        }

        /// The entries of a folder, sorted by name, hidden ones (`.x`) included and symbolic links
        /// left out: a link may lead outside the seed, and the seed is read where it is.
        static func children(of folder: URL) throws(MailSeedError) -> [URL] {
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                return names.sorted().map { folder.appendingPathComponent($0) }.filter { !isSymbolicLink($0) }
            } catch {
                throw .unreadable(path: folder.path, reason: Self.reason(error))
            }
        }

        static func isSymbolicLink(_ url: URL) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeSymbolicLink
        }

        static func reason(_ error: any Error) -> String {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            return (underlying ?? error as NSError).localizedDescription
        }

        mutating func note(_ folder: String, of address: MailboxAddress) {
            if folders[address]?.contains(folder) != true { folders[address, default: []].append(folder) }
        }

        mutating func read(_ file: URL, address: MailboxAddress, folder: String, flags: MailFlags, time: Date?,
                           keywords: [String] = []) throws(MailSeedError) {
            let raw: Data
            let modified: Date?
            do {
                raw = try Data(contentsOf: file)
                modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
            } catch {
                throw .unreadable(path: file.path, reason: Self.reason(error))
            }
            messages.append(MailSeedMessage(address: address, folder: folder, path: file.path, raw: raw, flags: flags, keywords: keywords,
                                            time: time ?? modified ?? Date(timeIntervalSince1970: 0)))
        }

        /// A Maildir and its Maildir++ subfolders (`.Sub.Folder`).
        mutating func readMaildirTree(_ root: URL, address: MailboxAddress) throws(MailSeedError) {
            try readMaildir(root, address: address, folder: MailStore.inbox)
            for child in try Self.children(of: root) {
                let name = child.lastPathComponent
                guard name.hasPrefix("."), name != ".", name != "..", name.count > 1, Self.isMaildir(child) else { continue }
                let folder = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false).joined(separator: String(MailStore.folderSeparator))
                try readMaildir(child, address: address, folder: folder)
            }
        }

        /// One Maildir folder: `new/` and `cur/` together, in name order.
        mutating func readMaildir(_ root: URL, address: MailboxAddress, folder: String) throws(MailSeedError) {
            note(folder, of: address)
            var files: [(name: String, url: URL, isNew: Bool)] = []
            for (sub, isNew) in [("new", true), ("cur", false)] {
                let directory = root.appendingPathComponent(sub)
                guard Self.isFolder(directory) else { continue }
                for file in try Self.children(of: directory) where !file.lastPathComponent.hasPrefix(".") && !Self.isFolder(file) {
                    files.append((file.lastPathComponent, file, isNew))
                }
            }
            let names = Self.keywordNames(in: root)
            for file in files.sorted(by: { $0.name < $1.name }) {
                // A name in new/ has no flags yet (Maildir: the `:2,` suffix is added on moving to cur/).
                let flags = file.isNew ? MailFlags() : MailFlags(maildirName: file.name)
                let stamp = file.name.prefix { $0.isASCII && $0.isNumber }
                try read(file.url, address: address, folder: folder, flags: flags,
                         time: stamp.isEmpty ? nil : TimeInterval(stamp).map { Date(timeIntervalSince1970: $0) },
                         keywords: file.isNew ? [] : Self.keywords(ofMaildirName: file.name, names: names))
            }
        }

        /// The keyword names of a Maildir folder's `dovecot-keywords` file (`0 $Junk`, one a line: the
        /// number is the letter, 0 for `a`), by letter; none without the file or for a bad line.
        static func keywordNames(in root: URL) -> [Character: String] {
            let file = root.appendingPathComponent("dovecot-keywords")
            guard !isSymbolicLink(file), let text = try? String(contentsOf: file, encoding: .utf8) else { return [:] }
            var names: [Character: String] = [:]
            for line in text.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let index = Int(parts[0]), (0..<26).contains(index) else { continue }
                let name = parts[1].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, !name.hasPrefix("\\"), name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !"(){%*\"\\]".utf8.contains($0) }) else { continue }
                names[Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8(index)))] = name
            }
            return names
        }

        /// The keywords a Maildir name's `:2,` suffix names with lowercase letters, sorted.
        static func keywords(ofMaildirName name: String, names: [Character: String]) -> [String] {
            guard !names.isEmpty, let info = name.range(of: ":2,", options: .backwards) else { return [] }
            return Set(name[info.upperBound...].compactMap { names[$0] }).sorted()
        }

        /// A folder of `.eml` files; its subfolders are folders under it.
        mutating func readEMLFolder(_ root: URL, address: MailboxAddress, folder: String) throws(MailSeedError) {
            note(folder, of: address)
            var subfolders: [URL] = []
            for child in try Self.children(of: root) where !child.lastPathComponent.hasPrefix(".") {
                if Self.isFolder(child) {
                    subfolders.append(child)
                } else if child.pathExtension.lowercased() == "eml" {
                    try read(child, address: address, folder: folder, flags: [], time: nil)
                }
            }
            for child in subfolders {
                let name = child.lastPathComponent
                let path = folder == MailStore.inbox ? name : folder + String(MailStore.folderSeparator) + name
                try readEMLFolder(child, address: address, folder: path)
            }
        }
    }
}
