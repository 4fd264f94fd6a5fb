import Foundation

/// What FETCH needs of one stored message besides its bytes, made once from them: its parsed parts
/// and the ready bytes of its ENVELOPE, BODY and BODYSTRUCTURE, so that answering these items for
/// the thousandth time costs a copy.
///
/// Made by the session (or the store) per message and transaction; immutable, so one summary may
/// serve every session at once. The bytes are written as a client without UTF8=ACCEPT may read
/// them (8-bit strings as literals), which a client that enabled it reads as well.
package final class IMAPMessageSummary: Sendable {
    /// The message's size in octets (RFC822.SIZE).
    package let size: Int
    /// The message's parts, as ``MIMETree`` parsed them (offsets into the message's bytes).
    package let tree: MIMETree
    /// `(date subject from … message-id)`: the ENVELOPE value.
    package let envelope: [UInt8]
    /// The BODY value: the structure without extension data.
    package let body: [UInt8]
    /// The BODYSTRUCTURE value: the structure with extension data.
    package let bodyStructure: [UInt8]

    /// Parses `raw` (within `limits`) and writes its envelope and structures.
    package convenience init(raw: Data, limits: MIMELimits = MIMELimits()) {
        let tree = raw.withUnsafeBytes { MIMETree(parsing: $0, limits: limits) }
        self.init(raw: raw, tree: tree)
    }

    /// The summary of a message already parsed: its tree is shared, not parsed again (nor held
    /// twice: about 4 KB of a summary's 5 KB is the tree, for the fixtures).
    package convenience init(message: MailMessage) {
        self.init(raw: message.raw, tree: message.tree)
    }

    /// Writes the envelope and structures of `raw`, whose parts are `tree`.
    private init(raw: Data, tree: MIMETree) {
        size = raw.count
        self.tree = tree
        var envelope = IMAPOutput(capacity: 512), body = IMAPOutput(capacity: 256), bodyStructure = IMAPOutput(capacity: 320)
        raw.withUnsafeBytes { bytes in
            IMAPEnvelope.write(headers: tree.parts[0].headers, in: bytes, to: &envelope)
            IMAPBodyStructure.write(0, of: tree, in: bytes, extended: false, to: &body)
            IMAPBodyStructure.write(0, of: tree, in: bytes, extended: true, to: &bodyStructure)
        }
        self.envelope = envelope.bytes
        self.body = body.bytes
        self.bodyStructure = bodyStructure.bytes
    }
}
