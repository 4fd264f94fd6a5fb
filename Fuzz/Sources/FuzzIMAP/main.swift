// libFuzzer target: IMAP's readers of a peer's bytes: the command reader (literals included), sequence
// sets, mailbox names in modified UTF-7 and UTF-8, and LIST patterns.
//
// The first byte picks the mode (bits 0-1) and the limits (bit 2: small ones, so that every limit is
// reached by short inputs; otherwise the defaults); the next two bytes choose a split point. Properties:
// - reader: the input fed whole, in two pieces split at the chosen byte, and in pieces of 1 to 32 bytes
//   (bits 3-7 of the first byte), gives the same results; each call consumes only from the front of what
//   it was given; what it leaves unconsumed is never more than a line's limit; a continuation follows
//   only a synchronizing `{n}` or `~{n}` line ending, n within the literal limit; nothing follows a close,
//   and after it all input is consumed; every command has a tag, an upper-case name, literals and
//   nesting within the limits;
// - sequence sets: a parsed set resolves to sorted, disjoint, non-adjacent ranges, which `contains`,
//   `numbers(upTo:)` and `highest(largest:)` agree with;
// - mailbox names: a decoded name encodes back to the same bytes (INBOX's case aside) and decodes again
//   to itself; a UTF-8 name is its own check;
// - LIST patterns (the input split into pattern and name at the chosen byte): the match agrees with a
//   memoized reference matcher, within the step bound the type documents, however many wildcards.
import Foundation
import MockServerMail
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Limits small enough that short inputs pass each of them.
let smallLimits = IMAPReaderLimits(lineLength: 200, literalSize: 40, nonSynchronizingLiteralSize: 24, nestingDepth: 4,
                                   argumentCount: 30, literalCount: 3)

/// Whether `bytes` ends with a synchronizing literal marker (`{n}` or `~{n}`, then CRLF or LF) whose size
/// is at most `limit`.
func endsWithSynchronizingMarker(_ bytes: ArraySlice<UInt8>, limit: UInt64) -> Bool {
    var line = bytes
    guard line.last == 0x0A else { return false }
    line = line.dropLast()
    if line.last == 0x0D { line = line.dropLast() }
    guard line.last == 0x7D else { return false }
    line = line.dropLast()
    let digits = line.reversed().prefix { (0x30...0x39).contains($0) }
    guard !digits.isEmpty, line.dropLast(digits.count).last == 0x7B,
          let size = UInt64(String(decoding: digits.reversed(), as: UTF8.self)) else { return false }
    return size <= limit
}

/// How deep `value` nests lists and sections.
func depth(of value: IMAPValue) -> Int {
    switch value {
    case .list(let items): return 1 + (items.map(depth(of:)).max() ?? 0)
    case .section(_, let section, _): return 1 + (section.map(depth(of:)).max() ?? 0)
    default: return 0
    }
}

/// The literals inside `value`, with those of its lists and sections.
func literals(in value: IMAPValue) -> [[UInt8]] {
    switch value {
    case .literal(let bytes, _): return [bytes]
    case .list(let items): return items.flatMap(literals(in:))
    case .section(_, let section, _): return section.flatMap(literals(in:))
    default: return []
    }
}

/// Checks what one command holds against the limits it was read under.
func check(_ command: IMAPCommand, limits: IMAPReaderLimits) {
    precondition(!command.tag.isEmpty && !command.tag.utf8.contains(0x20) && !command.tag.utf8.contains(0x2B),
                 "a command with the tag \(command.tag.debugDescription)")
    precondition(!command.name.isEmpty && command.name == command.name.uppercased(), "a command named \(command.name.debugDescription)")
    let nesting = command.arguments.map(depth(of:)).max() ?? 0
    precondition(nesting <= limits.nestingDepth, "values nested \(nesting) deep, past \(limits.nestingDepth)")
    let data = command.arguments.flatMap(literals(in:))
    precondition(data.count <= limits.literalCount, "\(data.count) literals in one command, past \(limits.literalCount)")
    let total = data.reduce(0) { $0 + $1.count }
    precondition(UInt64(total) <= limits.literalSize, "\(total) bytes of literals in one command, past \(limits.literalSize)")
}

