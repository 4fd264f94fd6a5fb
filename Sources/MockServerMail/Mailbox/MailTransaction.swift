import Foundation
@_spi(HotPath) import MockServerCore

/// One message as the store received it: an SMTP transaction (or a seed file) with its envelope,
/// its exact bytes, the time and an ID, kept once however many recipients it reached.
///
/// The message is parsed (``MailMessage``) the first time ``message`` is read, then kept; a
/// transaction nobody looks at costs its bytes alone.
package final class MailTransaction: Sendable, CustomStringConvertible {
    /// A unique ID, 22 letters and digits as Mailpit's (`/api/v1/message/{ID}`).
    package let id: String
    /// The envelope: sender, recipients, where it came from.
    package let envelope: MailEnvelope
    /// The bytes received, exactly (after DATA's dot-unstuffing; no header added).
    package let raw: Data
    /// When the transaction ended (or the seed file's time).
    package let time: Date
    private let parsed: Locked<MailMessage?>
    private let summary: Locked<IMAPMessageSummary?>

    package init(id: String = MailTransaction.makeID(), envelope: MailEnvelope, raw: Data, time: Date) {
        self.id = id
        self.envelope = envelope
        self.raw = raw
        self.time = time
        parsed = Locked(nil)
        summary = Locked(nil)
    }

    /// What IMAP's FETCH answers of the message (ENVELOPE, BODYSTRUCTURE), made on first use and
    /// kept, so that a FETCH over many messages copies bytes ready made.
    package var imapSummary: IMAPMessageSummary {
        if let summary = summary.withLock({ $0 }) { return summary }
        let made = IMAPMessageSummary(raw: raw)
        return summary.withLock { cached in
            if let cached { return cached }
            cached = made
            return made
        }
    }

    /// The message, parsed on first use.
    package var message: MailMessage {
        if let message = parsed.withLock({ $0 }) { return message }
        // Parsed outside the lock: two readers at once may both parse; the first kept wins.
        let message = MailMessage(raw)
        return parsed.withLock { cached in
            if let cached { return cached }
            cached = message
            return message
        }
    }

    /// The size in bytes, as Mailpit's `Size`.
    package var size: Int { raw.count }

    /// The envelope's recipients that the message's `To` and `Cc` do not name: its blind copies,
    /// as Mailpit's `Bcc` shows them (the stored bytes carry no `Bcc` field).
    package var blindCopies: [String] {
        let message = message
        let named = Set((message.to + message.cc).map { MailboxAddress($0.address) })
        return envelope.recipients.filter { !named.contains(MailboxAddress($0)) }
    }

    /// `ID sender → recipients "subject"`, as a wait's timeout lists what arrived.
    package var description: String {
        let sender = envelope.sender.isEmpty ? "<>" : envelope.sender
        return "\(id) \(sender) → \(envelope.recipients.joined(separator: ", ")) \"\(message.subject)\""
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A new random ID: 128 random bits written in base 62, 22 characters (as Mailpit's short UUIDs).
    package static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64, low = generator.next() as UInt64
        var digits = [UInt8](repeating: alphabet[0], count: 22)
        for index in stride(from: 21, through: 0, by: -1) {
            // Divides the 128-bit number (high, low) by 62, keeping the remainder.
            let highQuotient = high / 62, highRemainder = high % 62
            let (lowQuotient, remainder) = UInt64(62).dividingFullWidth((high: highRemainder, low: low))
            high = highQuotient
            low = lowQuotient
            digits[index] = alphabet[Int(remainder)]
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
