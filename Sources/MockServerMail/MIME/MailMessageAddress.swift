extension MailMessage {
    /// One mailbox of an address field (`From`, `To`, `Cc`, `Bcc`): its display name, decoded, and its
    /// address. A group's mailboxes are listed as mailboxes (`Friends: a@example.com, b@example.com;`
    /// gives two); an empty group gives none.
    package struct Address: Sendable, Hashable, CustomStringConvertible {
        /// The display name, RFC 2047 words decoded, quotes removed; empty when there is none (a
        /// comment is not a name, as in Python's `email`).
        package let name: String
        /// The address (`local@domain`), as written, without angle brackets.
        package let address: String

        /// A mailbox with `name` (may be empty) and `address`.
        package init(name: String = "", address: String) {
            self.name = name
            self.address = address
        }

        /// `Name <address>`, or the address alone when there is no name.
        package var description: String {
            name.isEmpty ? address : "\(name) <\(address)>"
        }
    }
}
