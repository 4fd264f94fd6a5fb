import MockServerMail
import Testing

/// The untagged answers, byte for byte as Dovecot 2.3.19 writes them.
@Suite("IMAP SEARCH responses")
struct IMAPSearchResponseTests {
    static func written(_ write: (inout IMAPOutput) -> Void) -> String {
        var output = IMAPOutput()
        write(&output)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test("* SEARCH and * SORT, with (MODSEQ n) only when something was found")
    func plain() {
        #expect(Self.written { IMAPSearchResponse.search([1, 2, 3], into: &$0) } == "* SEARCH 1 2 3\r\n")
        #expect(Self.written { IMAPSearchResponse.search([], into: &$0) } == "* SEARCH\r\n")
        #expect(Self.written { IMAPSearchResponse.search([1, 9], modSeq: 3, into: &$0) } == "* SEARCH 1 9 (MODSEQ 3)\r\n")
        #expect(Self.written { IMAPSearchResponse.search([], modSeq: 3, into: &$0) } == "* SEARCH\r\n")
        #expect(Self.written { IMAPSearchResponse.sort([9, 1, 2], into: &$0) } == "* SORT 9 1 2\r\n")
    }

    @Test("* ESEARCH: MIN MAX ALL COUNT MODSEQ in Dovecot's order, the set as ranges, nothing for SAVE alone")
    func esearch() {
        let all: IMAPSearchReturn = [.min, .max, .all, .count]
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A1", uid: false, Array(1...9), options: all, into: &$0) }
                == "* ESEARCH (TAG \"A1\") MIN 1 MAX 9 ALL 1:9 COUNT 9\r\n")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A2", uid: true, [9, 2, 3, 5, 7, 8], options: .all, into: &$0) }
                == "* ESEARCH (TAG \"A2\") UID ALL 2:3,5,7:9\r\n")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A3", uid: false, [], options: .all, into: &$0) } == "* ESEARCH (TAG \"A3\")\r\n")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A4", uid: false, [], options: all, into: &$0) } == "* ESEARCH (TAG \"A4\") COUNT 0\r\n")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A5", uid: false, Array(1...9), options: [.all, .count], modSeq: 3, into: &$0) }
                == "* ESEARCH (TAG \"A5\") ALL 1:9 COUNT 9 MODSEQ 3\r\n")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A6", uid: false, [3, 4, 5], options: [.save, .min, .count], into: &$0) }
                == "* ESEARCH (TAG \"A6\") MIN 3 COUNT 3\r\n")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "A7", uid: false, [3], options: .save, into: &$0) } == "")
        #expect(Self.written { IMAPSearchResponse.esearch(tag: "a\"b", uid: false, [4294967295], options: .all, into: &$0) }
                == "* ESEARCH (TAG \"a\\\"b\") ALL 4294967295\r\n")
    }

    @Test("sequence sets: runs compressed, single numbers alone, 4294967295 without overflow")
    func sequenceSets() {
        #expect(Self.written { IMAPSearchResponse.sequenceSet([1, 2, 3, 9], into: &$0) } == "1:3,9")
        #expect(Self.written { IMAPSearchResponse.sequenceSet([1, 3, 5], into: &$0) } == "1,3,5")
        #expect(Self.written { IMAPSearchResponse.sequenceSet([4294967294, 4294967295], into: &$0) } == "4294967294:4294967295")
        #expect(Self.written { IMAPSearchResponse.sequenceSet([], into: &$0) } == "")
    }
}
