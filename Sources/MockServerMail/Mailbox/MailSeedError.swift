/// A seed (`--mail-dir`) that cannot be read, naming the path at fault.
package enum MailSeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The seed folder, or a folder or file in it, cannot be read.
    case unreadable(path: String, reason: String)
    /// A folder directly under the seed is not named as an address (`DIR/ADDRESS/`).
    case notAnAddress(path: String)
    /// The seed is not a folder.
    case notAFolder(path: String)

    /// The path at fault.
    package var path: String {
        switch self {
        case .unreadable(let path, _), .notAnAddress(let path), .notAFolder(let path): path
        }
    }

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot be read: \(reason)"
        case .notAnAddress(let path): "\(path): a seed folder must be named as an address (DIR/ADDRESS/)"
        case .notAFolder(let path): "\(path): the mail seed is not a folder"
        }
    }
}
