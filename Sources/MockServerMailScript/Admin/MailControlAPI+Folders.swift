import MockServerCore
import MockServerMail
import MockServerScript

/// The folders routes: every address with its folders, one address's folders, one folder's
/// messages, and a UIDVALIDITY change.
extension MailControlAPI {
    /// `GET /api/v1/mockserver/mailboxes?start=N&limit=N&messages=N`: the addresses from `start`,
    /// at most `limit`, each with at most ``largestFolderList`` folders, each folder with its
    /// newest `messages` messages; `changes` is the token a `changes` poll compares.
    func mailboxes(_ query: [String: String]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        let start = try Self.wholeNumber(query, "start", default: 0, largest: Int.max)
        let limit = try Self.wholeNumber(query, "limit", default: Self.defaultLimit, largest: Self.largestLimit)
        let newest = try Self.wholeNumber(query, "messages", default: 0, largest: Self.largestMessagesPerFolder)
        let addresses = store.addresses
        let page = addresses.dropFirst(start).prefix(limit)
        return .init(json: .object([
            "total": .number(addresses.count), "start": .number(start), "count": .number(page.count),
            "changes": .string(changeToken()),
            "mailboxes": .array(page.map { mailbox($0.text, newest: newest) }),
        ]))
    }

    /// `GET /api/v1/mockserver/folders?address=A`: the folders of one address (404 when it has none).
    func folders(_ query: [String: String]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        let address = try Self.required(query, "address", example: "ann@example.com")
        try requireMailbox(address)
        return .init(json: mailbox(address, newest: 0))
    }

    /// `GET /api/v1/mockserver/folder?address=A&folder=F&start=N&limit=N`: one folder (`INBOX`
    /// when `folder` is not given) with its messages from `start` on, lowest UID first, at most `limit`.
    func folder(_ query: [String: String]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        let address = try Self.required(query, "address", example: "ann@example.com")
        let start = try Self.wholeNumber(query, "start", default: 0, largest: Int.max)
        let limit = try Self.wholeNumber(query, "limit", default: Self.defaultLimit, largest: Self.largestLimit)
        let folder = try existingFolder(query["folder"] ?? MailStore.inbox, of: address)
        return .init(json: MailControlJSON.folder(folder, messages: folder.entries.dropFirst(start).prefix(limit),
                                                  adding: ["address": .string(address), "start": .number(start)]))
    }

    /// `POST /api/v1/mockserver/uidvalidity` with `{"address": A, "folder": F}` (`folder` is
    /// `INBOX` when left out): gives the folder a new UIDVALIDITY and renumbers its messages from
    /// UID 1 (``MailStore/changeUIDValidity(folder:of:)``); answers `{"address", "folder", "uidValidity"}`.
    func changeUIDValidity(body: [UInt8]) throws(MailControlError) -> ScriptVocabulary.AdminRoute.Answer {
        let example = #"{"address": "ann@example.com", "folder": "INBOX"}"#
        let members = try Self.object(body, fields: ["address", "folder"], example: example)
        guard let address = members["address"]?.stringValue, !address.isEmpty else {
            throw MailControlError(400, "address must be the address whose folder changes, as a string: send \(example)")
        }
        var name = MailStore.inbox
        if let node = members["folder"] {
            guard let text = node.stringValue, !text.isEmpty else { throw MailControlError(400, "folder must be a folder's name as a string, not \(node.typeName)") }
            name = text
        }
        _ = try existingFolder(name, of: address)
        guard let validity = store.changeUIDValidity(folder: name, of: address) else {
            throw MailControlError(404, "folder \(name) of \(address) went away before its UIDVALIDITY changed")
        }
        return .init(json: .object(["address": .string(address), "folder": .string(MailStore.folderName(name)), "uidValidity": .number(Int(validity))]))
    }

    // MARK: Reading the store

    /// One address with its first ``largestFolderList`` folders, each with its newest `newest` messages.
    private func mailbox(_ address: String, newest: Int) -> JSONNode {
        let names = store.folders(of: address)
        let folders = names.prefix(Self.largestFolderList).compactMap { store.folder($0, of: address) }
        return .object([
            "address": .string(address), "folderCount": .number(names.count),
            "folders": .array(folders.map { MailControlJSON.folder($0, messages: newest > 0 ? $0.entries.suffix(newest) : nil) }),
        ])
    }

    /// Throws a 404 naming `address` when it has no mailbox.
    private func requireMailbox(_ address: String) throws(MailControlError) {
        guard !store.folders(of: address).isEmpty else {
            let known = store.addresses.map(\.text)
            throw MailControlError(404, "no mailbox for \(address)" + (known.isEmpty ? " (the store has none)" : " (addresses: \(Self.someOf(known)))"))
        }
    }

    /// The folder `name` of `address`, or a 404 naming the folder and the folders there are.
    private func existingFolder(_ name: String, of address: String) throws(MailControlError) -> MailFolder {
        try requireMailbox(address)
        guard let folder = store.folder(name, of: address) else {
            throw MailControlError(404, "no folder \(name) of \(address) (its folders: \(Self.someOf(store.folders(of: address))))")
        }
        return folder
    }

    /// The first 20 of `names`, joined by commas, with `…` after them when there are more: a
    /// refusal's list stays short whatever the store holds.
    private static func someOf(_ names: [String]) -> String {
        names.prefix(20).joined(separator: ", ") + (names.count > 20 ? ", …" : "")
    }
}
