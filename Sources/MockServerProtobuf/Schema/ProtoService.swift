/// A service and its methods.
package struct ProtoService: Sendable, Hashable {
    /// One method (an RPC).
    package struct Method: Sendable, Hashable {
        /// Its name (`RouteChat`).
        package var name: String
        /// The full name of its request message, with a leading dot.
        package var inputType: String
        /// The full name of its response message, with a leading dot.
        package var outputType: String
        /// Whether the client sends a stream of messages (`stream` before the request type).
        package var clientStreaming: Bool
        /// Whether the server sends a stream of messages.
        package var serverStreaming: Bool

        package init(name: String, inputType: String, outputType: String, clientStreaming: Bool = false, serverStreaming: Bool = false) {
            self.name = name
            self.inputType = inputType
            self.outputType = outputType
            self.clientStreaming = clientStreaming
            self.serverStreaming = serverStreaming
        }
    }

    /// Its name (`RouteGuide`).
    package var name: String
    /// Its full name (`routeguide.RouteGuide`): a call's path is `/FULLNAME/METHOD`.
    package var fullName: String
    package var methods: [Method]

    package init(name: String, fullName: String, methods: [Method]) {
        self.name = name
        self.fullName = fullName
        self.methods = methods
    }
}
