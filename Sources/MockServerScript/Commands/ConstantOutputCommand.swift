import MockServerCore

/// A ``ProtocolCommand`` whose steps may be the same for every reply (HTTP's response without
/// substitutions): a ``ResponseEntry`` of such commands and constant sends, pauses, closes and faults
/// works its steps out once, when it is made (``ResponseEntry/constantOutputSteps``), so that a
/// driver finds them without a dynamic cast of each command at every reply.
package protocol ConstantOutputCommand: ProtocolCommand {
    /// The command's steps when they are the same for every reply; `nil` for a command worked out
    /// per reply.
    var constantSteps: [ReplyStep<Output>]? { get }
}

extension ConstantOutputCommand {
    /// The steps of `commands` when each is the same for every reply: a constant send, pause, close
    /// or fault (``ScriptRun/constantStep(of:)``), or a command of this type with
    /// ``constantSteps``; `nil` when one of them needs a ``ScriptRun``.
    package static func constantSteps(of commands: [ScriptCommand]) -> [ReplyStep<Output>]? {
        var steps: [ReplyStep<Output>] = []
        steps.reserveCapacity(commands.count)
        for command in commands {
            if let step = ScriptRun.constantStep(of: command) {
                steps.append(step.widened())
            } else if case .protocolCommand(let wrapped) = command, let own = (wrapped.base as? Self)?.constantSteps {
                steps += own
            } else {
                return nil
            }
        }
        return steps
    }

    /// ``constantSteps(of:)`` kept in a ``ConstantReplySteps`` of this command's output.
    fileprivate static func prepared(_ commands: [ScriptCommand]) -> (any AnyObject & Sendable)? {
        constantSteps(of: commands).map(ConstantReplySteps.init)
    }
}

extension ResponseEntry {
    /// The steps of `commands` worked out once, in the output of their first
    /// ``ConstantOutputCommand``, when each is the same for every reply; `nil` otherwise (and for
    /// commands that have none, which ``plainSteps`` covers).
    static func constantOutputSteps(of commands: [ScriptCommand]) -> (any AnyObject & Sendable)? {
        for command in commands {
            if case .protocolCommand(let wrapped) = command, let constant = wrapped.base as? any ConstantOutputCommand {
                return type(of: constant).prepared(commands)
            }
        }
        return nil
    }
}
