extension Transcript {
    /// Which of a connection's exchanges an input belongs to, on a protocol that carries several at
    /// once: the protocol's name as it spells it and the number of the stream it came on.
    ///
    /// The driver that records the input sets it; the transcript only keeps and shows it (the entry's
    /// line ends with `(HTTP/2 stream 3)`, the admin API's JSON has `"protocol"` and `"stream"`).
    /// Inputs of protocols that carry one exchange at a time (HTTP/1.1, FTP, the line protocols) have none.
    ///
    /// ```swift
    /// let streams = server.transcript.entries.compactMap { $0.exchange?.stream }   // [1, 3]
    /// ```
    public struct Exchange: Sendable, Hashable, CustomStringConvertible {
        /// The protocol's name, such as `HTTP/2`.
        public let protocolName: String
        /// The stream's number on its connection, if the protocol numbers them.
        public let stream: Int?

        /// An exchange of `protocolName`, on stream `stream` if the protocol numbers them.
        public init(protocolName: String, stream: Int? = nil) {
            self.protocolName = protocolName
            self.stream = stream
        }

        /// `HTTP/2 stream 3`, or the protocol's name alone.
        public var description: String { stream.map { "\(protocolName) stream \($0)" } ?? protocolName }
    }
}
