import MockServerCore

/// A protocol's part of the script language and of the server: the schemes it claims, the commands
/// it adds to those every script has, and how its connections are served (their driver or framing,
/// the listeners beside the main port, ALPN, the TLS form of its URL schemes).
///
/// FTP, HTTP and WebDAV each provide one; ``ScriptVocabulary`` gathers them, and a response file's
/// `scheme` names the one protocol that claims it: its commands (and those of the protocols it
/// ``extendedProtocols``) are the script's, and the server serves the script's connections as it says.
/// A scheme no protocol claims, and a command of a protocol that the script does not speak, are
/// errors when the file loads, at their line and column.
///
/// ```swift
/// struct Echo: ScriptProtocol {
///     let name = "ECHO"
///     let schemes: Set<String> = ["echo"]
///     let tokens = ["«echo»"]
///     func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
///         .command(EchoCommand())
///     }
/// }
/// ```
public protocol ScriptProtocol: Sendable {
    /// The protocol's name, for error messages (`FTP`, `HTTP`).
    var name: String { get }
    /// The schemes of scripts that speak it (`ftp`; `http`, `https`), in lower case. No other
    /// protocol of a vocabulary claims any of them.
    var schemes: Set<String> { get }
    /// Whether it serves scripts that name no scheme: the original MockServer's format, which FTP
    /// serves (lines, and a shared passive-data port). `false` by default.
    var servesScriptsWithoutScheme: Bool { get }
    /// The names of the protocols whose commands its scripts may use as well (WebDAV extends HTTP).
    /// None by default.
    var extendedProtocols: [String] { get }
    /// How a script of one of ``schemes`` frames its input, unless it says otherwise. Lines by default.
    var framing: Framing { get }
    /// The framings its scripts may ask for (`"framing"`); with ``servesEveryScheme``, those of the
    /// scripts its commands serve. By default, ``framing`` alone.
    var framings: Set<Framing> { get }
    /// The string commands it adds, such as `«passive»`.
    var tokens: [String] { get }
    /// The keys of the command objects it adds, such as `active` in `{"active": "$1"}`.
    var keys: [String] { get }
    /// The keys a command object with `key` may have beside it, such as `otherwise`. None by default.
    func companionKeys(of key: String) -> [String]
    /// The substitutions it adds to response text, such as FTP's `$pasv`. None by default.
    var variables: [ScriptProtocolVariable] { get }
    /// Whether its commands serve scripts of every scheme whose framing is one of ``framings``
    /// (TLS's `«starttls»` serves FTP, SMTP and any line protocol alike), not only its own
    /// ``schemes``. `false` by default.
    var servesEveryScheme: Bool { get }
    /// The top-level keys of a response file that it reads, beside those every file has
    /// (WebSocket's `path` and `subprotocols`). None by default.
    var settingKeys: [String] { get }
    /// The token of HTTP's `Upgrade` field (RFC 9110, section 7.8) under which an HTTP connection
    /// switches to a script of this protocol, as an endpoint's `"upgrade"` asks (WebSocket's
    /// `websocket`); `nil`, the default, for a protocol that HTTP does not switch to.
    var upgradeToken: String? { get }

    /// The routes it adds to the control API (`mockserver --admin`), which reports its state or
    /// changes it: verb, path and a handler answering a status and JSON. None by default.
    var adminRoutes: [ScriptVocabulary.AdminRoute] { get }

    /// How the server serves a connection of one of its scripts, whose input is framed as
    /// `framing` says (``framing``, unless the script names another): the script interpreter over
    /// lines by default, over raw reads for `raw`.
    func connections(framing: Framing) -> ScriptConnections

    /// The server's connections once this protocol, one of the server's, has had its say: a server
    /// asks each of its protocols in turn, whatever its script's scheme, so that a protocol may serve
    /// beside another (HTTP/2 takes over HTTP's connections that begin with its preface). It may
    /// read and add to the server's `settings` (its configuration's, each protocol's in its own
    /// type), which every connection's driver is made with, and refuse a `script` the settings do
    /// not allow. By default the connections are left as they are.
    ///
    /// - Throws: what stops the server from starting, such as a ``ResponseFileError`` naming what
    ///   the script asks for that the settings refuse.
    func compose(_ connections: ScriptConnections, script: ResponseScript?, settings: inout ScriptSettings) throws -> ScriptConnections

    /// The scheme of a URL of a server of one of its scripts: `scheme` as the script wrote it, or
    /// its TLS form when the server speaks TLS from the first byte (`http` → `https`). By default
    /// `scheme` itself.
    func urlScheme(for scheme: String, implicitTLS: Bool) -> String

    /// The command a shared command stands for in a script of one of its ``schemes``, as it is
    /// read: the command itself by default. WebSocket reads a byte send (`{"hex": …}`, `«data»`) as
    /// a binary message.
    func sharedCommand(_ command: ScriptCommand) -> ScriptCommand

    /// The command a string token stands for (one of ``tokens``).
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at ``ScriptDecoding/location``.
    func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand

    /// The command an object with `key` (one of ``keys``) stands for.
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at the offending value.
    func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand

    /// The protocol's settings: the file's top-level members of ``settingKeys`` (those it has, in
    /// file order; called only when there is one) decoded into the protocol's own `Sendable` type,
    /// which its driver reads back by type from ``ResponseScript/settings``.
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at the offending value.
    func settings(_ members: [JSONNode.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> any Sendable
}

extension ScriptProtocol {
    public var framing: Framing { .lines }
    public var framings: Set<Framing> { [framing] }
    public var tokens: [String] { [] }
    public var keys: [String] { [] }
    public func companionKeys(of key: String) -> [String] { [] }
    public var variables: [ScriptProtocolVariable] { [] }
    public var servesEveryScheme: Bool { false }
    public var settingKeys: [String] { [] }
    public var upgradeToken: String? { nil }
    public var servesScriptsWithoutScheme: Bool { false }
    public var extendedProtocols: [String] { [] }
    public var adminRoutes: [ScriptVocabulary.AdminRoute] { [] }

    public func connections(framing: Framing) -> ScriptConnections { framing == .raw ? .raw : .lines }

    public func compose(_ connections: ScriptConnections, script: ResponseScript?, settings: inout ScriptSettings) throws -> ScriptConnections {
        connections
    }

    public func urlScheme(for scheme: String, implicitTLS: Bool) -> String { scheme }

    public func sharedCommand(_ command: ScriptCommand) -> ScriptCommand { command }

    public func settings(_ members: [JSONNode.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> any Sendable {
        let member = members[0]
        throw decoding.error(.unknownKey(path: "", key: member.key, known: settingKeys), at: member.keyLocation)
    }

    public func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        throw decoding.error(.unknownToken(path: decoding.path, token: token, known: tokens))
    }

    public func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        throw decoding.error(.unknownKey(path: decoding.path, key: key, known: keys))
    }
}
