import MockServerCore

/// One step of a reply as the interpreter hands it to the connection's driver.
public enum ScriptStep: Sendable {
    /// Bytes sent exactly as given.
    case send([UInt8])
    /// A wait before the next step; the connection holds no thread meanwhile.
    case pause(Duration)
    /// Closes the connection once what came before is sent.
    case close
    /// A failure on demand.
    case fault(StreamFault)
    /// Network conditions from here on, once what came before is written (see
    /// ``ScriptCommand/conditions(_:)``); `nil` lifts them.
    case conditions(NetworkConditions?)
    /// Something only the driver of the script's protocol knows how to send, such as an HTTP
    /// response written for the request it answers.
    case output(any Sendable)
    /// Works out more steps when it is reached, on the server's thread, once the steps before it
    /// have been sent and their pauses waited out; the steps it returns run next, before any step
    /// that follows it. It must return quickly.
    case then(@Sendable () -> [ScriptStep])
}
