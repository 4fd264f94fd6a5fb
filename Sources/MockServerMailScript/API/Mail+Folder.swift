import Foundation
import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// A folder of one address as it is at one moment: its name, UIDVALIDITY and messages with
    /// their IMAP UIDs and flags.
    public struct Folder: Sendable, CustomStringConvertible {
        /// `INBOX`, or a path such as `Archive/2026`.
        public let name: String
        /// The folder's UIDVALIDITY.
        public let uidValidity: UInt32
        /// The UID the next message will get.
        public let nextUID: UInt32
        /// The messages, lowest UID first.
        public let messages: [Entry]

        /// One message of the folder.
        public struct Entry: Sendable {
            /// Its UID in the folder.
            public let uid: UInt32
            /// Its flags as IMAP spells them (`\Seen`, `\Flagged`, `$Forwarded`, keywords).
            public let flags: [String]
            /// The message, parsed.
            public let message: Message
        }

        init(_ folder: MailFolder) {
            name = folder.name
            uidValidity = folder.uidValidity
            nextUID = folder.nextUID
            messages = folder.entries.map { Entry(uid: $0.uid, flags: $0.flags.imapNames + $0.keywords, message: Message($0.transaction)) }
        }

        /// `INBOX (UIDVALIDITY 5): 1 [\Seen] "Subject", …`.
        public var description: String {
            "\(name) (UIDVALIDITY \(uidValidity)): " + messages.map { "\($0.uid) [\($0.flags.joined(separator: " "))] \"\($0.message.subject)\"" }.joined(separator: ", ")
        }
    }
}
