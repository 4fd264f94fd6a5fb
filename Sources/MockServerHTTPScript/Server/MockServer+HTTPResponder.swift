import MockServerEngine
import MockServerHTTP
import MockServerScript

extension MockServer {
    /// Creates a stopped HTTP server whose requests go to `httpResponder`, composed of the
    /// protocols of `vocabulary` (the facade's public initializer gives the standard ones); it
    /// binds no data port.
    package convenience init(httpResponder: any HTTPMockResponder, configuration: MockServer.Configuration, vocabulary: ScriptVocabulary) {
        self.init(responder: PatternResponder([]), configuration: configuration, vocabulary: vocabulary, serving: HTTPResponderServing(httpResponder))
    }
}
