import Foundation
import MockServerScript

extension ResponseScript {
    /// Loads a response file in the standard vocabulary (FTP, HTTP and WebDAV).
    ///
    /// A set that names a response the file does not define does not stop the file loading (the
    /// original's sample files have such sets); asking for that set throws, and ``validate()``
    /// reports it. Every other problem throws here.
    ///
    /// - Throws: ``ResponseFileError`` with the file, and the line and column where known.
    public init(contentsOf url: URL) throws(ResponseFileError) {
        try self.init(contentsOf: url, vocabulary: .standard)
    }

    /// Loads a response script from JSON text in the standard vocabulary.
    ///
    /// - Parameters:
    ///   - json: the file's bytes.
    ///   - file: the name to give in errors.
    /// - Throws: ``ResponseFileError`` with the line and column where known.
    public init(json: [UInt8], file: String? = nil) throws(ResponseFileError) {
        try self.init(json: json, file: file, vocabulary: .standard)
    }

    /// Loads a response script from JSON text in the standard vocabulary.
    ///
    /// - Throws: ``ResponseFileError`` with the line and column where known.
    public init(json: String, file: String? = nil) throws(ResponseFileError) {
        try self.init(json: Array(json.utf8), file: file, vocabulary: .standard)
    }

    /// Creates a script from sets built in code; without `framing`, the scheme's protocol says
    /// (whole requests for `http` and `webdav`, messages for `websocket`, lines otherwise).
    /// `settings` are what a file's protocol-specific top-level keys give, each protocol's in its
    /// own type.
    public init(sets: [ResponseSet], scheme: String? = nil, framing: Framing? = nil, data: [UInt8]? = nil, files: [String: [UInt8]] = [:],
                settings: ScriptSettings = ScriptSettings()) {
        self.init(sets: sets, scheme: scheme, framing: framing, data: data, files: files, settings: settings, vocabulary: .standard)
    }
}
