import MockServerCore
import MockServerHTTP

/// One rule of a streaming call's `"each"`: which request messages it takes (`"request": {"json":
/// …}`, any when absent), the messages it sends at once for each, and the status that ends the call
/// there, when it gives one.
package struct GRPCEndpointRule: Sendable {
    /// The fields a request message must have (proto3 JSON; others are ignored); `nil` takes any.
    package var request: GRPCRequestPattern?
    /// Sent at once for each message the rule takes, with values from that message.
    package var messages: [GRPCEndpointMessage]
    /// The status that ends the call after the messages, when the rule ends it.
    package var end: GRPCEndpointStatus?
    /// An HTTP/2 fault that ends the call after the messages instead (a reset, a GOAWAY, a stall).
    package var fault: HTTPStreamFault?

    package init(request: GRPCRequestPattern? = nil, messages: [GRPCEndpointMessage] = [], end: GRPCEndpointStatus? = nil) {
        self.request = request
        self.messages = messages
        self.end = end
    }
}
