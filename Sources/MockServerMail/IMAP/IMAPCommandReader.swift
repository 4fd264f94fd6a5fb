/// Frames IMAP commands, one at a time, from the bytes a connection received (RFC 9051 §2.2,
/// §4; RFC 7888 LITERAL+ and LITERAL-; RFC 3516 literal8): pure, it never touches a socket.
///
/// ```
/// var reader = IMAPCommandReader()
/// while let result = reader.read(&input) {   // consumes what it used from input's front
///     switch result { … }                     // a command, "send + now", a BAD, or close
/// }                                            // nil: wait for more input
/// ```
///
/// - A line ends CRLF or LF. A command is its line, or several lines joined by literals: a line
///   ending `{n}` asks for a continuation (``IMAPReadResult/continuation``, once) and then reads
///   `n` bytes of data, `{n+}` reads them without asking, `~{n}` is a literal8.
/// - A literal past its limit is refused before a byte of it is read: `{n}` gets `BAD` and is
///   never invited (the client sends nothing more for that command); `{n+}` gets
///   ``IMAPReadResult/close`` (RFC 7888 §4).
/// - A malformed command gets one ``IMAPReadResult/bad(tag:_:)`` and the reader reads on from the
///   next line, never splitting one command into two: a line too long is skipped to its end, and
///   a `{n+}` literal ending a malformed line is skipped with its data.
package struct IMAPCommandReader: Sendable {
    /// What the reader is doing with the bytes that arrive.
    private enum Phase: Sendable {
        /// Reading a command's line.
        case line
        /// Reading `remaining` bytes of a literal's data into the last segment.
        case literal(remaining: Int)
        /// Skipping a refused command: `remaining` bytes of a non-synchronizing literal's data,
        /// then the rest of its line.
        case discarding(remaining: Int)
        /// Skipping a refused command's line up to its LF, keeping its last bytes (at most
        /// ``tailLength``) to see whether it ends with a `{n+}` whose data must be skipped too.
        case skippingLine(tail: [UInt8])
        /// Closed after a non-synchronizing literal past its limit: reads nothing more.
        case closed
    }

    private static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
    /// How many last bytes of a skipped line are kept: more than the longest `{n+}` marker of a
    /// 64-bit size (23 bytes with its CR), so a longer run of digits is past any limit.
    private static let tailLength = 32

    /// The limits in force.
    package var limits: IMAPReaderLimits
    private var phase = Phase.line
    /// The current command's segments so far.
    private var segments: [IMAPCommandSegment] = []
    /// Octets of command text (line ends included, literal data not) read so far.
    private var textLength = 0
    /// Octets of literal data announced so far in the current command.
    private var literalLength = 0
    /// How many bytes at the front of the input were looked at for the LF ending the line being
    /// read, and have none: the next read looks on from there, as the caller gives back what was
    /// not consumed, so that a line arriving a byte at a time is scanned once, not once per byte.
    private var scannedLength = 0

    /// Whether the next input starts a command: no command is partly read (a line before a
    /// literal, a literal's data) and no refused one is being skipped.
    package var isBetweenCommands: Bool {
        if case .line = phase, segments.isEmpty { return true }
        return false
    }

    /// The caller took bytes from the front of the input itself (a response script answered a
    /// command line): what was scanned of it is forgotten.
    package mutating func inputTakenOutside() {
        scannedLength = 0
    }

    /// A reader under `limits`.
    package init(limits: IMAPReaderLimits = IMAPReaderLimits()) {
        self.limits = limits
    }

    /// Reads from the front of `input` (the bytes received and not consumed yet), removing what
    /// it used, up to the next thing the server must do, and returns it; nil when it needs more
    /// input (all of `input` consumed or kept for a line not yet complete). The next call's
    /// `input` must start with what this one left (or ``inputTakenOutside()`` be called): a line's
    /// bytes are looked at once however many reads it takes to arrive.
    package mutating func read(_ input: inout ArraySlice<UInt8>) -> IMAPReadResult? {
        while true {
            switch phase {
            case .closed:
                input = input[input.endIndex...]
                return nil
            case .literal(let remaining):
                let taken = input.prefix(remaining)
                input = input[taken.endIndex...]
                if case .literal(var data, let binary) = segments.removeLast() {
                    data += taken
                    segments.append(.literal(data, binary: binary))
                }
                guard taken.count == remaining else {
                    phase = .literal(remaining: remaining - taken.count)
                    return nil
                }
                phase = .line
            case .discarding(let remaining):
                let taken = input.prefix(remaining)
                input = input[taken.endIndex...]
                guard taken.count == remaining else {
                    phase = .discarding(remaining: remaining - taken.count)
                    return nil
                }
                phase = .skippingLine(tail: [])
            case .skippingLine(let tail):
                guard let newline = input.firstIndex(of: Self.lf) else {
                    // One byte more than is looked at, to tell a longer line from one that fits.
                    phase = .skippingLine(tail: Array((tail + input).suffix(Self.tailLength + 1)))
                    input = input[input.endIndex...]
                    return nil
                }
                let whole = tail + input[..<newline]
                input = input[(newline + 1)...]
                phase = .line
                let line = whole.suffix(Self.tailLength)[...]
                if let size = nonSynchronizingLiteral(endingLine: line, truncated: whole.count > line.count) {
                    if let refusal = discard(size: size, tag: nil) { return refusal }
                }
            case .line:
                if segments.isEmpty {
                    let before = input.count
                    Self.skipEmptyLines(&input)
                    if input.count != before { scannedLength = 0 }
                }
                if let result = readLine(&input) { return result }
                if case .line = phase { return nil }
            }
        }
    }

    /// Reads one line of the current command, if complete, and answers what it makes; nil when
    /// the line is incomplete (then `phase` is still `.line`) or when it ended with a
    /// non-synchronizing literal (then `phase` reads its data).
    private mutating func readLine(_ input: inout ArraySlice<UInt8>) -> IMAPReadResult? {
        let room = limits.lineLength - textLength
        let window = input.prefix(max(room, 0))
        let unscanned = window.dropFirst(min(scannedLength, window.count))
        guard let newline = unscanned.firstIndex(of: Self.lf) else {
            guard input.count >= room else {
                scannedLength = window.count
                return nil
            }
            // No LF within the limit: the command is refused and its line skipped. Its tag is
            // looked for within the limit only, whatever more has arrived, so that the answer is
            // the same however the line was split into reads.
            let tag = segments.isEmpty ? Self.tag(of: input.prefix(room)) : firstTag
            reset()
            phase = .skippingLine(tail: [])
            return .bad(tag: tag, .lineTooLong(limit: limits.lineLength))
        }
        var line = input[..<newline]
        input = input[(newline + 1)...]
        scannedLength = 0
        textLength += line.count + 1
        if line.last == Self.cr { line = line.dropLast() }
        segments.append(.text(Array(line)))
        var parser = IMAPCommandParser(segments: segments, limits: limits)
        switch parser.parse() {
        case .complete(let command):
            reset()
            return .command(command)
        case .literalFollows(let size, let synchronizing, let binary):
            // The literals of one command together are bounded by the same limit as one.
            let limit = synchronizing ? limits.literalSize : limits.nonSynchronizingLiteralSize
            let (total, overflow) = literalLength.addingReportingOverflow(size)
            guard !overflow, UInt64(total) <= limit else {
                let tag = firstTag
                let error = IMAPSyntaxError.literalTooLarge(size: overflow ? nil : UInt64(total), limit: limit,
                                                            synchronizing: synchronizing)
                reset()
                if synchronizing { return .bad(tag: tag, error) }
                phase = .closed
                return .close(tag: tag, error)
            }
            // Each line is parsed again with all before it: the count bounds that work too.
            guard segments.count / 2 < limits.literalCount else {
                let tag = firstTag
                reset()
                if !synchronizing, let refusal = discard(size: UInt64(size), tag: tag) { return refusal }
                return .bad(tag: tag, .tooManyLiterals(limit: limits.literalCount))
            }
            literalLength = total
            segments.append(.literal([], binary: binary))
            phase = .literal(remaining: size)
            return synchronizing ? .continuation : nil
        case .malformed(let tag, let error):
            reset()
            if case .literalTooLarge(_, _, synchronizing: false) = error {
                phase = .closed
                return .close(tag: tag, error)
            }
            if let size = nonSynchronizingLiteral(endingLine: line), let refusal = discard(size: size, tag: tag) {
                return refusal
            }
            return .bad(tag: tag, error)
        }
    }

    /// Removes the empty lines (LF or CRLF alone) at the front of `input`: they are ignored
    /// between commands.
    private static func skipEmptyLines(_ input: inout ArraySlice<UInt8>) {
        while true {
            if input.first == lf {
                input = input.dropFirst()
            } else if input.first == cr, input.dropFirst().first == lf {
                input = input.dropFirst(2)
            } else {
                return
            }
        }
    }

    /// The tag of the command being read, from its first segment.
    private var firstTag: String? {
        guard case .text(let bytes) = segments.first else { return nil }
        return Self.tag(of: bytes[...])
    }

    /// The tag at the start of `line`, if it has a valid one followed by a space.
    private static func tag(of line: ArraySlice<UInt8>) -> String? {
        guard let space = line.firstIndex(of: 0x20), space > line.startIndex else { return nil }
        let tag = line[..<space]
        guard tag.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !Array("(){\"%*+\\".utf8).contains($0) }) else { return nil }
        return String(decoding: tag, as: UTF8.self)
    }

    /// The size of the `{n+}` (or `~{n+}`) marker ending `line` (CR removed or not), if any;
    /// `UInt64.max` when too large to count. `truncated`: only the line's last bytes are given.
    private func nonSynchronizingLiteral(endingLine line: ArraySlice<UInt8>, truncated: Bool = false) -> UInt64? {
        var line = line
        if line.last == Self.cr { line = line.dropLast() }
        guard line.last == 0x7D else { return nil }
        // With no `{` among the kept bytes, a run of digits that long is past 64 bits.
        guard let brace = line.lastIndex(of: 0x7B) ?? (truncated ? line.startIndex - 1 : nil) else { return nil }
        let inside = line[(brace + 1)..<(line.endIndex - 1)]
        guard inside.last == 0x2B, inside.count > 1 else { return nil }
        let digits = inside.dropLast()
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt64(String(decoding: digits, as: UTF8.self)) ?? UInt64.max
    }

    /// Skips the data of a `{size+}` literal ending a refused command, with the rest of that
    /// command; returns the ``IMAPReadResult/close`` if the literal is past its limit.
    private mutating func discard(size: UInt64, tag: String?) -> IMAPReadResult? {
        guard size <= limits.nonSynchronizingLiteralSize, size <= UInt64(Int.max) else {
            phase = .closed
            return .close(tag: tag, .literalTooLarge(size: size == .max ? nil : size,
                                                     limit: limits.nonSynchronizingLiteralSize, synchronizing: false))
        }
        phase = .discarding(remaining: Int(size))
        return nil
    }

    /// Forgets the current command.
    private mutating func reset() {
        segments = []
        textLength = 0
        literalLength = 0
        scannedLength = 0
        phase = .line
    }
}
