import MockServerCore
import MockServerHTTP
import MockServerScript

extension ScriptDecoding {
    /// A streamed body among a response object's `fields`, written as in an endpoints file:
    /// `"events"` or `"chunks"`, and how it `"end"`s; `nil` when there is neither.
    package func stream(_ fields: [String: JSONNode], path: String) throws(ResponseFileError) -> EndpointScript.Body? {
        try EndpointScriptDecoder(base: decoder).stream(fields, path: path)
    }
}
