import MockServerCore
import MockServerScript

/// A request's parts for `$method`, `$path`, `$body`, `${header:Name}` and `{"save": …}`.
extension HTTPMockRequest: ScriptRequest {
    /// The value of the header `name` (any case), or `nil`.
    public func header(_ name: String) -> String? { headers[name] }
}
