import Foundation
@testable import MockServerMail
import Testing

/// SORT: parsing, base subjects (RFC 5256 §2.1), and Dovecot 2.3.19's orders on IMAPSearchFixture.
@Suite("IMAP SORT")
struct IMAPSortTests {
    /// The fixture's sequence numbers in the order `line` (arguments after SORT) gives.
    static func order(_ line: String) -> [UInt32]? {
        guard case .success(let command) = IMAPSortCommand.parse(IMAPSearchFixture.arguments(line)) else { return nil }
        let found = IMAPSearchFixture.candidates().filter { IMAPSearchFixture.context.matches(command.key, $0) }
        return command.ordered(found).map(\.sequenceNumber)
    }

    @Test("the orders Dovecot gives for each criterion, ties by ascending sequence number even reversed")
    func dovecotOrders() {
        #expect(Self.order("(SUBJECT) UTF-8 ALL") == [9, 1, 2, 5, 6, 4, 3, 8, 7])
        #expect(Self.order("(FROM) UTF-8 ALL") == [9, 1, 2, 4, 5, 6, 7, 8, 3])
        #expect(Self.order("(DATE) UTF-8 ALL") == [1, 3, 4, 2, 7, 6, 5, 8, 9])
        #expect(Self.order("(REVERSE ARRIVAL) UTF-8 ALL") == [9, 8, 7, 6, 5, 4, 3, 2, 1])
        #expect(Self.order("(CC) UTF-8 ALL") == [1, 2, 3, 5, 6, 7, 8, 9, 4])
        #expect(Self.order("(DISPLAYFROM) UTF-8 ALL") == [9, 1, 2, 4, 5, 6, 7, 8, 3])
        #expect(Self.order("(REVERSE SUBJECT) UTF-8 ALL") == [7, 8, 3, 4, 6, 1, 2, 5, 9])
        #expect(Self.order("(SUBJECT REVERSE DATE) UTF-8 ALL") == [9, 5, 2, 1, 6, 4, 3, 8, 7])
        #expect(Self.order("(ARRIVAL) US-ASCII FROM example.com") == [1, 3, 4, 5, 6, 7, 8])
        #expect(Self.order("(SIZE) UTF-8 SMALLER 100") == [9, 7, 2, 5])
        #expect(Self.order("(TO DISPLAYTO) UTF-8 ALL") == [4, 5, 6, 7, 8, 3, 1, 2, 9])
        #expect(Self.order("(DISPLAYTO) UTF-8 ALL") == [4, 5, 6, 7, 8, 3, 1, 2, 9])
    }

    @Test("RFC 5256 base subjects")
    func baseSubjects() {
        let cases: [(String, String)] = [
            ("Re: [list] Fwd: Hello (fwd)", "Hello"), ("[fwd: Hello]", "Hello"), ("re: RE: fw: hello world", "hello world"),
            ("[a] [b] ", "[b]"), ("Re: [a] ", "[a]"), ("", ""), ("  Re:\tRe:   spaced\t\tout  ", "spaced out"),
            ("Re[2]: counted", "counted"), ("Fwd [x]: y", "y"), ("[PATCH 1/2] fix", "fix"), ("[fwd: [fwd: Re: x (fwd)]]", "x"),
            ("Report: x", "Report: x"), ("Ré: accented", "Ré: accented"), ("[unclosed subject", "[unclosed subject"),
            ("(fwd) (FWD)", ""), ("Re:", ""),
        ]
        for (subject, base) in cases {
            #expect(IMAPBaseSubject.of(subject) == base, "\(subject)")
        }
    }

    @Test("criteria, REVERSE and the charset are required where RFC 5256 puts them")
    func parsing() throws {
        let command = try IMAPSortCommand.parse(IMAPSearchFixture.arguments("(reverse date subject) utf-8 SEEN FROM x")).get()
        #expect(command.criteria == [IMAPSortCriterion(.date, reversed: true), IMAPSortCriterion(.subject)])
        #expect(command.charset == "utf-8")
        #expect(command.key == .and([.seen, .from("x")]))
        func error(_ line: String) -> IMAPSearchError? {
            guard case .failure(let error) = IMAPSortCommand.parse(IMAPSearchFixture.arguments(line)) else { return nil }
            return error
        }
        #expect(error("() UTF-8 ALL") == .bad("SORT must start with a list of sort criteria"))
        #expect(error("DATE UTF-8 ALL") == .bad("SORT must start with a list of sort criteria"))
        #expect(error("(DATE REVERSE) UTF-8 ALL") == .bad("REVERSE must be followed by a sort criterion"))
        #expect(error("(COLOUR) UTF-8 ALL") == .bad("Unknown sort criterion COLOUR"))
        #expect(error("(DATE)") == .bad("Missing charset after the sort criteria"))
        #expect(error("(DATE) KOI8-R ALL") == .badCharset("KOI8-R"))
        #expect(error("(DATE) UTF-8") == .bad("Missing search criteria"))
    }
}
