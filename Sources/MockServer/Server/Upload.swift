import Foundation

/// Bytes a client uploaded (STOR, APPE, STOU) through `«upload»`.
public struct Upload: Sendable, Hashable {
    /// The name the script selected, usually the command's argument.
    public let name: String
    /// The bytes exactly as received.
    public let data: Data
    /// The control connection it came through.
    public let connection: Int
}
