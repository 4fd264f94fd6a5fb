import MockServerCore

/// What a command that works on a line connection itself (FTP's data channel, TLS's `«starttls»`)
/// hands the ``ScriptLineDriver``: the output type of line scripts.
///
/// Only the line driver carries it out, so such a command cannot reach an HTTP exchange or a
/// WebSocket: a script whose connections have another driver refuses it when it loads.
package struct LineWork: Sendable {
    /// Runs on the connection's loop thread when the reply reaches it; `.continue` steps run next,
    /// `.instead` steps replace the rest of the reply.
    package let run: @Sendable (StreamConnection) -> ScriptRun.Outcome<LineWork>

    /// Work that `run` does on the connection.
    package init(_ run: @escaping @Sendable (StreamConnection) -> ScriptRun.Outcome<LineWork>) {
        self.run = run
    }
}
