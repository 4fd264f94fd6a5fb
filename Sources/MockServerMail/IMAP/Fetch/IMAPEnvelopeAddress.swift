/// One address of an ENVELOPE address list (RFC 3501 §7.4.2): the display name, the source route,
/// the mailbox (local part) and the host, as bytes from the header, not decoded.
///
/// A group is two entries: one with only `mailbox` (the group's name) and one with nothing, its
/// members between them. A missing local part or domain is `MISSING_MAILBOX` or `MISSING_DOMAIN`,
/// as Dovecot writes them.
struct IMAPEnvelopeAddress: Equatable {
    /// The display name (or a comment standing for it).
    var name: [UInt8]?
    /// The source route (`@a,@b`), obsolete.
    var route: [UInt8]?
    /// The local part, or a group's name.
    var mailbox: [UInt8]?
    /// The domain.
    var host: [UInt8]?

    /// The start of a group named `name`.
    static func groupStart(_ name: [UInt8]) -> IMAPEnvelopeAddress {
        IMAPEnvelopeAddress(name: nil, route: nil, mailbox: name, host: nil)
    }

    /// The end of a group.
    static let groupEnd = IMAPEnvelopeAddress(name: nil, route: nil, mailbox: nil, host: nil)

    /// What Dovecot writes for a missing local part.
    static let missingMailbox = Array("MISSING_MAILBOX".utf8)
    /// What Dovecot writes for a missing domain.
    static let missingDomain = Array("MISSING_DOMAIN".utf8)

    /// Writes `(name adl mailbox host)`.
    func write(to output: inout IMAPOutput) {
        output.byte(0x28)
        output.nstring(name)
        output.byte(0x20)
        output.nstring(route)
        output.byte(0x20)
        output.nstring(mailbox)
        output.byte(0x20)
        output.nstring(host)
        output.byte(0x29)
    }
}
