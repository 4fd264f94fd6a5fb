import Foundation

extension MockServer {
    /// Bytes a client uploaded (STOR, APPE, STOU) through `«upload»`.
    public struct Upload: Sendable, Hashable {
        /// The name the script selected, usually the command's argument.
        public let name: String
        /// The bytes exactly as received.
        public let data: Data
        /// The control connection it came through.
        public let connection: Int

        /// An upload of `data` named `name` through control connection `connection`.
        package init(name: String, data: Data, connection: Int) {
            self.name = name
            self.data = data
            self.connection = connection
        }
    }
}
