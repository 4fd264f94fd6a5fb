/// LIST (with LIST-EXTENDED's selection and return options, SPECIAL-USE and LIST-STATUS), LSUB
/// and STATUS.
extension IMAPSession {
    /// The most folders one LIST answers; past it the answer ends with a NO, so that no command
    /// makes an unbounded reply from patterns.
    static let listLimit = 100_000

    /// LIST [(selection)] reference pattern(s) [RETURN (options)], or LSUB reference pattern.
    mutating func list(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let lsub = command.name == "LSUB"
        var subscribedOnly = lsub, recursiveMatch = false, specialUseOnly = false
        if !lsub, case .list(let items)? = arguments.peek {
            _ = try arguments.next("selection options")
            for item in items {
                guard case .atom(let option) = item else { throw .bad("Invalid LIST selection option.") }
                switch option.uppercased() {
                case "SUBSCRIBED": subscribedOnly = true
                case "REMOTE": break
                case "RECURSIVEMATCH": recursiveMatch = true
                case "SPECIAL-USE": specialUseOnly = true
                default: throw .bad("Unknown LIST selection option \(option).")
                }
            }
            if recursiveMatch && !subscribedOnly { throw .bad("RECURSIVEMATCH needs another selection option.") }
        }
        let reference = try arguments.string("reference")
        var patterns: [[UInt8]] = []
        if !lsub, case .list(let items)? = arguments.peek {
            _ = try arguments.next("patterns")
            for item in items {
                guard let bytes = item.stringBytes else { throw .bad("Invalid mailbox pattern.") }
                patterns.append(bytes)
            }
        } else {
            patterns = [try arguments.string("mailbox pattern")]
        }
        var returnSubscribed = false, statusItems: [String]?
        if !lsub, !arguments.isAtEnd {
            guard try arguments.keyword("RETURN") == "RETURN" else { throw .bad("Expected RETURN.") }
            var options = IMAPArguments(try arguments.list("return options"))
            while !options.isAtEnd {
                switch try options.keyword("return option") {
                case "SUBSCRIBED": returnSubscribed = true
                case "CHILDREN": break
                case "SPECIAL-USE": break   // special use is always shown, as CHILDREN's attributes are
                case "STATUS" where settings.offers("LIST-STATUS"):
                    statusItems = try options.list("status items").map { value throws(IMAPCommandError) -> String in
                        guard case .atom(let name) = value else { throw .bad("Invalid status item.") }
                        return name.uppercased()
                    }
                case let other: throw .bad("Unknown LIST return option \(other).")
                }
            }
        }
        try arguments.end()
        var output = IMAPOutput()
        // LIST "" "": the hierarchy delimiter and the root.
        if !lsub, patterns.count == 1, patterns[0].isEmpty {
            output.text("* LIST (\\Noselect) \"/\" \"\"\r\n")
            return okAfter(command, &output, text: "List completed.")
        }
        let referenceText = decodedPattern(reference)
        let matchers = try patterns.map { pattern throws(IMAPCommandError) -> IMAPListPattern in
            do {
                return try IMAPListPattern(reference: referenceText, pattern: decodedPattern(pattern))
            } catch {
                throw .bad("Invalid mailbox pattern: \(error)")
            }
        }
        let folders = store.folders(of: address.text)
        let existing = Set(folders)
        let subscriptions = Set(store.subscriptions(of: address.text))
        var names = subscribedOnly ? subscriptions.sorted { Self.folderOrder($0, $1) } : folders
        if specialUseOnly { names = names.filter { Self.specialUse(of: $0) != nil } }
        var listed = 0
        for name in names {
            var steps = 0
            guard matchers.contains(where: { $0.matches(name, steps: &steps) }) else { continue }
            listed += 1
            if listed > Self.listLimit { throw .no("[LIMIT] Too many mailboxes match.") }
            var attributes: [String] = []
            if !existing.contains(name) {
                attributes.append(lsub ? "\\Noselect" : "\\NonExistent")
            } else {
                let prefix = name + String(MailStore.folderSeparator)
                attributes.append(folders.contains { $0.hasPrefix(prefix) } ? "\\HasChildren" : "\\HasNoChildren")
            }
            if (returnSubscribed || subscribedOnly) && !lsub, subscriptions.contains(name) { attributes.append("\\Subscribed") }
            if let use = Self.specialUse(of: name), !lsub { attributes.append(use) }
            output.text("* \(lsub ? "LSUB" : "LIST") (\(attributes.joined(separator: " "))) \"/\" ")
            output.astring(shownName(name), utf8: utf8)
            output.crlf()
            if let statusItems, existing.contains(name), let folder = store.folder(name, of: address.text) {
                try writeStatus(folder, items: statusItems, to: &output)
            }
        }
        return okAfter(command, &output, text: "\(lsub ? "Lsub" : "List") completed.")
    }

