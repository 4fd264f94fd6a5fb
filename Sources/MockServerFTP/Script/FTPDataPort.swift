import MockServerScript

/// The data listener's port, as FTP's `$pasv`, `$epsv` and `$dataport` name it: the server's shared
/// one in a reply's substitution values, and a connection's own after `«passive»`.
package struct FTPDataPort: Sendable, Hashable {
    /// The port number.
    package let port: UInt16

    /// The data port `port`.
    package init(port: UInt16) {
        self.port = port
    }

    /// The data port of a reply's values: the connection's own, else the server's; 0 when neither.
    static func port(in context: SubstitutionContext) -> UInt16 {
        context.protocolValues[FTPDataPort.self]?.port ?? 0
    }
}
