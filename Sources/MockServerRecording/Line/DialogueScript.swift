import Foundation
import MockServerCore

/// Turns recorded dialogues into a response script (the format of `Docs/ResponseFormat.md`) that
/// answers the same lines with the same bytes.
///
/// - The first connection's greeting is the `«initial»` response.
/// - Each client line is a pattern that matches exactly that line (anchored, regex characters
///   escaped); its reply is sent as text (`$` written `$$`) or, when it is not plain UTF-8 text, as
///   `{"base64": …}`; a pause comes first when timing is kept; `«close»` follows when the upstream
///   closed there. An exchange seen again with the same reply is recorded once.
/// - Lines the upstream never answered (a mail body, say) are not listed: the sets' `fallback`
///   swallows them.
/// - A line answered differently at different times starts a new set, a copy of the current one
///   with the new answer, named `after LINE` (`after LINE #2`, … when there are several). The
///   switch to it (`{"set": …}`) is made by the exchange just before the changed one, or by the last
///   line before it that had not been seen yet in the current set, so that replaying the same
///   dialogue switches at the same moment. Each connection starts in `default` (sets are per
///   connection) and follows the switches the earlier connections recorded.
struct DialogueScript {
    let keepsTiming: Bool
    /// Where the dialogue came from, for the script's comment.
    let source: String
    /// For FTP: the standard script's default set (its responses, in order, as JSON text), which
    /// answers the file commands from the shared files after the recorded lines.
    var standardFTP: [(name: String, json: String)]? = nil
    /// What is hidden: a client line `Name: value` of a masked header, or a password command
    /// (`PASS secret`), is written as a pattern that matches any value (and named `Name: MASKED`,
    /// `PASS MASKED`), and such header lines of the replies and greeting are sent as `Name: MASKED`.
    var mask = HTTPRecorder.Mask.standard

    /// The responses of `script`'s `default` set, in order, as JSON text: what ``standardFTP`` takes.
    static func defaultSet(of script: [UInt8]) -> [(name: String, json: String)]? {
        guard let root = try? JSONReader.parse(script), case .object(let top) = root.kind,
              let sets = top.first(where: { $0.key == "sets" }), case .object(let setList) = sets.value.kind,
              let defaultSet = setList.first(where: { $0.key == "default" }), case .object(let setFields) = defaultSet.value.kind,
              let names = setFields.first(where: { $0.key == "responses" }), case .array(let nameList) = names.value.kind,
              let responses = top.first(where: { $0.key == "responses" }), case .object(let responseList) = responses.value.kind else { return nil }
        return nameList.compactMap { value -> (String, String)? in
            guard case .string(let name) = value.kind, let response = responseList.first(where: { $0.key == name }) else { return nil }
            return (name, JSONText.write(response.value))
        }
    }

    private struct Entry {
        var line: String
        var reply: [UInt8]
        var delay: Duration?
        var closedAfter: Bool
        var switchTo: Int?
    }

    private struct Phase {
        var name: String
        var entries: [Entry] = []
        func index(of line: String) -> Int? { entries.firstIndex { $0.line == line } }
    }

