/// A cursor over a command's arguments that takes them one at a time as the command's grammar
/// says, each failure a `BAD` text naming what was expected.
package struct IMAPArguments {
    /// The arguments, in order.
    private let values: [IMAPValue]
    /// The next one to take.
    private var index = 0
    /// Whether mailbox names and strings are UTF-8 (UTF8=ACCEPT or IMAP4rev2 enabled) rather than
    /// modified UTF-7 for mailbox names.
    private let utf8: Bool

    /// A cursor over `values`.
    package init(_ values: [IMAPValue], utf8: Bool = false) {
        self.values = values
        self.utf8 = utf8
    }

    /// Whether every argument was taken.
    package var isAtEnd: Bool { index >= values.count }

    /// The next argument without taking it.
    package var peek: IMAPValue? { index < values.count ? values[index] : nil }

    /// The arguments not taken yet.
    package var rest: ArraySlice<IMAPValue> { values[min(index, values.count)...] }

    /// Takes the next argument, whatever it is.
    package mutating func next(_ expected: String) throws(IMAPCommandError) -> IMAPValue {
        guard index < values.count else { throw .bad("Missing \(expected).") }
        defer { index += 1 }
        return values[index]
    }

    /// Takes an astring or string (atom, number, quoted, literal, NIL as the text `NIL`).
    package mutating func string(_ expected: String) throws(IMAPCommandError) -> [UInt8] {
        guard let bytes = try next(expected).stringBytes else { throw .bad("Invalid \(expected): expected a string.") }
        return bytes
    }

    /// Takes a string as UTF-8 text (bad sequences as U+FFFD).
    package mutating func text(_ expected: String) throws(IMAPCommandError) -> String {
        String(decoding: try string(expected), as: UTF8.self)
    }

    /// Takes an atom and upper-cases it.
    package mutating func keyword(_ expected: String) throws(IMAPCommandError) -> String {
        switch try next(expected) {
        case .atom(let text): return text.uppercased()
        case .number(let value): return String(value)
        default: throw .bad("Invalid \(expected): expected an atom.")
        }
    }

    /// Takes a mailbox name: modified UTF-7 (or UTF-8 once enabled), checked.
    package mutating func mailbox() throws(IMAPCommandError) -> IMAPMailboxName {
        let bytes = try string("mailbox name")
        do {
            return utf8 ? try IMAPMailboxName(utf8: bytes) : try IMAPMailboxName(modifiedUTF7: bytes)
        } catch {
            throw .no("[CANNOT] Invalid mailbox name: \(error)")
        }
    }

    /// Takes a sequence set (an atom such as `1:3,5:*`, or `$`); numbers past 32 bits are `BAD`.
    package mutating func sequenceSet() throws(IMAPCommandError) -> IMAPSequenceSet {
        let bytes: [UInt8]
        switch try next("sequence set") {
        case .atom(let text): bytes = Array(text.utf8)
        case .number(let value): bytes = Array(String(value).utf8)
        default: throw .bad("Invalid sequence set.")
        }
        do {
            return try IMAPSequenceSet(bytes: bytes)
        } catch {
            throw .bad("Invalid sequence set: \(error)")
        }
    }

    /// Takes a parenthesized list.
    package mutating func list(_ expected: String) throws(IMAPCommandError) -> [IMAPValue] {
        guard case .list(let items) = try next(expected) else { throw .bad("Invalid \(expected): expected a list.") }
        return items
    }

    /// Takes a number that fits `T`.
    package mutating func number<T: FixedWidthInteger>(_ expected: String, as type: T.Type = UInt32.self) throws(IMAPCommandError) -> T {
        guard case .number(let value) = try next(expected), let number = T(exactly: value) else {
            throw .bad("Invalid \(expected): expected a number below \(T.max).")
        }
        return number
    }

    /// Fails unless every argument was taken.
    package func end() throws(IMAPCommandError) {
        guard isAtEnd else { throw .bad("Unexpected arguments.") }
    }
}
