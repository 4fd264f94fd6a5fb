/// One step of a scripted response, as written in a response file or in code.
public enum Command: Sendable, Hashable {
    /// Sends text after substitutions (see ``Template``).
    case send(Template)
    /// Sends bytes exactly as given.
    case sendBytes([UInt8])
    /// Sends the server's ``MockServer/data`` (`«data»` in a response file).
    case sendData
    /// Waits before the next command, without blocking any other connection.
    case pause(Duration)
    /// Closes the connection once everything before it has been sent (`«close»`).
    case close
    /// Switches this connection, and only this one, to another response set.
    case useSet(String)
}
