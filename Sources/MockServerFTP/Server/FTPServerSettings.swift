import MockServerEngine
import MockServerScript

extension MockServer {
    /// What a server's FTP connections do with uploads: FTP's part of the server's configuration,
    /// kept in ``MockServer/Configuration/settings`` under its own type.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.ftpSettings.uploadSettleTime = .milliseconds(50)
    /// configuration.ftpSettings.maximumUploadSize = 1 << 20
    /// ```
    public struct FTPServerSettings: Sendable, Hashable {
        /// How long an FTP upload's data connection must be quiet, once its bytes have begun, before
        /// the script goes on (its `226`) while the rest is still read to the end; `nil` or zero: only
        /// at the end. 300 ms by default. A script's `upload-settle` overrides it.
        ///
        /// FoundationNetworking's FTP upload on Linux keeps the data connection open until it reads
        /// the `226`, which a strict server sends only after the connection's end: both wait until
        /// libcurl gives up after a minute. curl, ftplib and lftp close within milliseconds, so the
        /// rule does not fire for them. A client that pauses longer than this mid-upload sees an early
        /// `226`; every byte it sends is still recorded, and the upload completes at the end.
        public var uploadSettleTime: Duration?
        /// The longest FTP upload taken (`STOR`, `APPE`, a script's `«upload»`), in bytes: 64 MiB by
        /// default. An upload is held in memory until it ends (and kept, as the fake file system's
        /// file), so past this the data connection is closed, nothing is kept, and the client gets
        /// `552` naming the limit.
        public var maximumUploadSize: Int

        /// Settings with these values; the defaults are the documented ones.
        public init(uploadSettleTime: Duration? = .milliseconds(300), maximumUploadSize: Int = 64 << 20) {
            self.uploadSettleTime = uploadSettleTime
            self.maximumUploadSize = maximumUploadSize
        }
    }
}
