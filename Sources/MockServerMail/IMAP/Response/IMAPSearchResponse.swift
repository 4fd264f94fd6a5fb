/// The untagged answers of SEARCH and SORT, written into an ``IMAPOutput``: `* SEARCH` and
/// `* SORT` (RFC 9051 §7.3.5 form of RFC 3501, RFC 5256), with ` (MODSEQ n)` after a search that
/// used MODSEQ (RFC 7162 §3.1.5), and `* ESEARCH` (RFC 4731) with its set written as ranges.
package enum IMAPSearchResponse {
    /// `* SEARCH 2 3 7`, then ` (MODSEQ n)` when `modSeq` is given and something was found (RFC
    /// 7162: the highest mod-sequence of the messages found).
    package static func search(_ numbers: [UInt32], modSeq: UInt64? = nil, into output: inout IMAPOutput) {
        list("* SEARCH", numbers, modSeq: modSeq, into: &output)
    }

    /// `* SORT 5 2 7` (the numbers in sort order), with ` (MODSEQ n)` as for ``search(_:modSeq:into:)``.
    package static func sort(_ numbers: [UInt32], modSeq: UInt64? = nil, into output: inout IMAPOutput) {
        list("* SORT", numbers, modSeq: modSeq, into: &output)
    }

    /// `* ESEARCH (TAG "A1") UID MIN 1 MAX 9 ALL 1:3,9 COUNT 4 MODSEQ 12`, in Dovecot's order, for
    /// the options asked: MIN, MAX and ALL only when something was found (RFC 4731 §3.1), COUNT
    /// always, MODSEQ when given and something was found. Nothing is written when SAVE is the only
    /// option (RFC 5182 §2.4).
    ///
    /// - Parameters:
    ///   - tag: the command's tag.
    ///   - uid: whether the command was `UID SEARCH` (the numbers are UIDs).
    ///   - numbers: what was found, in any order.
    package static func esearch(tag: String, uid: Bool, _ numbers: [UInt32], options: IMAPSearchReturn, modSeq: UInt64? = nil,
                                into output: inout IMAPOutput) {
        guard options.answers else { return }
        let sorted = isAscending(numbers) ? numbers : Array(Set(numbers)).sorted()
        output.text("* ESEARCH (TAG ")
        output.string(Array(tag.utf8))
        output.byte(UInt8(ascii: ")"))
        if uid { output.text(" UID") }
        if let first = sorted.first, let last = sorted.last {
            if options.contains(.min) {
                output.text(" MIN ")
                output.number(first)
            }
            if options.contains(.max) {
                output.text(" MAX ")
                output.number(last)
            }
            if options.contains(.all) {
                output.text(" ALL ")
                sequenceSet(sorted, into: &output)
            }
        }
        if options.contains(.count) {
            output.text(" COUNT ")
            output.number(sorted.count)
        }
        if let modSeq, !sorted.isEmpty {
            output.text(" MODSEQ ")
            output.number(modSeq)
        }
        output.crlf()
    }

    /// Ascending numbers written as a sequence set, runs as ranges: `1:3,9`.
    package static func sequenceSet(_ ascending: [UInt32], into output: inout IMAPOutput) {
        var index = 0
        var first = true
        while index < ascending.count {
            let start = ascending[index]
            var end = start
            while index + 1 < ascending.count, ascending[index + 1] == end &+ 1, end < .max {
                index += 1
                end = ascending[index]
            }
            if !first { output.byte(UInt8(ascii: ",")) }
            first = false
            output.number(start)
            if end != start {
                output.byte(UInt8(ascii: ":"))
                output.number(end)
            }
            index += 1
        }
    }

    /// `name`, each number after a space, the MODSEQ item, CRLF.
    private static func list(_ name: String, _ numbers: [UInt32], modSeq: UInt64?, into output: inout IMAPOutput) {
        output.text(name)
        for number in numbers {
            output.byte(0x20)
            output.number(number)
        }
        if let modSeq, !numbers.isEmpty {
            output.text(" (MODSEQ ")
            output.number(modSeq)
            output.byte(UInt8(ascii: ")"))
        }
        output.crlf()
    }

    /// Whether `numbers` ascend strictly.
    private static func isAscending(_ numbers: [UInt32]) -> Bool {
        zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }
    }
}
