import MockServerCore

/// What a ``PatternResponder`` chose for an input, in the form a driver that runs constant replies
/// as they are needs it (``PatternResponder/choose(_:session:)``): the entry's connection steps
/// worked out when the script was loaded, or a ``ScriptReply`` to carry out.
///
/// The first spares a ``ScriptReply`` for each input, whose copy of the entry's commands, match and
/// steps retains and releases each of them (about 20 of each an HTTP request).
package enum ScriptChoice {
    /// An entry whose commands only send constant bytes, pause, close or fail, and cannot change
    /// the session: its steps as they are, and its name for the transcript.
    case prepared(ConstantStreamSteps, response: String)
    /// Any other entry's reply.
    case reply(ScriptReply)
}
