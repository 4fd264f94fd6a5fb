@testable import MockServerMailScript
import MockServerScript

/// A protocol that only adds the mail routes to the control API (Mailpit's and ours), as the mail
/// server's SMTP does.
struct MailAdminRoutesProtocol: ScriptProtocol {
    let name = "SMTP"
    let schemes: Set<String> = []
    let routes: [ScriptVocabulary.AdminRoute]
    var adminRoutes: [ScriptVocabulary.AdminRoute] { routes }
}