    /// INBOX first, then by name.
    static func folderOrder(_ left: String, _ right: String) -> Bool {
        (left == MailStore.inbox ? 0 : 1, left) < (right == MailStore.inbox ? 0 : 1, right)
    }

    /// A pattern or reference as Unicode: UTF-8 once enabled, modified UTF-7 otherwise (bad
    /// modified UTF-7 taken as it is, matching nothing odd).
    private func decodedPattern(_ bytes: [UInt8]) -> String {
        if utf8 { return String(decoding: bytes, as: UTF8.self) }
        return (try? IMAPMailboxName.decodeModifiedUTF7(bytes)) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// STATUS mailbox (items).
    mutating func status(_ command: IMAPCommand, _ arguments: inout IMAPArguments) throws(IMAPCommandError) -> [MailAction] {
        guard let address else { throw .bad("Please login first.") }
        let mailbox = try arguments.mailbox()
        let items = try arguments.list("status items").map { value throws(IMAPCommandError) -> String in
            guard case .atom(let name) = value else { throw .bad("Invalid status item.") }
            return name.uppercased()
        }
        try arguments.end()
        guard let folder = store.folder(mailbox.name, of: address.text) else {
            throw .no("[NONEXISTENT] Mailbox doesn't exist: \(mailbox.name)")
        }
        var output = IMAPOutput()
        try writeStatus(folder, items: items, to: &output)
        return okAfter(command, &output, text: "Status completed.")
    }

    /// `* STATUS name (ITEM n …)`.
    private func writeStatus(_ folder: MailFolder, items: [String], to output: inout IMAPOutput) throws(IMAPCommandError) {
        var values: [String] = []
        for item in items {
            switch item {
            case "MESSAGES": values.append("MESSAGES \(folder.entries.count)")
            case "RECENT" where !revision2: values.append("RECENT \(folder.recentCount)")
            case "UIDNEXT": values.append("UIDNEXT \(folder.nextUID)")
            case "UIDVALIDITY": values.append("UIDVALIDITY \(folder.uidValidity)")
            case "UNSEEN": values.append("UNSEEN \(folder.unseenCount)")
            case "DELETED": values.append("DELETED \(folder.entries.reduce(0) { $0 + ($1.flags.contains(.deleted) ? 1 : 0) })")
            case "SIZE" where settings.offers("STATUS=SIZE"): values.append("SIZE \(folder.byteCount)")
            case "HIGHESTMODSEQ" where settings.offers("CONDSTORE"): values.append("HIGHESTMODSEQ \(folder.highestModSeq)")
            case "APPENDLIMIT": values.append("APPENDLIMIT \(appendLimit)")
            default: throw .bad("Unknown STATUS item \(item).")
            }
        }
        output.text("* STATUS ")
        output.astring(shownName(folder.name), utf8: utf8)
        output.text(" (\(values.joined(separator: " ")))\r\n")
    }
}
