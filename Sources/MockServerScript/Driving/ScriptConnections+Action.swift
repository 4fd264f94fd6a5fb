import MockServerCore

extension ScriptConnections {
    /// What a protocol's own ``Driver`` asks of its connection, carried out in order: the server
    /// takes no more input from the connection until every action before has run.
    public enum Action: Sendable, Hashable {
        /// Sends bytes (shaped by the server's network conditions, as every send is).
        case send([UInt8])
        /// Records bytes as one input of the connection in the server's transcript, where
        /// `transcript.waitForInput(matching:)` and the control API find it.
        case record([UInt8])
        /// Waits before the next action, on a timer: no thread is held and no input is read meanwhile.
        case pause(Duration)
        /// Closes the connection once everything before it has been sent, for the reason given in
        /// a few words (the transcript's ``Transcript/CloseReason/finished(_:)``).
        case close(String)
    }
}
