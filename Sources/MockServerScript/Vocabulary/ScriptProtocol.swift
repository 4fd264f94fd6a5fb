import MockServerCore

/// A protocol's part of the script language: the schemes it speaks, how its input is framed, and the
/// commands it adds to those every script has.
///
/// FTP, HTTP and WebDAV each provide one; ``ScriptVocabulary`` gathers them, and a response file's
/// `scheme` says which of them its commands may come from. A command of a protocol that the
/// script does not speak is an error when the file loads, at its line and column.
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
    /// The schemes of scripts that speak it (`ftp`; `http`, `https`).
    var schemes: Set<String> { get }
    /// How a script of one of ``schemes`` frames its input, unless it says otherwise. Lines by default.
    var framing: Framing { get }
    /// The framings under which a script with no scheme of this protocol may still use its
    /// commands (a script with no `scheme`, or one no protocol claims). By default, ``framing``
    /// alone.
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

    /// The command a string token stands for (one of ``tokens``).
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at ``ScriptDecoding/location``.
    func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand

    /// The command an object with `key` (one of ``keys``) stands for.
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at the offending value.
    func command(key: String, object: ScriptCommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand

    /// The protocol's settings: the file's top-level members of ``settingKeys`` (those it has, in
    /// file order; called only when there is one) decoded into the protocol's own `Sendable` type,
    /// which its driver reads back by type from ``ResponseScript/settings``.
    ///
    /// - Throws: ``ResponseFileError`` naming what is wrong, at the offending value.
    func settings(_ members: [JSONValue.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> any Sendable
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

    public func settings(_ members: [JSONValue.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> any Sendable {
        let member = members[0]
        throw decoding.error(.unknownKey(path: "", key: member.key, known: settingKeys), at: member.keyLocation)
    }

    public func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        throw decoding.error(.unknownToken(path: decoding.path, token: token, known: tokens))
    }

    public func command(key: String, object: ScriptCommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        throw decoding.error(.unknownKey(path: decoding.path, key: key, known: keys))
    }
}
