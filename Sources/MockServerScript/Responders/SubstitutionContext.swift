import Foundation
import MockServerCore

/// The values that ``ScriptVariable`` substitutions are replaced with when a reply is rendered.
///
/// The server fills this in for each reply; tests of a responder can build one by hand, with a
/// fixed clock for `$date`.
public struct SubstitutionContext: Sendable {
    /// The server's numeric address.
    public var address: String
    /// The server's display name.
    public var serverName: String
    /// The main listener's port.
    public var port: UInt16
    /// The bytes that `«data»` sends and `$size` counts: the selected file's, or the server's data.
    public var data: [UInt8]
    /// The selected file's name, or empty.
    public var fileName: String = ""
    /// The clock for `$date`.
    public var now: @Sendable () -> Date
    /// The values protocols' substitutions read, each protocol's in its own type (FTP's data port):
    /// the server's, with the connection's own (``ScriptConnectionStorage/protocolValues``) over them.
    public var protocolValues: ScriptSettings
    /// The substitutions protocols add (FTP's `$pasv`), by name. A `$name` that is neither a
    /// ``ScriptVariable`` nor one of these stays as written.
    public var protocolVariables: [String: ScriptProtocolVariable]
    /// The unit's body as its protocol took it apart (HTTP's de-chunked request body), which
    /// `{"save": …}` stores; `nil` (a line protocol) stores the whole unit.
    package var body: [UInt8]?

    /// Creates a context.
    public init(address: String = "127.0.0.1", serverName: String = "MockServer", port: UInt16 = 0,
                protocolValues: ScriptSettings = ScriptSettings(), data: [UInt8] = [], now: @escaping @Sendable () -> Date = { Date() },
                protocolVariables: [String: ScriptProtocolVariable] = [:]) {
        self.protocolValues = protocolValues
        self.protocolVariables = protocolVariables
        self.address = address
        self.serverName = serverName
        self.port = port
        self.data = data
        self.now = now
    }

    /// The text a variable is replaced with.
    package func value(of variable: ScriptVariable) -> String {
        switch variable {
        case .address: address
        case .server: serverName
        case .port: String(port)
        case .file: fileName
        case .size: String(data.count)
        case .date: UTCTime.rfc1123(secondsSince1970: Int64(now().timeIntervalSince1970.rounded(.down)))
        }
    }
}
