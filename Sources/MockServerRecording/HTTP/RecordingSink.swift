/// Where a recording writes what it records: a mock-data folder or an endpoints file.
protocol RecordingSink: Sendable {
    /// Writes `exchange` (at once, or kept for ``flush()``).
    func record(_ exchange: RecordedExchange) throws(RecordingError)
    /// Writes whatever is kept.
    func flush() throws(RecordingError)
    /// The files written so far, by path.
    var writtenFiles: [String] { get }
}
