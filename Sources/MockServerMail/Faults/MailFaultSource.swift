/// What a mail session asks, at each ``MailFaultPoint``, whether to fail there: a plan of rules set
/// from Swift, a response script or the control API (Mailpit's chaos). Called on the connection's
/// loop thread, once for each time the session reaches the point; `nil` answers as the server.
package protocol MailFaultSource: Sendable {
    func decide(_ point: MailFaultPoint, subject: MailFaultSubject) -> MailFaultDecision?
}
