/// The text `«list»` and `«nlst»` send instead of a listing built from the files, as set on a
/// running server (`MockServer.listing`): kept in the server's protocol state under this type.
package struct FTPListingOverride: Sendable, Hashable {
    /// The listing's bytes.
    package var bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}