    /// The script's JSON text for `dialogues`, in the order the connections opened.
    func script(for recorded: [RecordedDialogue]) -> String {
        let dialogues = recorded.map(masked)
        var phases = [Phase(name: "default")]
        var usedNames: Set<String> = ["default"]
        var hasSilentLines = false
        for dialogue in dialogues {
            var current = 0
            var seen: [String] = []
            for exchange in dialogue.exchanges {
                // FTP's file commands are answered from the shared files on replay.
                if standardFTP != nil && FTPRelay.fileCommands.contains(FTPRelay.verb(of: exchange.line)) { continue }
                if exchange.reply.isEmpty && !exchange.closedAfter && phases[current].index(of: exchange.line) == nil {
                    hasSilentLines = true
                    continue
                }
                let entry = Entry(line: exchange.line, reply: exchange.reply, delay: exchange.delay, closedAfter: exchange.closedAfter)
                guard let index = phases[current].index(of: exchange.line) else {
                    // A new line: every set that lacks it answers it this way.
                    for phase in phases.indices where phases[phase].index(of: exchange.line) == nil {
                        phases[phase].entries.append(entry)
                    }
                    seen.append(exchange.line)
                    continue
                }
                let known = phases[current].entries[index]
                if known.reply == exchange.reply && known.closedAfter == exchange.closedAfter {
                    seen.append(exchange.line)
                    if let next = known.switchTo {
                        current = next
                        seen = []
                    }
                    continue
                }
                // Answered differently: a new set from here on.
                var name = "after \(Self.shortened(exchange.line))"
                var number = 2
                while usedNames.contains(name) {
                    name = "after \(Self.shortened(exchange.line)) #\(number)"
                    number += 1
                }
                usedNames.insert(name)
                var next = Phase(name: name, entries: phases[current].entries.map { var copy = $0; copy.switchTo = nil; return copy })
                let changed = next.index(of: exchange.line) ?? 0
                next.entries[changed] = entry
                phases.append(next)
                let nextIndex = phases.count - 1
                // The switch: on the last line before this one that was new to the set (its entry
                // fires there and nowhere earlier), or at once when there is none.
                var boundary: Int?
                for position in seen.indices.reversed() where seen.firstIndex(of: seen[position]) == position {
                    if let entryIndex = phases[current].index(of: seen[position]), phases[current].entries[entryIndex].switchTo == nil {
                        boundary = position
                        phases[current].entries[entryIndex].switchTo = nextIndex
                    }
                    break
                }
                if boundary == nil {
                    // Nothing before it can switch (a changed first line): the changed line's old
                    // entry switches after answering, which is the best a pattern can tell.
                    phases[current].entries[index].switchTo = nextIndex
                }
                current = nextIndex
                seen = boundary.map { Array(seen[($0 + 1)...]) + [exchange.line] } ?? [exchange.line]
            }
        }
        return render(phases, greeting: dialogues.first, silent: hasSilentLines)
    }

    private func render(_ phases: [Phase], greeting: RecordedDialogue?, silent: Bool) -> String {
        var responses: [(name: String, json: String)] = []
        var names: Set<String> = []
        func uniqueName(_ base: String) -> String {
            var name = base
            var number = 2
            while names.contains(name) {
                name = "\(base) #\(number)"
                number += 1
            }
            names.insert(name)
            return name
        }
        var setLines: [String] = []
        var initialName: String?
        if let greeting, !greeting.greeting.isEmpty || greeting.closedAfterGreeting {
            let name = uniqueName("initial")
            initialName = name
            var commands = commandList(greeting.greeting, delay: greeting.greetingDelay)
            if greeting.closedAfterGreeting { commands.append("\"«close»\"") }
            responses.append((name, "{ \"pattern\": \"«initial»\", \"commands\": [\(commands.joined(separator: ", "))] }"))
        }
        let silentName = silent ? uniqueName("unanswered") : nil
        if let silentName {
            responses.append((silentName, "{ \"pattern\": \"^\", \"commands\": [], \"comment\": \"lines the upstream did not answer (the fallback)\" }"))
        }
        var standardNames: [String] = []
        for standard in standardFTP ?? [] {
            let name = uniqueName("ftp \(standard.name)")
            standardNames.append(name)
            responses.append((name, standard.json))
        }
        // An entry the same in several sets is written once.
        var written: [String: String] = [:]
        for phase in phases {
            var members: [String] = []
            if phase.name == "default", let initialName { members.append(initialName) }
            for entry in phase.entries {
                var commands = commandList(entry.reply, delay: entry.delay)
                if entry.closedAfter { commands.append("\"«close»\"") }
                if let target = entry.switchTo { commands.append("{ \"set\": \(phases[target].name.escaped(.json)) }") }
                let json = "{ \"pattern\": \(pattern(for: entry.line).escaped(.json)), \"commands\": [\(commands.joined(separator: ", "))] }"
                if let existing = written[json] {
                    members.append(existing)
                    continue
                }
                let name = uniqueName(Self.shortened(entry.line))
                written[json] = name
                responses.append((name, json))
                members.append(name)
            }
            members += standardNames
            let fallback = silentName.map { ", \"fallback\": \($0.escaped(.json))" } ?? ""
            setLines.append("    \(phase.name.escaped(.json)): { \"responses\": [\(members.map { $0.escaped(.json) }.joined(separator: ", "))]\(fallback) }")
        }
        return """
            {\(standardFTP == nil ? "" : "\n  \"scheme\": \"ftp\",")
              "comment": \("Recorded from \(source) by mockserver record: each line the client sent, and the upstream's reply.".escaped(.json)),
              "sets": {
            \(setLines.joined(separator: ",\n"))
              },
              "responses": {
            \(responses.map { "    \($0.name.escaped(.json)): \($0.json)" }.joined(separator: ",\n"))
              }
            }

            """
    }

