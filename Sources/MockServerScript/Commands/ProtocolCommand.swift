import MockServerCore

/// A script command that belongs to one protocol: FTP's transfers, HTTP's responses, WebDAV's
/// listings, or a command of your own.
///
/// A ``ScriptProtocol`` decodes it from a response file; code builds it directly and wraps it with
/// ``ScriptCommand/command(_:)``. When a reply reaches it, the interpreter calls ``run(_:in:)``
/// with the match it answers and the reply being carried out.
///
/// A command's ``Output`` says which drivers it can reach: a command that only sends bytes, pauses,
/// closes or fails has none (`Never`, the default) and fits every script; one that hands its driver
/// something of its own (an HTTP response, a WebSocket frame) has that driver's output type, and a
/// script whose connections have another driver refuses it when it loads.
///
/// ```swift
/// struct Shout: ProtocolCommand {
///     let text: ResponseTemplate
///     func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Never> {
///         let bytes = reply.render(text, match: match)
///         return .continue([.send(Array(String(decoding: bytes, as: UTF8.self).uppercased().utf8))])
///     }
/// }
/// ```
public protocol ProtocolCommand: Sendable, Hashable {
    /// What the command hands its driver besides the shared steps: `Never` (the default) for a
    /// command that fits every script, or the output type of the one driver it is written for.
    associatedtype Output: Sendable = Never

    /// Whether the command must wait until the reply reaches it (it reads or changes the server or
    /// the connection), rather than being worked out with the reply's first steps; what follows
    /// such a command is worked out once the steps it returns have run. `true` by default.
    var runsWhenReached: Bool { get }

    /// Carries the command out: the steps it sends at this point, or instead of the rest of the reply.
    ///
    /// - Parameters:
    ///   - match: the input the response answers, and its capture groups.
    ///   - reply: the reply being carried out: the server, the connection, the current values.
    func run(_ match: ScriptRun.Match, in reply: ScriptRun) -> ScriptRun.Outcome<Output>
}

extension ProtocolCommand {
    /// By default a command waits until the reply reaches it.
    public var runsWhenReached: Bool { true }

    /// Whether the command fits a driver whose output is `driverOutput`: it has no output of its
    /// own, or that one.
    package func fits(_ driverOutput: any Sendable.Type) -> Bool {
        Output.self == Never.self || Output.self == driverOutput
    }

    /// ``run(_:in:)``'s outcome as steps of a driver whose output is `Target`.
    ///
    /// The one place where a command's output type meets the run's: a script's load refuses a
    /// command that does not ``fits(_:)`` its driver (``ScriptVocabulary``; a script built in code
    /// is checked when a server takes it), so the command's output is `Never` or `Target` here; a
    /// ``ScriptResponder`` of one's own that answers with another driver's command is a programming error.
    package func outcome<Target: Sendable>(_ match: ScriptRun.Match, in reply: ScriptRun, as target: Target.Type) -> ScriptRun.Outcome<Target> {
        let outcome = run(match, in: reply)
        if let same = outcome as? ScriptRun.Outcome<Target> { return same }
        guard let none = outcome as? ScriptRun.Outcome<Never> else {
            preconditionFailure("\(self) hands its driver \(Output.self), and this script's driver takes \(Target.self): its load should have refused it")
        }
        return switch none {
        case .continue(let steps): .continue(steps.map { $0.widened() })
        case .instead(let steps): .instead(steps.map { $0.widened() })
        }
    }
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
    /// What a ``ProtocolCommand`` does to the rest of its reply, in steps of its `Output`.
    public enum Outcome<Output: Sendable>: Sendable {
        /// Sends these steps here; the rest of the reply follows.
        case `continue`([ReplyStep<Output>])
        /// Sends these steps instead of the rest of the reply (an `otherwise` branch, an error reply).
        case instead([ReplyStep<Output>])
    }
}
