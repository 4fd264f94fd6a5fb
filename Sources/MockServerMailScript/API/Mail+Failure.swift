import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// What the server does at a ``Point`` instead of its own answer.
    public enum Failure: Sendable, Hashable {
        /// Answers this code and text (`451`, `4.3.0 Try again later`); a code outside 200 to 599 is
        /// brought into that range. In SMTP a code below 400 is not a failure: it replaces the
        /// server's own success line. POP3 answers `-ERR` with a response code (`[SYS/TEMP]` for a
        /// 4xx code, `[AUTH]` at a login, `[SYS/PERM]` otherwise) unless the text starts with `[`.
        case reply(code: Int, text: String)
        /// Closes the connection at once, with no answer.
        case drop
        /// Closes the connection half-way through a message's data (DATA, BDAT) or a `RETR`.
        case dropMidway

        /// The sessions' form of the failure.
        var decision: MailFaultDecision {
            switch self {
            case .reply(let code, let text): .reply(code: code, text: text)
            case .drop: .drop
            case .dropMidway: .dropMidway
            }
        }
    }
}
