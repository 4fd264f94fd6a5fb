/// A transcript note's text rendered by a function the first time it is read and kept from then on
/// (under a lock: a transcript is read from any thread).
final class TranscriptNoteText: Sendable {
    /// Where the text stands.
    private enum State {
        /// Rendered.
        case text(String)
        /// Not rendered yet.
        case rendering(@Sendable () -> String)
    }

    private let state: Locked<State>

    init(rendering render: @escaping @Sendable () -> String) {
        state = Locked(.rendering(render))
    }

    /// The text, rendered now if it was not yet.
    var text: String {
        state.withLock { state in
            switch state {
            case .text(let text):
                return text
            case .rendering(let render):
                let text = render()
                state = .text(text)
                return text
            }
        }
    }
}
