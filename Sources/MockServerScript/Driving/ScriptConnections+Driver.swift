import MockServerCore

extension ScriptConnections {
    /// A connection driver of a protocol's own, beside the script interpreter: a state value that
    /// takes a connection's bytes in and gives ``Action``s out (send, record, pause, close). The
    /// server does the I/O, the timing, the limits and the transcript; the driver never sees a socket.
    ///
    /// The server keeps the bytes a driver has not consumed yet and hands them all to
    /// ``read(_:)`` as one slice of its buffer (no copy): the driver removes from its front what it
    /// consumed (`input.removeFirst(n)`, or `input = input[end...]`) and returns what answers it.
    /// The server calls ``read(_:)`` again while the driver consumes or acts, and reads more input
    /// once it does neither. What the driver leaves is bounded: past `maximumInput` bytes
    /// (``ScriptConnections/driven(maximumInput:by:)``) the connection closes as
    /// ``Transcript/CloseReason/inputTooLong(limit:)``, so that no peer decides how much memory
    /// the server uses.
    ///
    /// ```swift
    /// struct Echo: ScriptConnections.Driver {
    ///     mutating func read(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action] {
    ///         guard let end = input.firstIndex(of: UInt8(ascii: "\n")) else { return [] }
    ///         let line = Array(input[..<end])
    ///         input = input[(end + 1)...]
    ///         return [.record(line), .send(line + [UInt8(ascii: "\n")])]
    ///     }
    /// }
    /// ```
    ///
    /// A driver lives on the server's loop thread, one per connection: it need not be `Sendable`,
    /// and it must not block.
    public protocol Driver {
        /// What to do when the connection opens (a banner, say); nothing by default.
        ///
        /// - Parameter connection: the connection's number in the server's transcript.
        mutating func opened(connection: Int) -> [ScriptConnections.Action]
        /// What answers the start of `input`, the bytes received and not consumed yet: remove what
        /// it consumed from the front of `input`; return `[]` without consuming to wait for more.
        mutating func read(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action]
        /// The peer finished sending; `input` holds what was never consumed. The connection closes
        /// once the actions returned have run. By default nothing more is sent.
        mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action]
        /// The connection closed, for `reason`; release what belongs to it. Nothing by default.
        mutating func closed(reason: Transcript.CloseReason)
    }
}

extension ScriptConnections.Driver {
    public mutating func opened(connection: Int) -> [ScriptConnections.Action] { [] }
    public mutating func inputEnded(_ input: inout ArraySlice<UInt8>) -> [ScriptConnections.Action] { [] }
    public mutating func closed(reason: Transcript.CloseReason) {}
}
