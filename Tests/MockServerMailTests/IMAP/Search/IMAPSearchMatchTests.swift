import Foundation
import MockServerMail
import Testing

/// Matching messages: Dovecot 2.3.19's answers on the same nine messages (IMAPSearchFixture),
/// flags and numbers, dates in the server's zone, and the raw fast path.
@Suite("IMAP SEARCH matching")
struct IMAPSearchMatchTests {
    static func found(_ line: String) -> [UInt32]? {
        IMAPSearchFixture.found(line)
    }

    @Test("SENT* use the Date field's own day; a missing or broken Date is 1-Jan-1970 (Dovecot)")
    func sentDates() {
        #expect(Self.found("SENTON 1-Jul-2003") == [5])  // 23:52 -0700, the next day in UTC
        #expect(Self.found("SENTON 2-Jul-2003") == [6])  // 00:30 +0200, the day before in UTC
        #expect(Self.found("SENTON 7-Feb-1994") == [1])
        #expect(Self.found("SENTBEFORE 1-Jan-2000") == [1, 2, 3, 4, 7])
        #expect(Self.found("SENTSINCE 1-Jan-2000") == [5, 6, 8, 9])
        #expect(Self.found("SENTON 1-Jan-1970") == [2, 7])
    }

    @Test("BEFORE, ON, SINCE compare INTERNALDATE's day in the server's time zone")
    func internalDates() {
        #expect(Self.found("ON 9-Sep-2001") == [1])
        #expect(Self.found("BEFORE 10-Sep-2001") == [1])
        #expect(Self.found("SINCE 16-Sep-2001") == [8, 9])
        // 2001-09-09 01:46:40 UTC is still the 8th five hours west.
        let west = IMAPSearchContext(messageCount: 9, largestUID: 9, timeZone: TimeZone(secondsFromGMT: -5 * 3600)!)
        #expect(IMAPSearchFixture.found("ON 8-Sep-2001", context: west) == [1])
        #expect(IMAPSearchFixture.found("ON 9-Sep-2001", context: west) == [2])
    }

    @Test("HEADER with an empty string matches messages having the field; SUBJECT \"\" and FROM \"\" too (Dovecot)")
    func emptyStrings() {
        #expect(Self.found("HEADER X-Custom \"\"") == [3, 4])
        #expect(Self.found("HEADER x-custom \"\"") == [3, 4])
        #expect(Self.found("HEADER X-Missing \"\"") == [])
        #expect(Self.found("SUBJECT \"\"") == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Self.found("FROM \"\"") == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Self.found("HEADER Subject \"(fwd)\"") == [1])
    }

    @Test("only text parts' bodies are searched: not attachments, a PDF body, preamble or epilogue (Dovecot)")
    func textPartsOnly() {
        #expect(Self.found("TEXT secretword") == [])
        #expect(Self.found("TEXT rawbinaryword") == [])
        #expect(Self.found("TEXT pdfword") == [])
        #expect(Self.found("TEXT preamble") == [])
        #expect(Self.found("TEXT epilogue") == [])
        #expect(Self.found("BODY softbreak") == [4])  // quoted-printable soft break decoded
        #expect(Self.found("TEXT b0undaryXYZ") == [4])  // in the Content-Type field
    }

