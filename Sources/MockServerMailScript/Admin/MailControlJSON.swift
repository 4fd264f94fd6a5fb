import Foundation
import MockServerCore
import MockServerMail

/// Folders and their messages as our mail routes (``MailControlAPI``) write them, in the control
/// API's camelCase: what an IMAP client sees of each (UIDVALIDITY, UIDs, flags, modification
/// sequences), with the Mailpit ID that `/api/v1/message/{ID}` takes.
enum MailControlJSON {
    /// A folder: `name`, `specialUse` (RFC 6154's attribute, `\Sent`, or null), `uidValidity`,
    /// `nextUID`, `highestModSeq`, `messageCount`, `unseenCount` and `keywords` (every keyword set
    /// in it); with `messages` when `messages` is given, and the fields of `adding`.
    static func folder(_ folder: MailFolder, messages: ArraySlice<MailboxEntry>? = nil, adding: [String: JSONNode] = [:]) -> JSONNode {
        var fields: [String: JSONNode] = [
            "name": .string(folder.name),
            "specialUse": IMAPSession.specialUse(of: folder.name).map(JSONNode.string) ?? .null,
            "uidValidity": .number(Int(folder.uidValidity)),
            "nextUID": .number(Int(folder.nextUID)),
            "highestModSeq": .number(Int(clamping: folder.highestModSeq)),
            "messageCount": .number(folder.entries.count),
            "unseenCount": .number(folder.unseenCount),
            "keywords": .array(folder.keywords.map(JSONNode.string)),
        ]
        if let messages { fields["messages"] = .array(messages.map(entry)) }
        return .object(fields.merging(adding) { _, added in added })
    }

    /// A message of a folder: `uid`, `flags` (system flags as IMAP spells them, `\Seen`),
    /// `keywords`, `modSeq`, `id` (the Mailpit ID), `subject`, `size` and `internalDate`.
    static func entry(_ entry: MailboxEntry) -> JSONNode {
        .object([
            "uid": .number(Int(entry.uid)),
            "flags": .array(entry.flags.imapNames.map(JSONNode.string)),
            "keywords": .array(entry.keywords.map(JSONNode.string)),
            "modSeq": .number(Int(clamping: entry.modSeq)),
            "id": .string(entry.transaction.id),
            "subject": .string(entry.transaction.message.subject),
            "size": .number(entry.transaction.size),
            "internalDate": .string(MailpitJSON.time(entry.internalDate)),
        ])
    }
}
