import MockServerCore
import MockServerEngine
import MockServerScript

/// What an FTP script's connections read beside its commands: the file's `upload-settle`, and what
/// the server gives (its configured settle time, a listing set by hand).
package struct FTPSettings: Sendable, Hashable {
    /// How long an upload's data connection must be quiet, once its bytes have begun, before the
    /// script goes on (the `226`) while the rest is read to the end; zero: only at the end; `nil`:
    /// never before the end.
    package var uploadSettle: Duration?
    /// The text `«list»` and `«nlst»` (and `«ftp»`'s `LIST` and `NLST`) send instead of a listing
    /// built from the files.
    package var listing: [UInt8]?
    /// The longest upload taken, in bytes (the server's `maximumUploadSize`); `nil`: ``defaultMaximumUpload``.
    package var maximumUpload: Int?

    /// An upload's limit when the server gives none: 64 MiB.
    package static let defaultMaximumUpload = 64 << 20

    /// Settings with `uploadSettle`, `listing` and `maximumUpload`.
    package init(uploadSettle: Duration? = nil, listing: [UInt8]? = nil, maximumUpload: Int? = nil) {
        self.uploadSettle = uploadSettle
        self.listing = listing
        self.maximumUpload = maximumUpload
    }

    /// What an FTP connection reads from `settings`, a server's ``ScriptServer/content()``: the
    /// script's `upload-settle`, or else the server's (``MockServer.FTPServerSettings``, or its defaults);
    /// the listing set by hand; the server's upload limit.
    package static func effective(in settings: ScriptSettings) -> FTPSettings {
        let server = settings[MockServer.FTPServerSettings.self] ?? MockServer.FTPServerSettings()
        var effective = settings[FTPSettings.self] ?? FTPSettings(uploadSettle: server.uploadSettleTime)
        effective.listing = settings[FTPListingOverride.self]?.bytes
        effective.maximumUpload = server.maximumUploadSize
        return effective
    }

    /// The settings a file's `upload-settle` member gives: a number of seconds from 0 to 60.
    ///
    /// - Throws: ``ResponseFileError`` naming `upload-settle`, at its value.
    static func decode(_ members: [JSONNode.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> FTPSettings {
        var settings = FTPSettings()
        for member in members where member.key == "upload-settle" {
            let value = member.value
            guard case .number(let seconds) = value.kind else {
                throw decoding.error(.wrongType(path: "upload-settle", expected: "a number of seconds (0: only at the end of the upload)", found: value.typeName), at: value.location)
            }
            guard seconds >= 0, seconds <= 60 else {
                throw decoding.error(.invalidValue(path: "upload-settle", reason: "upload-settle must be from 0 to 60 seconds, not \(seconds)"), at: value.location)
            }
            settings.uploadSettle = .rounded(seconds: seconds)
        }
        return settings
    }
}
