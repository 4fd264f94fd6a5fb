@_spi(HotPath) import MockServerCore

/// Making, removing, renaming and subscribing to folders (IMAP's CREATE, DELETE, RENAME,
/// SUBSCRIBE, UNSUBSCRIBE, LSUB). Names are ``MailStore/folderSeparator``-joined paths; `INBOX`
/// in any case is `INBOX`.
extension MailStore {
    /// Checks a folder path: no empty level, no `.` or `..` level, nothing that steps outside the
    /// store (the store keeps no files, but a name is one path everywhere, seeds included).
    package static func validateFolderName(_ name: String) throws(MailFolderError) {
        let levels = name.split(separator: folderSeparator, omittingEmptySubsequences: false)
        guard !name.isEmpty, levels.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }),
              !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { throw .invalidName(name) }
    }

    /// Makes a folder (and the levels above it that are not there, as RFC 9051 §6.3.4 allows).
    package func createFolder(_ name: String, of address: String) throws(MailFolderError) {
        let name = Self.folderName(name.hasSuffix(String(Self.folderSeparator)) ? String(name.dropLast()) : name)
        try Self.validateFolderName(name)
        let address = MailboxAddress(address)
        let result: MailFolderError? = changing([address]) { state in
            if state.mailboxes[address]?[name] != nil { return .exists(name) }
            var path = ""
            for level in name.split(separator: Self.folderSeparator) {
                path += path.isEmpty ? String(level) : "\(Self.folderSeparator)\(level)"
                state.makeFolder(path, of: address)
            }
            return nil
        }
        if let result { throw result }
    }

    /// Removes a folder with its messages; `INBOX` and a folder with folders under it stay.
    package func deleteFolder(_ name: String, of address: String) throws(MailFolderError) {
        let name = Self.folderName(name), address = MailboxAddress(address)
        let result: MailFolderError? = changing([address]) { state in
            guard name != Self.inbox else { return .inboxCannotBeDeleted }
            guard let folders = state.mailboxes[address], folders[name] != nil else { return .nonexistent(name) }
            let prefix = name + String(Self.folderSeparator)
            if folders.keys.contains(where: { $0.hasPrefix(prefix) }) { return .hasChildren(name) }
            _ = state.removeEntries(of: address, folder: name) { _ in true }
            state.mailboxes[address]![name] = nil
            return nil
        }
        if let result { throw result }
    }

    /// Renames a folder and the folders under it, keeping their UIDVALIDITY and messages; renaming
    /// `INBOX` moves its messages into a new folder and leaves `INBOX` empty (RFC 3501 §6.3.5).
    package func renameFolder(_ old: String, to new: String, of address: String) throws(MailFolderError) {
        let old = Self.folderName(old), new = Self.folderName(new), address = MailboxAddress(address)
        try Self.validateFolderName(new)
        let result: MailFolderError? = changing([address]) { state in
            guard let folders = state.mailboxes[address], folders[old] != nil else { return .nonexistent(old) }
            guard folders[new] == nil else { return .exists(new) }
            if old == Self.inbox {
                let moved = folders[old]!.entries
                state.makeFolder(new, of: address)
                for entry in moved {
                    state.mailboxes[address]![new]!.append(entry.transaction, flags: entry.flags, keywords: entry.keywords, internalDate: entry.internalDate)
                    state.place(entry.transaction.id, address: address, from: old, to: new)
                }
                state.mailboxes[address]![old]!.entries.removeAll()
                _ = state.mailboxes[address]![old]!.nextModSeq()
                return nil
            }
            let prefix = old + String(Self.folderSeparator)
            for name in folders.keys where name == old || name.hasPrefix(prefix) {
                let renamed = new + name.dropFirst(old.count)
                var folder = state.mailboxes[address]!.removeValue(forKey: name)!
                folder.name = renamed
                state.mailboxes[address]![renamed] = folder
                for entry in folder.entries { state.place(entry.transaction.id, address: address, from: name, to: renamed) }
                if state.subscriptions[address]?.remove(name) != nil { state.subscriptions[address, default: []].insert(renamed) }
            }
            return nil
        }
        if let result { throw result }
    }

    /// Adds a folder name to those `address` subscribes to (the folder need not exist, RFC 3501 §6.3.6).
    package func subscribe(_ name: String, of address: String) {
        let name = Self.folderName(name), address = MailboxAddress(address)
        state.withLock { _ = $0.subscriptions[address, default: []].insert(name) }
    }

    /// Removes a folder name from those `address` subscribes to; false when it was not there.
    @discardableResult
    package func unsubscribe(_ name: String, of address: String) -> Bool {
        let name = Self.folderName(name), address = MailboxAddress(address)
        return state.withLock { $0.subscriptions[address]?.remove(name) != nil }
    }

    /// The folder names `address` subscribes to, sorted.
    package func subscriptions(of address: String) -> [String] {
        state.withLock { $0.subscriptions[MailboxAddress(address)].map { $0.sorted() } ?? [] }
    }
}

extension MailStore.State {
    /// Notes that transaction `id`'s entry of `address` moved from folder `old` to `new`.
    mutating func place(_ id: String, address: MailboxAddress, from old: String, to new: String) {
        guard let index = placements[id]?.firstIndex(where: { $0.address == address && $0.folder == old }) else { return }
        placements[id]![index].folder = new
    }
}
