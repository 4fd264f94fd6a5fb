import Foundation

/// A SORT command's arguments, parsed (RFC 5256 §3): `SORT (criteria) charset key…`; `UID SORT`
/// takes the same. The session searches with ``key``, then orders what matched with
/// ``ordered(_:)`` and answers `* SORT` with their numbers in that order.
package struct IMAPSortCommand: Sendable, Hashable {
    /// The criteria, most significant first.
    package var criteria: [IMAPSortCriterion]
    /// The charset named (UTF-8 or US-ASCII), as written; SORT always names one.
    package var charset: String
    /// The search criteria.
    package var key: IMAPSearchKey

    /// A sort.
    package init(criteria: [IMAPSortCriterion], charset: String = "UTF-8", key: IMAPSearchKey = .all) {
        self.criteria = criteria
        self.charset = charset
        self.key = key
    }

    /// Parses the arguments after `SORT` (or `UID SORT`).
    ///
    /// - Returns: the sort, or why it is refused: ``IMAPSearchError/bad(_:)`` for a malformed
    ///   command or a limit passed (the criteria list must not be empty, `REVERSE` must precede a
    ///   criterion), ``IMAPSearchError/badCharset(_:)`` for a charset other than UTF-8 and US-ASCII.
    package static func parse(_ arguments: ArraySlice<IMAPValue>, limits: IMAPSearchLimits = .init()) -> Result<IMAPSortCommand, IMAPSearchError> {
        Result { () throws(IMAPSearchError) -> IMAPSortCommand in
            var arguments = arguments
            guard case .list(let values)? = arguments.popFirst(), !values.isEmpty else {
                throw .bad("SORT must start with a list of sort criteria")
            }
            var criteria: [IMAPSortCriterion] = []
            var reversed = false
            for value in values {
                guard case .atom(let word) = value else { throw .bad("Unknown sort criterion \(IMAPSearchKeyParser.describe(value))") }
                let name = word.uppercased()
                if name == "REVERSE" {
                    reversed = true
                    continue
                }
                guard let field = IMAPSortField(rawValue: name) else { throw .bad("Unknown sort criterion \(IMAPSearchKeyParser.shorten(word))") }
                criteria.append(IMAPSortCriterion(field, reversed: reversed))
                reversed = false
            }
            guard !reversed else { throw .bad("REVERSE must be followed by a sort criterion") }
            guard let value = arguments.popFirst(), let bytes = value.stringBytes else { throw .bad("Missing charset after the sort criteria") }
            let charset = try IMAPSearchCommand.checkedCharset(String(decoding: bytes, as: UTF8.self))
            var parser = IMAPSearchKeyParser(arguments, limits: limits)
            return IMAPSortCommand(criteria: criteria, charset: charset, key: try parser.program())
        }
    }

    /// `candidates` in the order the criteria give, ties broken by ascending sequence number
    /// whatever `REVERSE` says (RFC 5256 §3; Dovecot does the same). Each candidate's values are
    /// computed once, from its raw header section (its message is never parsed).
    package func ordered<Candidate: IMAPSearchCandidate>(_ candidates: [Candidate]) -> [Candidate] {
        let keyed = candidates.map { candidate in (candidate, values(of: candidate)) }
        let criteria = self.criteria
        return keyed.sorted { left, right in
            for (index, criterion) in criteria.enumerated() where left.1[index] != right.1[index] {
                return criterion.reversed ? right.1[index] < left.1[index] : left.1[index] < right.1[index]
            }
            return left.0.sequenceNumber < right.0.sequenceNumber
        }.map(\.0)
    }

    /// The candidate's value for each criterion, in order.
    private func values(of candidate: some IMAPSearchCandidate) -> [IMAPSortValue] {
        var headers: MIMEHeaderSection?
        func header() -> MIMEHeaderSection {
            if let headers { return headers }
            let read = MIMEHeaderSection(messageHeaderOf: candidate.raw)
            headers = read
            return read
        }
        func firstAddress(_ name: String) -> MailMessage.Address? {
            header().values(name).lazy.flatMap { MIMEAddressList.parse($0) }.first
        }
        func mailbox(_ name: String) -> IMAPSortValue {
            let address = firstAddress(name)?.address ?? ""
            return IMAPSortValue(text: address.lastIndex(of: "@").map { String(address[..<$0]) } ?? address)
        }
        func display(_ name: String) -> IMAPSortValue {
            guard let address = firstAddress(name) else { return IMAPSortValue(text: "") }
            return IMAPSortValue(text: address.name.isEmpty ? address.address : address.name)
        }
        return criteria.map { criterion in
            switch criterion.field {
            case .arrival: .number(candidate.internalDate.timeIntervalSince1970)
            case .size: .number(Double(candidate.size))
            case .date: .number((header()["date"].flatMap(MIMEDate.parse) ?? candidate.internalDate).timeIntervalSince1970)
            case .subject: IMAPSortValue(text: IMAPBaseSubject.of(header()["subject"].map(MIMEEncodedWords.decode) ?? ""))
            case .from: mailbox("from")
            case .to: mailbox("to")
            case .cc: mailbox("cc")
            case .displayFrom: display("from")
            case .displayTo: display("to")
            }
        }
    }
}