    /// The commands that send `bytes`, after `delay` when timing is kept.
    private func commandList(_ bytes: [UInt8], delay: Duration?) -> [String] {
        var commands: [String] = []
        if keepsTiming, let delay, delay >= .milliseconds(1) {
            let (seconds, attoseconds) = delay.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            commands.append(String(Double(milliseconds) / 1000))
        }
        guard !bytes.isEmpty else { return commands }
        if let text = String(exactUTF8: bytes), !text.contains("«"), !text.contains("»"),
           !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\r" && $0 != "\n" && $0 != "\t" }) {
            commands.append(text.replacingOccurrences(of: "$", with: "$$").escaped(.json))
        } else {
            commands.append("{ \"base64\": \"\(Data(bytes).base64EncodedString())\" }")
        }
        return commands
    }

    /// `dialogue` with masked header lines hidden: a client line keeps its name and gets
    /// ``HTTPRecorder.Mask/replacement`` for a value, and so do such lines of the replies.
    private func masked(_ dialogue: RecordedDialogue) -> RecordedDialogue {
        var result = dialogue
        result.greeting = TranscriptMasking.masked(dialogue.greeting, mask: mask)
        for index in result.exchanges.indices {
            let exchange = dialogue.exchanges[index]
            if let name = maskedHeaderName(exchange.line) { result.exchanges[index].line = "\(name): \(mask.replacement)" }
            if let verb = TranscriptMasking.credentialVerb(Array(exchange.line.utf8)) { result.exchanges[index].line = "\(verb) \(mask.replacement)" }
            result.exchanges[index].reply = TranscriptMasking.masked(exchange.reply, mask: mask)
        }
        return result
    }

    /// The name of a `Name: value` line whose header is masked; `nil` for any other line.
    private func maskedHeaderName(_ line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = String(line[..<colon])
        guard !name.isEmpty, !name.contains(" "), mask.masks(header: name) else { return nil }
        return name
    }

    /// A pattern that matches exactly `line`; a masked header line's matches the header with any value.
    private func pattern(for line: String) -> String {
        if let name = maskedHeaderName(line), line == "\(name): \(mask.replacement)" {
            return "^" + NSRegularExpression.escapedPattern(for: name) + ":.*$"
        }
        if let verb = TranscriptMasking.credentialVerb(Array(line.utf8)), line == "\(verb) \(mask.replacement)" {
            return "^" + NSRegularExpression.escapedPattern(for: verb) + " .*$"
        }
        return Self.pattern(for: line)
    }

    /// A pattern that matches exactly `line`.
    static func pattern(for line: String) -> String {
        "^" + NSRegularExpression.escapedPattern(for: line) + "$"
    }

    /// `line` cut short for a name.
    static func shortened(_ line: String) -> String {
        line.count <= 40 ? line : String(line.prefix(37)) + "…"
    }
}
