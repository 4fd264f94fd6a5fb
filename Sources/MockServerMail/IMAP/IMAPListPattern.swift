/// A LIST reference and mailbox pattern (RFC 9051 §6.3.9), matched against folder names: `*`
/// matches any characters, `%` any characters except the hierarchy delimiter. Matching runs the
/// pattern as a set of positions over the name, so it takes at most the name's length times the
/// pattern's length steps whatever the wildcards, with no backtracking.
package struct IMAPListPattern: Sendable {
    /// One element of a pattern.
    private enum Token: Equatable, Sendable {
        case literal(Unicode.Scalar)
        case any
        case anyWithinLevel
    }

    /// The longest pattern accepted, in characters, after the reference is prepended.
    package static let maximumLength = 1_024

    /// The pattern with consecutive wildcards folded (`**`, `*%` and `%*` are `*`).
    private let tokens: [Token]

    /// The reference and the pattern, joined as the server reads them: the pattern is appended
    /// to the reference, unless it starts with the delimiter (then it stands alone). Both are
    /// Unicode (decoded from modified UTF-7 by the caller). A leading `INBOX` in any case is
    /// matched as `INBOX`.
    ///
    /// - Throws: ``IMAPMailboxNameError/tooLong(length:)`` for a pattern longer than
    ///   ``maximumLength`` characters, or ``IMAPMailboxNameError/controlCharacter(_:)``.
    package init(reference: String = "", pattern: String) throws(IMAPMailboxNameError) {
        var whole = pattern.first == IMAPMailboxName.delimiter ? pattern : reference + pattern
        let firstLevel = whole.prefix { $0 != IMAPMailboxName.delimiter }
        if firstLevel.uppercased() == "INBOX" { whole = "INBOX" + whole.dropFirst(firstLevel.count) }
        let scalars = Array(whole.unicodeScalars)
        guard scalars.count <= Self.maximumLength else { throw .tooLong(length: scalars.count) }
        var tokens: [Token] = []
        for scalar in scalars {
            if IMAPMailboxName.isControl(scalar) { throw .controlCharacter(scalar.value) }
            let token: Token = switch scalar {
            case "*": .any
            case "%": .anyWithinLevel
            default: .literal(scalar)
            }
            switch (tokens.last, token) {
            case (.any, .any), (.any, .anyWithinLevel): continue
            case (.anyWithinLevel, .any): tokens[tokens.count - 1] = .any
            case (.anyWithinLevel, .anyWithinLevel): continue
            default: tokens.append(token)
            }
        }
        self.tokens = tokens
    }

    /// Whether `name` matches the pattern.
    package func matches(_ name: IMAPMailboxName) -> Bool {
        var steps = 0
        return matches(name.name, steps: &steps)
    }

    /// Whether the Unicode folder name `name` matches, counting the pattern positions visited
    /// in `steps`: at most twice the name's characters plus one, times the pattern's tokens plus
    /// one (one pass to step each character, one to let wildcards match nothing).
    package func matches(_ name: String, steps: inout Int) -> Bool {
        let delimiter = IMAPMailboxName.delimiter.unicodeScalars.first!
        var active = [Bool](repeating: false, count: tokens.count + 1)
        var next = active
        active[0] = true
        close(&active, steps: &steps)
        for scalar in name.unicodeScalars {
            for position in next.indices { next[position] = false }
            var any = false
            for (position, token) in tokens.enumerated() where active[position] {
                steps += 1
                switch token {
                case .literal(let expected):
                    if expected == scalar { next[position + 1] = true; any = true }
                case .any:
                    next[position] = true; any = true
                case .anyWithinLevel:
                    if scalar != delimiter { next[position] = true; any = true }
                }
            }
            guard any else { return false }
            swap(&active, &next)
            close(&active, steps: &steps)
        }
        return active[tokens.count]
    }

    /// Adds the positions reachable by letting wildcards match nothing.
    private func close(_ active: inout [Bool], steps: inout Int) {
        for (position, token) in tokens.enumerated() {
            steps += 1
            if active[position], token == .any || token == .anyWithinLevel { active[position + 1] = true }
        }
    }
}
