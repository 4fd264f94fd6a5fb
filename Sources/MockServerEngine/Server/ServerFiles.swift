import Foundation

extension MockServer {
    /// The files a server serves to FTP and WebDAV and records uploads in, by path: every key in one
    /// form (`/in/today.csv`, a folder ending in `/`), and either form accepted (`in/today.csv` finds
    /// the same file), whether the file came from your code, `--files DIR`, a script or an upload.
    ///
    /// ```swift
    /// server.files = ["in/today.csv": Data("id\n1\n".utf8)]
    /// server.files["/in/today.csv"] == server.files["in/today.csv"]   // true
    /// server.files.paths                                             // ["/in/today.csv"]
    /// ```
    public struct Files: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
        /// Path (in the one form) → bytes.
        private var storage: [String: Data]

        /// Files from paths in either form; a later path naming the same file wins.
        public init(_ files: [String: Data] = [:]) {
            storage = [:]
            for (path, data) in files { storage[Self.path(path)] = data }
        }

        /// Files from a literal: `["report.csv": data]`.
        public init(dictionaryLiteral elements: (String, Data)...) {
            self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
        }

        /// `path` in the one form: a single leading `/` (`a.txt` and `//a.txt` are `/a.txt`).
        public static func path(_ path: String) -> String {
            "/" + path.drop { $0 == "/" }
        }

        /// The bytes of the file at `path`, given in either form; setting `nil` removes it.
        public subscript(path: String) -> Data? {
            get { storage[Self.path(path)] }
            set { storage[Self.path(path)] = newValue }
        }

        /// The paths, sorted (folders end in `/`).
        public var paths: [String] { storage.keys.sorted() }
        /// The paths, as a dictionary's keys.
        public var keys: Dictionary<String, Data>.Keys { storage.keys }
        /// The bytes of every file.
        public var values: Dictionary<String, Data>.Values { storage.values }
        /// How many files and folders there are.
        public var count: Int { storage.count }
        /// Whether there are none.
        public var isEmpty: Bool { storage.isEmpty }
        /// The files as a dictionary, keys in the one form.
        public var dictionary: [String: Data] { storage }

        /// Each file's value under `transform`, by path: `server.files.mapValues(\.count)` gives sizes.
        public func mapValues<T>(_ transform: (Data) throws -> T) rethrows -> [String: T] {
            try storage.mapValues(transform)
        }

        /// The path and bytes of each file, in no order.
        public func makeIterator() -> Dictionary<String, Data>.Iterator { storage.makeIterator() }

        /// The paths and sizes: `["/a.txt": 5 bytes]`.
        public var description: String {
            "[" + paths.map { "\($0): \(storage[$0]?.count ?? 0) bytes" }.joined(separator: ", ") + "]"
        }
    }
}
