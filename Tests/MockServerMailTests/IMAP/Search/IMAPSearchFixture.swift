import Foundation
import MockServerMail

/// Nine messages that Dovecot 2.3.19 was asked about (a Maildir of the same bytes, each file's
/// mtime its INTERNALDATE, the server in UTC); the tests expect its answers.
enum IMAPSearchFixture {
    /// The messages' texts, in sequence order (CRLF line ends).
    static let texts: [String] = [
        "Date: Mon, 7 Feb 1994 21:52:25 -0800\r\nFrom: Alice Smith <alice@example.com>\r\nTo: bob@example.org\r\n"
            + "Subject: Re: [list] Fwd: Hello (fwd)\r\nMessage-ID: <1@x>\r\n\r\nThe quick brown fox\r\n",
        "From: bob@example.org\r\nTo: Carol <carol@example.net>\r\nSubject: hello\r\n\r\nlazy dog\r\n",
        "Date: Tue, 8 Feb 1994 10:00:00 +0000\r\nFrom: =?UTF-8?Q?Zo=C3=AB?= <zoe@example.com>\r\nTo: a@b.c\r\n"
            + "Subject: =?UTF-8?B?UsOpc3Vtw6k=?=\r\nX-Custom:\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: base64\r\n\r\n" + Data("Grüße aus der Straße, RÉSUMÉ attached\r\n".utf8).base64EncodedString() + "\r\n",
        "Date: Wed, 9 Feb 1994 10:00:00 +0000\r\nFrom: dave@example.com\r\nCc: Eve <eve@example.com>\r\nSubject: multipart\r\n"
            + "X-Custom: value\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0undaryXYZ\"\r\n\r\npreamble text\r\n"
            + "--b0undaryXYZ\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nsoft=\r\nbreak and caf=C3=A9\r\n"
            + "--b0undaryXYZ\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\nX-Part-Header: parthdr\r\n\r\n"
            + Data("secretword inside the attachment\r\n".utf8).base64EncodedString() + "\r\n"
            + "--b0undaryXYZ\r\nContent-Type: application/octet-stream\r\n\r\nrawbinaryword\r\n--b0undaryXYZ--\r\nepilogue text\r\n",
        "Date: Tue, 1 Jul 2003 23:52:37 -0700\r\nFrom: frank@example.com\r\nSubject: [fwd: Hello]\r\n\r\nbody five\r\n",
        "Date: Wed, 2 Jul 2003 00:30:00 +0200\r\nFrom: gina@example.com\r\nSubject: re: RE: fw: hello\r\n world\r\n\r\nbody six\r\n",
        "Date: not a date\r\nFrom: hal@example.com\r\nSubject: [a] [b] \r\n\r\nbody seven\r\n",
        "Date: Thu, 1 Jan 2004 00:00:00 +0000\r\nFrom: ivy@example.com\r\nSubject: Re: [a] \r\nContent-Type: application/pdf\r\n\r\npdfword here\r\n",
        "To: x@y.z\r\nDate: Fri, 2 Jan 2004 00:00:00 +0000\r\n\r\nplain nine\r\n",
    ]

    /// The candidates: message i arrived at 1,000,000,000 + (i−1)·86,400 s (the ninth at 1,000,700,000).
    static func candidates() -> [IMAPTestCandidate] {
        texts.enumerated().map { index, text in
            let arrival: TimeInterval = index == 8 ? 1_000_700_000 : 1_000_000_000 + TimeInterval(index) * 86_400
            return IMAPTestCandidate(UInt32(index + 1), uid: UInt32(index + 1), text, internalDate: Date(timeIntervalSince1970: arrival))
        }
    }

    /// The context of the fixture's folder, in UTC.
    static let context = IMAPSearchContext(messageCount: 9, largestUID: 9, timeZone: TimeZone(identifier: "UTC")!)

    /// The command's arguments as the reader frames `line` (without tag and name: `line` starts
    /// with the arguments), a synchronizing literal's continuation skipped.
    static func arguments(_ line: String) -> ArraySlice<IMAPValue> {
        var reader = IMAPCommandReader()
        var input = Array("t SEARCH \(line)\r\n".utf8)[...]
        while let result = reader.read(&input) {
            if case .command(let command) = result { return command.arguments[...] }
        }
        return []
    }

    /// The search of `line` (arguments after SEARCH), or its error.
    static func search(_ line: String, limits: IMAPSearchLimits = .init()) -> Result<IMAPSearchCommand, IMAPSearchError> {
        IMAPSearchCommand.parse(arguments(line), limits: limits)
    }

    /// The sequence numbers of the fixture's messages that `line` finds.
    static func found(_ line: String, in candidates: [IMAPTestCandidate] = candidates(), context: IMAPSearchContext = context) -> [UInt32]? {
        guard case .success(let command) = search(line) else { return nil }
        return candidates.filter { context.matches(command.key, $0) }.map(\.sequenceNumber)
    }
}
