import Foundation

extension POP3Session {
    /// The mechanisms this session implements.
    static let implementedMechanisms: Set<String> = ["PLAIN"]

    /// The mechanisms offered: the settings' that the session implements, in their order.
    var offeredMechanisms: [String] {
        settings.saslMechanisms.filter(Self.implementedMechanisms.contains)
    }

    /// AUTH (RFC 5034): with no argument, the mechanisms as a list (the discovery Outlook uses
    /// and Dovecot answers); with a mechanism, its exchange, begun with the initial response if
    /// one is given (`=` for an empty one).
    mutating func authCommand(_ command: POP3Command) -> [POP3Action] {
        let (name, initialResponse) = command.argumentWords
        guard !name.isEmpty else {
            return [.send(Array((["+OK"] + offeredMechanisms + ["."]).map { $0 + "\r\n" }.joined().utf8))]
        }
        let mechanism = name.uppercased()
        guard offeredMechanisms.contains(mechanism) else { return [Self.error("Unsupported authentication mechanism.")] }
        guard !initialResponse.isEmpty else {
            state = .authenticating(mechanism: mechanism)
            return [.send(Array("+ \r\n".utf8))]
        }
        return finishSASL(Array(initialResponse.utf8), mechanism: mechanism)
    }

    /// Answers one line of an AUTH exchange: the client's base64 response, or `*` to cancel.
    mutating func answerSASL(_ line: some Collection<UInt8>, mechanism: String) -> [POP3Action] {
        let response = Array(line)
        if response == [UInt8(ascii: "*")] {
            state = .authorization(user: nil)
            return [.record(response), Self.error("Authentication aborted by client.")]
        }
        return [.record(POP3Command.masked)] + finishSASL(response, mechanism: mechanism)
    }

    /// Ends the exchange with the client's response to the empty challenge (or the initial one).
    private mutating func finishSASL(_ encoded: [UInt8], mechanism: String) -> [POP3Action] {
        state = .authorization(user: nil)
        let decoded: [UInt8]
        if encoded == [UInt8(ascii: "=")] {
            decoded = []
        } else if let data = Data(base64Encoded: Data(encoded)) {
            decoded = Array(data)
        } else {
            return [Self.error("Invalid base64 data in continued response")]
        }
        // PLAIN (RFC 4616): authorization ID, NUL, login, NUL, password; acting as another
        // user (an authorization ID that is not the login) is refused.
        let parts = decoded.split(separator: 0, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[1].isEmpty else { return [Self.error(Self.loginFailure)] }
        let user = Self.text(parts[1]), password = Self.text(parts[2])
        guard parts[0].isEmpty || Self.text(parts[0]) == user else { return [Self.error(Self.loginFailure)] }
        return logIn(user: user) { $0.login(user: user, password: password) }
    }
}
