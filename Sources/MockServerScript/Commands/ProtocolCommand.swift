import MockServerCore

/// A script command that belongs to one protocol: FTP's transfers, HTTP's responses, WebDAV's
/// listings, or a command of your own.
///
/// A ``ScriptProtocol`` decodes it from a response file; code builds it directly and wraps it with
/// ``ScriptCommand/command(_:)``. When a reply reaches it, the interpreter calls ``run(_:in:)``
/// with the match it answers and the reply being carried out.
///
/// ```swift
/// struct Shout: ProtocolCommand {
///     let text: ResponseTemplate
///     func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome {
///         let bytes = reply.render(text, match: match)
///         return .continue([.send(Array(String(decoding: bytes, as: UTF8.self).uppercased().utf8))])
///     }
/// }
/// ```
public protocol ProtocolCommand: Sendable, Hashable {
    /// Whether the command must wait until the reply reaches it (it reads or changes the server or
    /// the connection), rather than being worked out with the reply's first steps. `true` by default.
    var runsWhenReached: Bool { get }

    /// Carries the command out: the steps it sends at this point, or instead of the rest of the reply.
    ///
    /// - Parameters:
    ///   - match: the input the response answers, and its capture groups.
    ///   - reply: the reply being carried out: the server, the connection, the current values.
    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome
}

extension ProtocolCommand {
    /// By default a command waits until the reply reaches it.
    public var runsWhenReached: Bool { true }
}

/// A ``ProtocolCommand`` of any type, so that commands of every protocol can sit in one list.
public struct AnyProtocolCommand: Sendable, Hashable, CustomStringConvertible {
    /// The command.
    public let base: any ProtocolCommand

    /// Wraps `command`.
    public init(_ command: some ProtocolCommand) {
        self.base = command
    }

    public static func == (lhs: AnyProtocolCommand, rhs: AnyProtocolCommand) -> Bool {
        AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(base))
    }

    /// The command as Swift prints it.
    public var description: String { "\(base)" }
}

extension ScriptRun {
    /// What a ``ProtocolCommand`` does to the rest of its reply.
    public enum Outcome: Sendable {
        /// Sends these steps here; the rest of the reply follows.
        case `continue`([ScriptStep])
        /// Sends these steps instead of the rest of the reply (an `otherwise` branch, an error reply).
        case instead([ScriptStep])
    }
}
