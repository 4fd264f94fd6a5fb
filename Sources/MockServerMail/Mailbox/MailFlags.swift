/// The flags of one mailbox entry: IMAP's system flags (RFC 3501 §2.3.2), which Maildir's `:2,`
/// suffix spells as letters (D F P R S T).
package struct MailFlags: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `\Seen`, Maildir's `S`.
    package static let seen = MailFlags(rawValue: 1 << 0)
    /// `\Answered`, Maildir's `R` (replied).
    package static let answered = MailFlags(rawValue: 1 << 1)
    /// `\Flagged`, Maildir's `F`.
    package static let flagged = MailFlags(rawValue: 1 << 2)
    /// `\Deleted`, Maildir's `T` (trashed).
    package static let deleted = MailFlags(rawValue: 1 << 3)
    /// `\Draft`, Maildir's `D`.
    package static let draft = MailFlags(rawValue: 1 << 4)
    /// Maildir's `P` (passed: forwarded), which Dovecot shows as the keyword `$Forwarded`.
    package static let passed = MailFlags(rawValue: 1 << 5)

    /// The Maildir letters of each flag, in the ASCII order a Maildir name lists them.
    package static let maildirLetters: [(Character, MailFlags)] = [
        ("D", .draft), ("F", .flagged), ("P", .passed), ("R", .answered), ("S", .seen), ("T", .deleted),
    ]

    /// The flags of a Maildir file name's `:2,` suffix (`1700000000.M1P1.host:2,FS`); none without
    /// one. Letters it does not know (lowercase keywords) are left out.
    package init(maildirName name: String) {
        self = []
        guard let info = name.range(of: ":2,", options: .backwards) else { return }
        for letter in name[info.upperBound...] {
            if let flag = Self.maildirLetters.first(where: { $0.0 == letter }) { insert(flag.1) }
        }
    }

    /// The flags as a Maildir `:2,` suffix's letters, in order (`FS`).
    package var maildirLetters: String {
        String(Self.maildirLetters.filter { contains($0.1) }.map(\.0))
    }

    /// The flags as IMAP spells them (`\Seen \Flagged`), `$Forwarded` for ``passed``.
    package var imapNames: [String] {
        let names: [(MailFlags, String)] = [(.seen, "\\Seen"), (.answered, "\\Answered"), (.flagged, "\\Flagged"),
                                            (.deleted, "\\Deleted"), (.draft, "\\Draft"), (.passed, "$Forwarded")]
        return names.filter { contains($0.0) }.map(\.1)
    }
}
