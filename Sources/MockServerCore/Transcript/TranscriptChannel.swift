/// Which listener a connection came in on.
public enum TranscriptChannel: String, Sendable, Hashable {
    /// The main (control) port, where input units go to the responder.
    case control
    /// The passive-data port.
    case data
}
