import Foundation

/// SEARCH and SORT (and their UID forms), with ESEARCH's RETURN options and SEARCHRES's `$`.
extension IMAPSession {
    /// SEARCH [RETURN (…)] [CHARSET name] keys.
    mutating func search(_ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool) throws(IMAPCommandError) -> [MailAction] {
        var (address, selection) = try selected()
        let parsed: IMAPSearchCommand
        switch IMAPSearchCommand.parse(arguments.rest) {
        case .success(let value): parsed = value
        case .failure(let error): throw Self.commandError(error)
        }
        let matches = matching(parsed.key, in: selection)
        var output = IMAPOutput()
        let numbers = matches.map { uid ? selection.entries[$0].uid : UInt32($0 + 1) }
        let highestModSeq = parsed.key.usesModSeq ? matches.map { selection.entries[$0].modSeq }.max() : nil
        if let options = parsed.returnOptions {
            guard settings.offers("ESEARCH") else { throw .bad("Unknown SEARCH option RETURN.") }
            if options.contains(.save) {
                guard settings.offers("SEARCHRES") else { throw .bad("Unknown SEARCH return option SAVE.") }
                selection.saved = options.saved(from: matches.map { selection.entries[$0].uid })
            }
            IMAPSearchResponse.esearch(tag: command.tag, uid: uid, numbers, options: options, modSeq: highestModSeq, into: &output)
        } else if revision2 {
            IMAPSearchResponse.esearch(tag: command.tag, uid: uid, numbers, options: .all, modSeq: highestModSeq, into: &output)
        } else {
            IMAPSearchResponse.search(numbers, modSeq: highestModSeq, into: &output)
        }
        state = .selected(address, selection)
        return okAfter(command, &output, text: "Search completed.")
    }

    /// SORT (criteria) charset keys (RFC 5256).
    mutating func sort(_ command: IMAPCommand, _ arguments: inout IMAPArguments, uid: Bool) throws(IMAPCommandError) -> [MailAction] {
        let (_, selection) = try selected()
        let parsed: IMAPSortCommand
        switch IMAPSortCommand.parse(arguments.rest) {
        case .success(let value): parsed = value
        case .failure(let error): throw Self.commandError(error)
        }
        let matches = matching(parsed.key, in: selection)
        let candidates = matches.map { IMAPSearchEntry(selection: selection, position: $0, recent: selection.isRecent($0)) }
        let ordered = parsed.ordered(candidates)
        var output = IMAPOutput()
        let highestModSeq = parsed.key.usesModSeq ? ordered.map(\.modSeq).max() : nil
        IMAPSearchResponse.sort(ordered.map { uid ? $0.uid : $0.sequenceNumber }, modSeq: highestModSeq, into: &output)
        return okAfter(command, &output, text: "Sort completed.")
    }

    /// The positions of the messages `key` matches, in order.
    private func matching(_ key: IMAPSearchKey, in selection: IMAPSelection) -> [Int] {
        let context = IMAPSearchContext(messageCount: selection.count, largestUID: selection.largestUID, saved: selection.saved)
        return selection.entries.indices.filter { position in
            context.matches(key, IMAPSearchEntry(selection: selection, position: position, recent: selection.isRecent(position)))
        }
    }

    /// A search error as the command's answer.
    private static func commandError(_ error: IMAPSearchError) -> IMAPCommandError {
        switch error {
        case .badCharset: .no(error.text)
        case .bad(let text): .bad(text)
        }
    }
}
