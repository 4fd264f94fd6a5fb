import MockServerCore

extension Transcript.Channel {
    /// FTP's data connections, passive and active: their transfers' byte counts, notes and closes.
    /// The control connection is the listener's own, ``Transcript.Channel/main``.
    public static let data = Transcript.Channel("data")
}
