import Foundation

/// One message of a seed: whose, in which folder, its bytes, flags and time.
package struct MailSeedMessage: Sendable {
    /// The address of the folder it is under (`DIR/ADDRESS/`).
    package let address: MailboxAddress
    /// The folder (`INBOX`, `Archive/2026`).
    package let folder: String
    /// The file's path.
    package let path: String
    /// The file's bytes.
    package let raw: Data
    /// The flags of a Maildir name's `:2,` suffix (none for `.eml` files and `new/`).
    package let flags: MailFlags
    /// The keywords of the suffix's lowercase letters, named by the folder's `dovecot-keywords` file
    /// (`0 $Junk` names `a`), sorted; a letter it does not name is left out.
    package var keywords: [String] = []
    /// The Maildir name's leading timestamp, else the file's modification time.
    package let time: Date
}
