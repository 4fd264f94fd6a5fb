import MockServerEngine
import MockServerMail

extension MockServer.Mail {
    /// What the server does at a ``Point`` instead of its own answer.
    public enum Failure: Sendable, Hashable {
        /// Answers this code and text (`451`, `4.3.0 Try again later`); POP3 answers `-ERR text`.
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
