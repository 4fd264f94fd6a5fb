/// Why a folder could not be made, removed, renamed or written to: the text of IMAP's `NO`
/// answer and its response code (RFC 5530), naming the folder at fault.
package enum MailFolderError: Error, Sendable, Hashable {
    /// The folder is there already (CREATE, RENAME's target).
    case exists(String)
    /// There is no such folder (SELECT, DELETE, RENAME's source, APPEND's and COPY's target).
    case nonexistent(String)
    /// `INBOX` cannot be deleted.
    case inboxCannotBeDeleted
    /// The folder has folders under it (DELETE; as Dovecot, they go first).
    case hasChildren(String)
    /// The name cannot be a folder's: empty, `..`, a path that steps outside, an empty level.
    case invalidName(String)
    /// The store's byte limit cannot hold the message (APPEND).
    case overQuota(size: Int, limit: Int)
    /// The folder knows as many keywords as it may (APPEND with a new one).
    case tooManyKeywords(limit: Int)

    /// The response code (`NONEXISTENT`, `ALREADYEXISTS`, …), as the `NO` answer carries it.
    package var code: String {
        switch self {
        case .exists: "ALREADYEXISTS"
        case .nonexistent: "NONEXISTENT"
        case .inboxCannotBeDeleted, .invalidName: "CANNOT"
        case .hasChildren: "INUSE"
        case .overQuota: "OVERQUOTA"
        case .tooManyKeywords: "LIMIT"
        }
    }

    /// The human text after the code.
    package var text: String {
        switch self {
        case .exists(let name): "Mailbox \(name) already exists."
        case .nonexistent(let name): "Mailbox doesn't exist: \(name)"
        case .inboxCannotBeDeleted: "INBOX can't be deleted."
        case .hasChildren(let name): "Mailbox \(name) has children, delete them first."
        case .invalidName(let name): "Invalid mailbox name: \(name)"
        case .overQuota(let size, let limit): "Message of \(size) octets is larger than the mail store's limit of \(limit) octets."
        case .tooManyKeywords(let limit): "Too many keywords in the mailbox (limit \(limit))."
        }
    }
}
