import Foundation
import TestSupport

/// The seed every IMAP client suite starts its server with, built in code as a `--mail-dir` folder
/// of Maildirs (Maildir++ subfolders, flags in the `:2,` suffix, the internal date in the file's
/// modification time), so that our server and Dovecot read the same files.
///
/// `ann@example.com` has an INBOX of eight messages (seen, unseen, flagged, answered, draft; a
/// multipart with an attachment whose file name is RFC 2231-encoded, a forward carrying a
/// message/rfc822, a subject in UTF-8 encoded words) and the folders Sent, Drafts, Trash, Junk,
/// Archive (empty) and Archive/2026; `bob@example.com` has an INBOX of one.
enum IMAPSeed {
    /// One seeded message: where it is, its Maildir flags, and its text.
    struct Message {
        /// The address whose mailbox holds it.
        let address: String
        /// The folder, `/`-separated; `""` is INBOX.
        let folder: String
        /// Maildir info flags (`D`raft, `F`lagged, `R`eplied, `S`een), in alphabetical order.
        let flags: String
        /// The message, CRLF line ends.
        let raw: String
    }

    /// The address with the folders and most of the messages.
    static let ann = "ann@example.com"
    /// The second address, with one message of its own.
    static let bob = "bob@example.com"

    /// A plain text message, CRLF line ends.
    static func text(from: String, to: String, subject: String, date: String, id: String, body: String, extra: [String] = []) -> String {
        (["From: \(from)", "To: \(to)", "Subject: \(subject)", "Date: \(date)", "Message-ID: <\(id)@example.com>"] + extra + ["", body])
            .joined(separator: "\r\n") + "\r\n"
    }

