import MockServerCore

/// How a protocol's connections are served, which the server composes without naming the protocol:
/// the driver of each connection (the script interpreter over a framer's units, or a driver of the
/// protocol's own), the listeners it needs beside the main port, and the ALPN ids it offers under TLS.
///
/// A protocol written outside the package frames its input and lets the script's patterns answer
/// each unit:
///
/// ```swift
/// struct Frames: ScriptProtocol {
///     let name = "FRAMES"
///     let schemes: Set<String> = ["frames"]
///     var connections: ScriptConnections { .framed { _ in LengthPrefixedFramer() } }
/// }
/// ```
public struct ScriptConnections: Sendable {
    /// Made once per start, with the bound ports' substitution values: what makes the driver of
    /// each accepted connection.
    package let drivers: @Sendable (ScriptConnectionContext) -> @Sendable () -> any StreamDriver
    /// Listeners bound beside the main port, in order; the first binds the configuration's second
    /// port (the server's `dataPort`); what each bound port means to the protocol's variables is
    /// its own ``ScriptListener/values``.
    package let listeners: [ScriptListener]
    /// The ALPN ids offered under TLS (`http/1.1`); none for a protocol without ALPN.
    public let applicationProtocols: [String]
    /// Whether a connection records the bytes it sends; a driver that records its own units (a
    /// WebSocket driver records messages, not frames) turns it off.
    package let recordsOutput: Bool
    /// What clients in the same process are answered by, made once per start with the
    /// connection context; `nil` (the default) for a protocol the server opens no in-process
    /// connector for. The server keeps what it makes, with a connector to its drivers, for the
    /// protocol's own in-process clients (HTTP's URLSession protocol), which know its type.
    package let localResponder: (@Sendable (ScriptConnectionContext) -> any Sendable)?
    /// What the driver carries out besides the shared steps (``MockServerCore/ReplyStep/output(_:)``):
    /// a script refuses, when it loads, a protocol command that hands its driver another type.
    package let outputType: any Sendable.Type

    package init(outputType: any Sendable.Type, applicationProtocols: [String] = [], recordsOutput: Bool = true,
                 localResponder: (@Sendable (ScriptConnectionContext) -> any Sendable)? = nil, listeners: [ScriptListener] = [], drivers: @escaping @Sendable (ScriptConnectionContext) -> @Sendable () -> any StreamDriver) {
        self.outputType = outputType
        self.drivers = drivers
        self.listeners = listeners
        self.applicationProtocols = applicationProtocols
        self.recordsOutput = recordsOutput
        self.localResponder = localResponder
    }

    /// Lines (LF, a CR before it dropped) up to the server's `maximumLineLength`, each answered by
    /// the script.
    public static let lines = framed { LineFramer(maximumLength: $0) }

    /// One unit per read, as the original MockServer did.
    public static let raw = framed { _ in RawFramer() }

    /// Units cut by a framer of the protocol's own, each answered by the script's patterns.
    ///
    /// - Parameter makeFramer: a new framer for each connection, given the server's longest unit
    ///   (`maximumLineLength`).
    public static func framed(by makeFramer: @escaping @Sendable (_ maximumLength: Int) -> any InputFramer) -> ScriptConnections {
        ScriptConnections(outputType: LineWork.self) { context in
            { ScriptLineDriver(server: context.server, base: context.base, framer: makeFramer(context.server.maximumLineLength)) }
        }
    }

    /// Units cut by a framer of the protocol's own that reads the server's settings, each answered
    /// by the script's patterns: a protocol's settings value in the configuration
    /// (`configuration.settings[FramesSettings.self]`) reaches each connection's framer.
    ///
    /// - Parameter makeFramer: a new framer for each connection, given the server's longest unit
    ///   (`maximumLineLength`) and the server's settings as its protocols composed them.
    public static func framed(with makeFramer: @escaping @Sendable (_ maximumLength: Int, _ settings: ScriptSettings) -> any InputFramer) -> ScriptConnections {
        ScriptConnections(outputType: LineWork.self) { context in
            let settings = context.settings
            return { ScriptLineDriver(server: context.server, base: context.base, framer: makeFramer(context.server.maximumLineLength, settings)) }
        }
    }

    /// The same connections with `listener` bound beside the main port.
    package func adding(_ listener: ScriptListener) -> ScriptConnections {
        ScriptConnections(outputType: outputType, applicationProtocols: applicationProtocols, recordsOutput: recordsOutput,
                          localResponder: localResponder, listeners: listeners + [listener], drivers: drivers)
    }

    /// The same connections offering `applicationProtocols` under TLS, in order of preference.
    package func offering(_ applicationProtocols: [String]) -> ScriptConnections {
        ScriptConnections(outputType: outputType, applicationProtocols: applicationProtocols, recordsOutput: recordsOutput,
                          localResponder: localResponder, listeners: listeners, drivers: drivers)
    }

    /// The connections of a script that `claimant` claims, framed as `framing`: as it says, or,
    /// for a script no protocol claims (one built in code), lines or raw reads.
    package static func of(_ claimant: (any ScriptProtocol)?, framing: Framing) -> ScriptConnections {
        claimant?.connections(framing: framing) ?? (framing == .raw ? .raw : .lines)
    }
}

/// What a connection's driver is made with: the server it runs on, the substitution values of
/// its bound ports, and the server's settings as its protocols composed them.
package struct ScriptConnectionContext: Sendable {
    /// The server whose scripts the connection runs.
    package let server: any ScriptServer
    /// The substitution values of the server's connections.
    package let base: SubstitutionContext
    /// The server's settings, each protocol's in its own type: its configuration's, with what the
    /// server's protocols added as they composed its connections (``ScriptProtocol/compose(_:script:settings:)``).
    package let settings: ScriptSettings

    package init(server: any ScriptServer, base: SubstitutionContext, settings: ScriptSettings = ScriptSettings()) {
        self.server = server
        self.base = base
        self.settings = settings
    }
}

/// A listener a protocol binds beside the server's main port, such as FTP's shared passive-data port.
package struct ScriptListener: Sendable {
    /// The listener on `socket`, made on the loop's thread with the context the main port's
    /// drivers are made with (the server, the bound ports' values, the settings).
    package let make: @Sendable (Socket, EventLoop, ScriptConnectionContext) -> Listener
    /// The substitution values its bound port gives the protocol's variables (FTP's `$dataport`),
    /// kept in ``SubstitutionContext/protocolValues``.
    package let values: @Sendable (_ port: UInt16) -> ScriptSettings

    package init(values: @escaping @Sendable (_ port: UInt16) -> ScriptSettings = { _ in ScriptSettings() },
                 make: @escaping @Sendable (Socket, EventLoop, ScriptConnectionContext) -> Listener) {
        self.make = make
        self.values = values
    }
}
