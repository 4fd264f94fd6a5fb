/// Why a message of a gRPC answer could not be made (its JSON, once its values were put in, is not
/// a message of its type; no schema has its method), for the status that ends the call.
struct GRPCAnswerFailure: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}
