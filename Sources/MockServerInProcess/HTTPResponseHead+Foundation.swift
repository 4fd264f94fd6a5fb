import MockServerHTTP

extension HTTPResponseHead {
    /// The header fields as `HTTPURLResponse` takes them: one value per name, repeated fields
    /// joined with commas.
    var foundationFields: [String: String] {
        var fields: [String: String] = [:]
        for field in headers {
            fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        return fields
    }
}
