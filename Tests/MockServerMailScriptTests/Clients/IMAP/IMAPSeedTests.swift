import Foundation
import MockServerMail
import Testing
import TestSupport

/// The IMAP suites' seed (``IMAPSeed``) as our store reads it (`MailSeed`, what `--mail-dir`
/// loads): the same folders, messages, flags and times that Dovecot shows a client of it
/// (``IMAPSyncScenario/seeded``, which the suites check against Dovecot).
@Suite("The IMAP seed, as our store reads it")
struct IMAPSeedTests {
    @Test("MailSeed reads the seed's folders (empty Archive too), flags and internal dates as Dovecot serves them")
    func readByMailSeed() throws {
        let seed = try MailSeed(directory: try IMAPSeed.make())
        #expect(seed.folders[MailboxAddress(IMAPSeed.ann)]?.sorted() == (["INBOX"] + IMAPSeed.folders[IMAPSeed.ann, default: []]).sorted())
        let lines = seed.messages.filter { $0.address == MailboxAddress(IMAPSeed.ann) }
            .map { "\($0.folder)|\(IMAPSyncScenario.subject(of: String(decoding: $0.raw, as: UTF8.self)))|\($0.flags.maildirLetters)" }
        #expect(lines.sorted() == IMAPSyncScenario.seeded)
        let times = seed.messages.map { Int($0.time.timeIntervalSince1970) }.sorted()
        #expect(times == IMAPSeed.messages.indices.map { IMAPSeed.firstTime + 3600 * $0 })
        #expect(seed.messages.filter { $0.address == MailboxAddress(IMAPSeed.bob) }.count == 1)
    }
}