    /// INBOX 1, seen.
    static let lunch = text(from: "Bob <bob@example.com>", to: "Ann <ann@example.com>", subject: "Lunch on Friday",
                            date: "Mon, 02 Nov 2026 09:00:00 +0000", id: "lunch", body: "Shall we meet at noon?")
    /// INBOX 2, unseen, with a Cc.
    static let report = text(from: "Carol <carol@example.com>", to: "ann@example.com", subject: "Quarterly report",
                             date: "Tue, 03 Nov 2026 10:15:00 +0000", id: "report", body: "The numbers are in: revenue grew by a tenth.",
                             extra: ["Cc: Bob <bob@example.com>"])
    /// INBOX 3, flagged.
    static let urgent = text(from: "Bob <bob@example.com>", to: "ann@example.com", subject: "Urgent: keys",
                             date: "Tue, 03 Nov 2026 18:40:00 +0000", id: "urgent", body: "I left my keys in your office.")
    /// INBOX 4, answered.
    static let answered = text(from: "Dan <dan@example.com>", to: "ann@example.com", subject: "Question about the trip",
                               date: "Wed, 04 Nov 2026 08:05:00 +0000", id: "trip", body: "Do we leave on Monday or Tuesday?")
    /// INBOX 5, a draft.
    static let draft = text(from: "Ann <ann@example.com>", to: "dan@example.com", subject: "Re: Question about the trip",
                            date: "Wed, 04 Nov 2026 08:30:00 +0000", id: "draft", body: "Monday, I think, but")
    /// A multipart/mixed with a quoted-printable text and a PDF whose name is RFC 2231-encoded.
    static let attachment = [
        "From: Carol <carol@example.com>", "To: ann@example.com", "Subject: The CV you asked for",
        "Date: Wed, 04 Nov 2026 14:30:00 +0100", "Message-ID: <cv@example.com>", "MIME-Version: 1.0",
        "Content-Type: multipart/mixed; boundary=\"outer-boundary\"", "",
        "This is a multi-part message in MIME format.", "",
        "--outer-boundary", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", "",
        "Here it is, my r=C3=A9sum=C3=A9.", "",
        "--outer-boundary", "Content-Type: application/pdf; name*=utf-8''R%C3%A9sum%C3%A9%202026.pdf",
        "Content-Disposition: attachment; filename*=utf-8''R%C3%A9sum%C3%A9%202026.pdf", "Content-Transfer-Encoding: base64", "",
        "JVBERi0xLjQKJSBhIHRpbnkgUERGCiUlRU9GCg==", "",
        "--outer-boundary--", "",
    ].joined(separator: "\r\n")
    /// A forward: a text part and the forwarded message as message/rfc822.
    static let forward = [
        "From: Dan <dan@example.com>", "To: ann@example.com", "Subject: Fwd: Lunch on Friday",
        "Date: Thu, 05 Nov 2026 11:00:00 +0000", "Message-ID: <fwd@example.com>", "MIME-Version: 1.0",
        "Content-Type: multipart/mixed; boundary=\"fwd-boundary\"", "",
        "--fwd-boundary", "Content-Type: text/plain; charset=us-ascii", "", "See below.", "",
        "--fwd-boundary", "Content-Type: message/rfc822", "",
        "From: Bob <bob@example.com>", "To: Dan <dan@example.com>", "Subject: Lunch on Friday",
        "Date: Mon, 02 Nov 2026 09:00:00 +0000", "Message-ID: <lunch-dan@example.com>", "", "Shall we meet at noon?", "",
        "--fwd-boundary--", "",
    ].joined(separator: "\r\n")
    /// A subject in UTF-8 encoded words, and an 8-bit UTF-8 body.
    static let greetings = text(from: "Jörg <joerg@example.com>", to: "ann@example.com", subject: "=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=",
                                date: "Fri, 06 Nov 2026 16:20:00 +0100", id: "koeln", body: "Viele Grüße vom Rhein.",
                                extra: ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"])

    /// Every seeded message, in the order of their internal dates (and so of UIDs within a folder).
    static let messages: [Message] = [
        Message(address: ann, folder: "", flags: "S", raw: lunch),
        Message(address: ann, folder: "", flags: "", raw: report),
        Message(address: ann, folder: "", flags: "FS", raw: urgent),
        Message(address: ann, folder: "", flags: "RS", raw: answered),
        Message(address: ann, folder: "", flags: "DS", raw: draft),
        Message(address: ann, folder: "", flags: "S", raw: attachment),
        Message(address: ann, folder: "", flags: "", raw: forward),
        Message(address: ann, folder: "", flags: "", raw: greetings),
        Message(address: ann, folder: "Sent", flags: "S", raw: text(from: "Ann <ann@example.com>", to: "Bob <bob@example.com>", subject: "Re: Lunch on Friday",
                                                                  date: "Mon, 02 Nov 2026 09:30:00 +0000", id: "sent", body: "Noon is fine.")),
        Message(address: ann, folder: "Drafts", flags: "DS", raw: text(from: "Ann <ann@example.com>", to: "carol@example.com", subject: "Thanks",
                                                                     date: "Wed, 04 Nov 2026 15:00:00 +0000", id: "thanks", body: "Thank you for")),
        Message(address: ann, folder: "Trash", flags: "S", raw: text(from: "Shop <news@shop.example>", to: "ann@example.com", subject: "Old newsletter",
                                                                   date: "Sun, 01 Nov 2026 07:00:00 +0000", id: "news", body: "Nothing new.")),
        Message(address: ann, folder: "Junk", flags: "", raw: text(from: "Prize <win@spam.example>", to: "ann@example.com", subject: "You won",
                                                                 date: "Sun, 01 Nov 2026 03:00:00 +0000", id: "spam", body: "Click here.")),
        Message(address: ann, folder: "Archive/2026", flags: "S", raw: text(from: "Bob <bob@example.com>", to: "ann@example.com", subject: "January plans",
                                                                          date: "Mon, 05 Jan 2026 09:00:00 +0000", id: "january", body: "Skiing?")),
        Message(address: ann, folder: "Archive/2026", flags: "RS", raw: text(from: "Carol <carol@example.com>", to: "ann@example.com", subject: "February plans",
                                                                           date: "Mon, 02 Feb 2026 09:00:00 +0000", id: "february", body: "Paris?")),
        Message(address: bob, folder: "", flags: "", raw: text(from: "Ann <ann@example.com>", to: "Bob <bob@example.com>", subject: "Hello Bob",
                                                             date: "Sat, 07 Nov 2026 12:00:00 +0000", id: "hello", body: "Hi!")),
    ]

    /// Every folder of each address, INBOX aside, empty ones included.
    static let folders: [String: [String]] = [ann: ["Sent", "Drafts", "Trash", "Junk", "Archive", "Archive/2026"], bob: []]

    /// The messages of `address`'s `folder` (`""`: INBOX), in order.
    static func messages(of address: String, in folder: String = "") -> [Message] {
        messages.filter { $0.address == address && $0.folder == folder }
    }

    /// The seed's internal dates start here (2026-11-01T00:00:00Z), one hour apart in seed order.
    static let firstTime = 1_793_491_200

    /// Writes the seed into a new temporary folder and returns it.
    static func make() throws -> URL {
        let root = try Tools.temporaryDirectory().appendingPathComponent("seed", isDirectory: true)
        for (address, subfolders) in folders {
            for folder in [""] + subfolders {
                for sub in ["cur", "new", "tmp"] {
                    try FileManager.default.createDirectory(at: maildir(root, address, folder).appendingPathComponent(sub), withIntermediateDirectories: true)
                }
            }
        }
        for (index, message) in messages.enumerated() {
            let time = firstTime + 3600 * index
            let file = maildir(root, message.address, message.folder).appendingPathComponent("cur")
                .appendingPathComponent("\(time).M\(index)P1.seed:2,\(message.flags)")
            try Data(message.raw.utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(time))], ofItemAtPath: file.path)
        }
        return root
    }

    /// The Maildir of `address`'s `folder` under `root`: Maildir++ names a subfolder `.A.B`.
    private static func maildir(_ root: URL, _ address: String, _ folder: String) -> URL {
        let top = root.appendingPathComponent(address, isDirectory: true)
        return folder.isEmpty ? top : top.appendingPathComponent("." + folder.replacingOccurrences(of: "/", with: "."), isDirectory: true)
    }
}