/// Feeds `input` to a new reader in the pieces `cuts` ends (ascending offsets, the last being the input's
/// length), checking each call, and returns every result in order.
func readPieces(_ input: [UInt8], cuts: [Int], limits: IMAPReaderLimits) -> [IMAPReadResult] {
    var reader = IMAPCommandReader(limits: limits)
    var results: [IMAPReadResult] = []
    var pending: [UInt8] = []
    var fed = 0
    var closed = false
    for cut in cuts where cut > fed {
        pending += input[fed..<cut]
        fed = cut
        var slice = pending[...]
        var calls = 0
        while true {
            let before = slice
            let result = reader.read(&slice)
            precondition(slice.startIndex >= before.startIndex && slice.endIndex == before.endIndex,
                         "the reader consumed \(before.startIndex)..<\(before.endIndex) to \(slice.startIndex)..<\(slice.endIndex)")
            calls += 1
            precondition(calls <= 2 * input.count + 4, "more results than twice the bytes")
            guard let result else { break }
            precondition(!closed, "a result after a close: \(result)")
            // The absolute offset just past what the reader used.
            let consumed = fed - slice.count
            switch result {
            case .continuation:
                precondition(endsWithSynchronizingMarker(input[..<consumed], limit: limits.literalSize),
                             "a continuation after \(String(decoding: input[max(0, consumed - 24)..<consumed], as: UTF8.self).debugDescription)")
            case .command(let command):
                check(command, limits: limits)
            case .close:
                closed = true
            case .bad:
                break
            }
            results.append(result)
        }
        if closed { precondition(slice.isEmpty, "\(slice.count) bytes left after a close") }
        precondition(slice.count <= limits.lineLength, "\(slice.count) bytes left unconsumed, past the line limit \(limits.lineLength)")
        pending = Array(slice)
    }
    return results
}

/// The reader: the input whole, split at `split`, and in pieces of `chunk` bytes, gives the same results.
func fuzzReader(_ input: [UInt8], split: Int, chunk: Int, limits: IMAPReaderLimits) {
    let whole = readPieces(input, cuts: [input.count], limits: limits)
    let halves = readPieces(input, cuts: [split, input.count], limits: limits)
    precondition(halves == whole, "split at \(split): \(halves) instead of \(whole)")
    let pieces = readPieces(input, cuts: Array(stride(from: chunk, to: input.count, by: chunk)) + [input.count], limits: limits)
    precondition(pieces == whole, "in pieces of \(chunk): \(pieces) instead of \(whole)")
}

/// A sequence set, resolved with `largest` (and a small folder) as `*`.
func fuzzSequenceSet(_ input: [UInt8], largest: UInt32) {
    guard let set = try? IMAPSequenceSet(bytes: input) else { return }
    guard let ranges = set.resolved(largest: largest) else {
        precondition(input == [UInt8(ascii: "$")], "only $ is the saved set")
        return
    }
    precondition(!ranges.isEmpty, "a set of no ranges from \(input)")
    for (earlier, later) in zip(ranges, ranges.dropFirst()) {
        precondition(UInt64(earlier.upperBound) + 1 < UInt64(later.lowerBound), "ranges not sorted and apart: \(ranges)")
    }
    precondition(set.highest(largest: largest) == ranges.last?.upperBound, "highest is not the last range's end")
    // Membership at each range's edges and just outside them.
    for range in ranges {
        for number in [range.lowerBound, range.upperBound] {
            precondition(set.contains(number, largest: largest), "\(number) in \(ranges) but not contained")
        }
        if range.lowerBound > 0 {
            precondition(!set.contains(range.lowerBound - 1, largest: largest), "\(range.lowerBound - 1) contained but in no range of \(ranges)")
        }
        if range.upperBound < UInt32.max {
            precondition(!set.contains(range.upperBound + 1, largest: largest), "\(range.upperBound + 1) contained but in no range of \(ranges)")
        }
    }
    // The numbers a small folder has, each once, ascending, and only those the ranges cover.
    let small = min(largest, 300)
    let numbers = Array(set.numbers(upTo: small).prefix(400))
    precondition(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "numbers not ascending: \(numbers)")
    precondition(numbers.allSatisfy { (1...max(small, 1)).contains($0) }, "a number past \(small): \(numbers)")
    let expected = (small == 0 ? [] : Array(1...small)).filter { number in set.resolved(largest: small)!.contains { $0.contains(number) } }
    precondition(numbers == expected, "numbers(upTo: \(small)) \(numbers) instead of \(expected)")
}

