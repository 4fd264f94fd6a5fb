import MockServerCore

/// The server whose scripts run on an event loop, kept as the loop's attachment, so that a
/// connection that switches to a script mid-way (an HTTP endpoint's `"upgrade"`) finds the server's
/// transcript, files and substitution values without a protocol target naming the server.
package final class ScriptServerOnLoop: Sendable {
    /// The server.
    package let server: any ScriptServer
    /// The substitution values of its connections (address, ports, server name, clock).
    package let base: SubstitutionContext

    package init(server: any ScriptServer, base: SubstitutionContext) {
        self.server = server
        self.base = base
    }
}
