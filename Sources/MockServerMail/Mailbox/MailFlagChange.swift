import Foundation

/// What an IMAP STORE does to the flags of the messages it names (RFC 9051 §6.4.6): set them,
/// add to them or take from them, system flags and keywords alike.
package struct MailFlagChange: Sendable, Hashable {
    /// How the given flags combine with those there.
    package enum Mode: Sendable, Hashable {
        /// `FLAGS`: the flags become exactly these.
        case replace
        /// `+FLAGS`: these are added.
        case add
        /// `-FLAGS`: these are taken away.
        case remove
    }

    package var mode: Mode
    package var flags: MailFlags
    /// Keywords, as the client spelled them (compared case-insensitively, kept as first set).
    package var keywords: [String]

    package init(_ mode: Mode, flags: MailFlags, keywords: [String] = []) {
        self.mode = mode
        self.flags = flags
        self.keywords = keywords
    }

    /// Applies the change to an entry's flags and keywords.
    func apply(to flags: inout MailFlags, keywords: inout [String]) {
        switch mode {
        case .replace:
            flags = self.flags
            keywords = Self.unique(self.keywords)
        case .add:
            flags.formUnion(self.flags)
            keywords = Self.unique(keywords + self.keywords)
        case .remove:
            flags.subtract(self.flags)
            let removed = Set(self.keywords.map { $0.lowercased() })
            keywords.removeAll { removed.contains($0.lowercased()) }
        }
    }

    /// Keywords once each in any case (the first spelling kept), sorted.
    static func unique(_ keywords: [String]) -> [String] {
        var seen: Set<String> = []
        return keywords.filter { seen.insert($0.lowercased()).inserted }.sorted()
    }
}
