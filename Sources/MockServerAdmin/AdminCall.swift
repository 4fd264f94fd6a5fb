import Foundation
import MockServerCore
import MockServerEngine
import MockServerHTTP

/// One request to a route of the control API, with its parameters read as typed values: each
/// reader throws an ``AdminFailure`` that names the parameter or the body at fault.
struct AdminCall: Sendable {
    /// What the API controls.
    let target: AdminResponder.Target
    /// The request as it came.
    let request: HTTPMockRequest
    /// The connection it came on (its number and transcript, for `/shutdown`).
    let context: HTTPRequestContext
    /// What the route's path pattern left (PATH, NAME); empty for an exact path.
    let rest: String
    /// The query's parameters, decoded (`+` as a space).
    let query: [String: String]

    /// The mock.
    var server: MockServer { target.server }

    /// Query parameter `name` as a whole number of at least 0; `defaultValue` when it is absent.
    func wholeNumber(_ name: String, default defaultValue: Int) throws(AdminFailure) -> Int {
        guard let text = query[name] else { return defaultValue }
        guard let number = Int(text), number >= 0 else { throw AdminFailure(400, "\(name) must be a whole number, not \(text)") }
        return number
    }

    /// Query parameter `name` as seconds from 0 to 3600; `defaultValue` when it is absent (`nil`: none).
    func seconds(_ name: String, default defaultValue: Double?) throws(AdminFailure) -> Double? {
        guard let text = query[name] else { return defaultValue }
        guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else { throw AdminFailure(400, "\(name) must be seconds from 0 to 3600, not \(text)") }
        return seconds
    }

    /// The body as a JSON object's members, read by the package's JSON reader.
    func jsonObject() throws(AdminFailure) -> [String: JSONNode] {
        guard let value = try? JSONReader.parse(request.body, options: .strict), let members = value.objectMembers else {
            throw AdminFailure(400, "the body is not a JSON object: \(String(decoding: request.body.prefix(200), as: UTF8.self))")
        }
        return members
    }

    /// The body's string member `key`, or a failure that shows the body's expected form (`example`).
    func jsonString(_ key: String, example: String) throws(AdminFailure) -> String {
        guard let text = try jsonObject()[key]?.stringValue else { throw AdminFailure(400, "the body must be \(example)") }
        return text
    }
}