/// A mailbox name, as modified UTF-7 and as UTF-8.
func fuzzMailboxName(_ input: [UInt8]) {
    if let name = try? IMAPMailboxName(modifiedUTF7: input) {
        let encoded = Array(name.modifiedUTF7.utf8)
        let again = try? IMAPMailboxName(modifiedUTF7: encoded)
        precondition(again == name, "\(name) encodes as \(name.modifiedUTF7), which decodes as \(String(describing: again))")
        // Only INBOX's case may differ from what was sent.
        let sent = String(decoding: input, as: UTF8.self)
        let inboxLength = name.isInbox || name.name.hasPrefix("INBOX/") ? 5 : 0
        precondition(encoded.count == input.count && sent.uppercased().hasPrefix(String(name.modifiedUTF7.prefix(inboxLength)))
                     && Array(encoded.dropFirst(inboxLength)) == Array(input.dropFirst(inboxLength)),
                     "\(sent.debugDescription) decodes to a name that encodes as \(name.modifiedUTF7.debugDescription)")
        precondition((try? IMAPMailboxName(name.name)) == name, "\(name) is not its own check")
    }
    if let name = try? IMAPMailboxName(utf8: input) {
        precondition((try? IMAPMailboxName(name.name)) == name, "\(name) is not its own check")
        precondition((try? IMAPMailboxName(modifiedUTF7: Array(name.modifiedUTF7.utf8))) == name,
                     "\(name) does not survive modified UTF-7")
    }
}

/// A reference LIST matcher: memoized recursion over (pattern position, name position), which takes at
/// most their product in steps.
func referenceMatch(pattern: [Unicode.Scalar], name: [Unicode.Scalar]) -> Bool {
    var memo = [Bool?](repeating: nil, count: (pattern.count + 1) * (name.count + 1))
    func match(_ p: Int, _ n: Int) -> Bool {
        let key = p * (name.count + 1) + n
        if let known = memo[key] { return known }
        let result: Bool
        if p == pattern.count {
            result = n == name.count
        } else if pattern[p] == "*" {
            result = match(p + 1, n) || (n < name.count && match(p, n + 1))
        } else if pattern[p] == "%" {
            result = match(p + 1, n) || (n < name.count && name[n] != "/" && match(p, n + 1))
        } else {
            result = n < name.count && name[n] == pattern[p] && match(p + 1, n + 1)
        }
        memo[key] = result
        return result
    }
    return match(0, 0)
}

/// A LIST pattern (the bytes before `split`) against a name (the rest).
func fuzzListPattern(_ input: [UInt8], split: Int) {
    let patternText = String(decoding: input[..<split], as: UTF8.self)
    let nameText = String(decoding: input[split...], as: UTF8.self)
    guard let pattern = try? IMAPListPattern(pattern: patternText) else { return }
    var steps = 0
    let matched = pattern.matches(nameText, steps: &steps)
    let nameLength = nameText.unicodeScalars.count
    let patternLength = patternText.unicodeScalars.count
    precondition(steps <= (2 * nameLength + 1) * (patternLength + 1), "\(steps) steps for a pattern of \(patternLength) and a name of \(nameLength)")
    // The reference reads the pattern as the type does: a first level INBOX in any case is INBOX.
    var whole = patternText
    let firstLevel = whole.prefix { $0 != "/" }
    if firstLevel.uppercased() == "INBOX" { whole = "INBOX" + whole.dropFirst(firstLevel.count) }
    let expected = referenceMatch(pattern: Array(whole.unicodeScalars), name: Array(nameText.unicodeScalars))
    precondition(matched == expected, "\(patternText.debugDescription) against \(nameText.debugDescription): \(matched), expected \(expected)")
}

/// The target: picks the mode, the limits and the split from the first three bytes.
func fuzzIMAP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 3 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let input = Array(bytes[3...])
    let split = input.isEmpty ? 0 : (Int(bytes[1]) << 8 | Int(bytes[2])) % (input.count + 1)
    let limits = bytes[0] & 4 != 0 ? smallLimits : IMAPReaderLimits()
    switch bytes[0] & 3 {
    case 0: fuzzReader(input, split: split, chunk: Int(bytes[0] >> 3) + 1, limits: limits)
    case 1: fuzzSequenceSet(input, largest: UInt32(truncatingIfNeeded: Int(bytes[1]) << 8 | Int(bytes[2])))
    case 2: fuzzMailboxName(input)
    default: fuzzListPattern(input, split: split)
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzIMAP))
