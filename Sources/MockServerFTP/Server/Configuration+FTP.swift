import Foundation
import MockServerCore
import MockServerEngine
import MockServerScript

extension MockServer.Configuration {
    /// FTP's settings in ``settings``: the value stored under ``MockServer/FTPServerSettings``, or
    /// the defaults when there is none; a change through it is stored.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.ftpSettings.uploadSettleTime = .milliseconds(20)
    /// ```
    public var ftpSettings: MockServer.FTPServerSettings {
        get { settings[MockServer.FTPServerSettings.self, default: MockServer.FTPServerSettings()] }
        set { settings[MockServer.FTPServerSettings.self] = newValue }
    }

    // The spellings FTP's settings had when they were the configuration's own (CHANGELOG.md, Unreleased).
    /// How long an FTP upload's data connection must be quiet before the script goes on.
    @available(*, deprecated, message: "use ftpSettings.uploadSettleTime")
    public var uploadSettleTime: Duration? {
        get { ftpSettings.uploadSettleTime }
        set { ftpSettings.uploadSettleTime = newValue }
    }

    /// The longest FTP upload taken, in bytes.
    @available(*, deprecated, message: "use ftpSettings.maximumUploadSize")
    public var maximumUploadSize: Int {
        get { ftpSettings.maximumUploadSize }
        set { ftpSettings.maximumUploadSize = newValue }
    }

    /// Creates a configuration with FTP's upload settle time.
    @available(*, deprecated, message: "use init(host:port:dataPort:serverName:maximumLineLength:transcriptLimit:transcriptObserver:uploadHandler:clock:logger:) and ftpSettings.uploadSettleTime")
    public init(host: String = "127.0.0.1", port: UInt16 = 0, dataPort: UInt16 = 0, serverName: String = "MockServer",
                maximumLineLength: Int = 1 << 20, transcriptLimit: Int = 100_000,
                transcriptObserver: (@Sendable (Transcript.Entry) -> Void)? = nil,
                uploadHandler: (@Sendable (MockServer.Upload) -> Void)? = nil,
                uploadSettleTime: Duration?,
                clock: @escaping @Sendable () -> Date = { Date() }, logger: MockServerLogger = .disabled) {
        self.init(host: host, port: port, dataPort: dataPort, serverName: serverName, maximumLineLength: maximumLineLength, transcriptLimit: transcriptLimit,
                  transcriptObserver: transcriptObserver, uploadHandler: uploadHandler, clock: clock, logger: logger)
        settings[MockServer.FTPServerSettings.self] = MockServer.FTPServerSettings(uploadSettleTime: uploadSettleTime)
    }
}
