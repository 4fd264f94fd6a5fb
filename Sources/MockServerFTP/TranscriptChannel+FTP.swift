import MockServerCore

extension TranscriptChannel {
    /// FTP's data connections, passive and active: their transfers' byte counts, notes and closes.
    /// The control connection is the listener's own, ``TranscriptChannel/main``.
    public static let data = TranscriptChannel("data")
}
