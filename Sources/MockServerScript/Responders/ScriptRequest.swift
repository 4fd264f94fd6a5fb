import MockServerCore

/// A request as its protocol parsed it, for the substitutions `$method`, `$path`, `$body` and
/// `${header:Name}`, and for `{"save": …}`, which stores its body.
package protocol ScriptRequest: Sendable {
    /// The method, such as `GET`.
    var method: String { get }
    /// The target as sent, such as `/items?x=1`.
    var target: String { get }
    /// The body (de-chunked).
    var body: [UInt8] { get }
    /// The value of the header `name` (any case), or `nil`.
    func header(_ name: String) -> String?
}
