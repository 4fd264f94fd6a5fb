/// The status that ends a gRPC call: its code (`"status"`), text (`"message"`, with `${…}` values)
/// and the `google.rpc.Status` bytes of its `"details"`, converted at load.
package struct GRPCEndpointStatus: Sendable {
    /// 0 (`OK`) to 16.
    package var code: Int
    package var message: EndpointTemplate?
    /// The JSON `"details"`, for ``GRPCSchema/statusDetails(code:message:details:values:)``; empty when none.
    package var details: [EndpointJSON]

    package init(code: Int = 0, message: EndpointTemplate? = nil, details: [EndpointJSON] = []) {
        self.code = code
        self.message = message
        self.details = details
    }
}
