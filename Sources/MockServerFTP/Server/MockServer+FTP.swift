import MockServerEngine
import MockServerScript

extension MockServer {
    /// The text `«list»` and `«nlst»` send instead of a listing built from ``files``.
    public var listing: String? {
        get { withProtocolState { $0[FTPListingOverride.self].map { String(decoding: $0.bytes, as: UTF8.self) } } }
        set { withProtocolState { $0[FTPListingOverride.self] = newValue.map { FTPListingOverride(Array($0.utf8)) } } }
    }
}
