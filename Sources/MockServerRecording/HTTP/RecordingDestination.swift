import Foundation

extension HTTPRecorder {
    /// Where an ``HTTPRecorder`` writes: a folder of mock-data files or an endpoints file.
    public enum Destination: Sendable, Equatable {
        /// `.http` files named by VOKMockUrlProtocol's convention, for `--mock-data DIR` and
        /// `MockDataResponder`; made when missing.
        case mockData(folder: URL)
        /// An endpoints file (a stub script), for `mockserver FILE` and `HTTPMockServer.addEndpoints`;
        /// the endpoints it already has are kept, first.
        case endpoints(file: URL)
    }
}