    @Test("TEXT searches every part's header fields, BODY none; fields unfolded and decoded (Dovecot)")
    func headersInText() {
        #expect(Self.found("TEXT parthdr") == [4])
        #expect(Self.found("BODY parthdr") == [])
        #expect(Self.found("TEXT \"Subject:\"") == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Self.found("BODY Subject") == [])
        #expect(Self.found("TEXT \"hello world\"") == [6])
        #expect(Self.found("SUBJECT \"hello world\"") == [6])
        #expect(Self.found("TEXT \"=?UTF-8\"") == [])
        #expect(Self.found("TEXT UsOpc3") == [])
        #expect(Self.found("TEXT \"brown  fox\"") == [])
        #expect(Self.found("TEXT nine") == [9])
        #expect(Self.found("TEXT \"\"") == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(Self.found("BODY \"\"") == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test("an attached message's fields are TEXT, its text BODY; an encoded one is not searched; HTML is searched with its tags (Dovecot)")
    func attachedMessagesAndHTML() {
        let inner = "From: inner@example.com\r\nSubject: inner subject innersubj\r\nX-Inner: innerhdr\r\n\r\ninner body innerbody\r\n"
        let candidates = [
            IMAPTestCandidate(1, "From: a@example.com\r\nSubject: fwd\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n"
                + "--B\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--B\r\nContent-Type: message/rfc822\r\n\r\n" + inner + "\r\n--B--\r\n"),
            IMAPTestCandidate(2, "From: b@example.com\r\nSubject: html\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Hello <b>bold</b>&amp; more</p>\r\n"),
            IMAPTestCandidate(3, "From: c@example.com\r\nSubject: fwd b64\r\nMIME-Version: 1.0\r\nContent-Type: message/rfc822\r\n"
                + "Content-Transfer-Encoding: base64\r\n\r\n" + Data(inner.utf8).base64EncodedString() + "\r\n"),
            IMAPTestCandidate(4, "From: d@example.com\r\nSubject: raw 8bit Gr\u{FC}\u{DF}e\r\n\r\nplain\r\n"),
        ]
        let context = IMAPSearchContext(messageCount: 4, largestUID: 40)
        func found(_ line: String) -> [UInt32]? { IMAPSearchFixture.found(line, in: candidates, context: context) }
        #expect(found("TEXT innersubj") == [1])
        #expect(found("BODY innersubj") == [])
        #expect(found("TEXT innerhdr") == [1])
        #expect(found("BODY innerhdr") == [])
        #expect(found("BODY innerbody") == [1])
        #expect(found("SUBJECT innersubj") == [])
        #expect(found("BODY \"<b>\"") == [2])
        #expect(found("BODY \"&amp;\"") == [2])
        #expect(found("BODY \"bold& more\"") == [])
        #expect(found("SUBJECT \"GR\u{DC}\u{DF}E\"") == [4])
        #expect(found("TEXT Content-Type") == [1, 2, 3])
        #expect(found("BODY Content-Type") == [])
    }

    @Test("case-insensitive on decoded text, Unicode lowercase, no diacritics or ß folding (Dovecot)")
    func caseAndCharsets() {
        #expect(Self.found("FROM \"alice smith\"") == [1])
        #expect(Self.found("FROM \"zo\u{EB}\"") == [3])
        #expect(Self.found("TEXT \"ZO\u{CB}\"") == [3])
        #expect(Self.found("SUBJECT \"R\u{E9}sum\u{E9}\"") == [3])
        #expect(Self.found("SUBJECT \"R\u{C9}SUM\u{C9}\"") == [3])
        #expect(Self.found("SUBJECT resume") == [])
        #expect(Self.found("BODY \"STRA\u{DF}E\"") == [3])
        #expect(Self.found("BODY strasse") == [])
        #expect(Self.found("BODY \"GR\u{DC}\u{DF}E\"") == [3])
        #expect(Self.found("BODY \"gr\u{FC}sse\"") == [])
    }

    @Test("sizes, sequence sets, UIDs, $, OR and NOT")
    func numbersAndLogic() {
        #expect(Self.found("SMALLER 100") == [2, 5, 7, 9])
        #expect(Self.found("LARGER 400") == [4])
        #expect(Self.found("OR 1 2 3") == [])
        #expect(Self.found("OR 1 2") == [1, 2])
        #expect(Self.found("2:4,*") == [2, 3, 4, 9])
        #expect(Self.found("UID 8:*") == [8, 9])
        #expect(Self.found("NOT 1:7") == [8, 9])
        #expect(Self.found("OR (1 FROM alice) (FROM bob TEXT lazy)") == [1, 2])
        let saved = IMAPSearchContext(messageCount: 9, largestUID: 9, saved: [2, 5], timeZone: TimeZone(identifier: "UTC")!)
        #expect(IMAPSearchFixture.found("$", context: saved) == [2, 5])
        #expect(IMAPSearchFixture.found("UID $", context: saved) == [2, 5])
        #expect(IMAPSearchFixture.found("NOT $", context: IMAPSearchFixture.context) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        // A UID range past the largest UID still holds the last message (RFC 9051 §9).
        #expect(Self.found("UID 9:4294967295") == [9])
        #expect(Self.found("10:*") == [9])
    }

    @Test("flags, keywords, \\Recent, MODSEQ")
    func flags() {
        let candidates = [
            IMAPTestCandidate(1, "a", flags: [.seen, .answered], modSeq: 5, isRecent: true),
            IMAPTestCandidate(2, "b", flags: [.flagged, .deleted, .draft, .passed], keywords: ["$Junk"], modSeq: 9),
            IMAPTestCandidate(3, "c", keywords: ["NonJunk"], isRecent: true),
        ]
        let context = IMAPSearchContext(messageCount: 3, largestUID: 30)
        func found(_ line: String) -> [UInt32]? { IMAPSearchFixture.found(line, in: candidates, context: context) }
        #expect(found("SEEN") == [1])
        #expect(found("UNSEEN") == [2, 3])
        #expect(found("ANSWERED") == [1])
        #expect(found("UNANSWERED") == [2, 3])
        #expect(found("FLAGGED DELETED DRAFT") == [2])
        #expect(found("OR UNFLAGGED UNDRAFT") == [1, 3])
        #expect(found("UNDELETED") == [1, 3])
        #expect(found("RECENT") == [1, 3])
        #expect(found("NEW") == [3])
        #expect(found("OLD") == [2])
        #expect(found("KEYWORD $junk") == [2])  // Dovecot: KEYWORD junk finds Junk
        #expect(found("KEYWORD $Forwarded") == [2])
        #expect(found("UNKEYWORD nonjunk") == [1, 2])
        #expect(found("KEYWORD \\Seen") == [])
        #expect(found("MODSEQ 5") == [1, 2])
        #expect(found("MODSEQ \"/flags/\\\\seen\" priv 6") == [2])
        #expect(found("UID 20:*") == [2, 3])
    }

    @Test("TEXT on a message that needs no decoding reads the raw bytes and never parses it")
    func rawFastPath() {
        let plain = IMAPTestCandidate(1, "Subject: a long\r\n folded one\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello Wörld, needle here\r\n")
        let context = IMAPSearchContext(messageCount: 1, largestUID: 10)
        #expect(context.matches(.text("NEEDLE"), plain))
        #expect(context.matches(.body("wÖrld") , plain))  // not ASCII: decoded, and found
        #expect(plain.parses == 1)
        #expect(context.matches(.body("needle here"), plain))
        #expect(!context.matches(.body("Subject"), plain))
        #expect(!context.matches(.text("haystack"), plain))
        #expect(plain.parses == 1)
        // A needle with a space, a folded field: decoded, so that the unfolded field matches.
        #expect(context.matches(.text("long folded"), plain))
        #expect(plain.parses == 2)
        // LF line ends, a leading mbox From line.
        let bare = IMAPTestCandidate(1, "From someone Mon Jan  1 00:00:00 2024\nSubject: x\n\nbody text\n")
        #expect(context.matches(.body("BODY TEXT"), bare))
        #expect(!context.matches(.body("someone"), bare))
        #expect(bare.parses == 0)
        for encoded in ["Subject: =?utf-8?q?x?=\r\n\r\nneedle", "Content-Transfer-Encoding: base64\r\n\r\nbmVlZGxl",
                        "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nneedle\r\n--b--", "Content-Type:\r\n image/png\r\n\r\nneedle"] {
            let candidate = IMAPTestCandidate(1, encoded)
            _ = context.matches(.text("needle"), candidate)
            #expect(candidate.parses == 1, "\(encoded)")
        }
        #expect(context.matches(.text("needle"), IMAPTestCandidate(1, "Content-Transfer-Encoding: base64\r\n\r\nbmVlZGxl")))
        #expect(!context.matches(.text("needle"), IMAPTestCandidate(1, "Content-Type:\r\n image/png\r\n\r\nneedle")))
    }

    @Test("a list tests flags before text: a message failing a flag is never read")
    func cheapFirst() {
        let candidate = IMAPTestCandidate(1, "Content-Transfer-Encoding: base64\r\n\r\nbmVlZGxl", flags: [.seen])
        let context = IMAPSearchContext(messageCount: 1, largestUID: 10)
        #expect(!context.matches(.and([.text("needle"), .unseen]), candidate))
        #expect(context.matches(.or([.text("needle"), .seen]), candidate))
        #expect(candidate.parses == 0)
    }
}
