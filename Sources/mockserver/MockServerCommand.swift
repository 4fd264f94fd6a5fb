import Dispatch
import Foundation
import MockServer
import MockServerAdmin
import MockServerResponses

/// The `mockserver` command: options in, a running server or a checked file out.
struct MockServerCommand {
    let options: CommandLineOptions

    /// Loads the script named by the options, or the bundled FTP script.
    func loadScript() throws(CommandLineError) -> ResponseScript {
        do {
            if let file = options.file { return try ResponseScript(contentsOf: URL(fileURLWithPath: file)) }
            return try BundledResponses.script(named: "ftp")
        } catch let error as ResponseFileError {
            throw .responseFile(error)
        } catch {
            throw .unreadable(path: options.file ?? "ftp.json", reason: "\(error)")
        }
    }

    /// The file's bytes when it is a stub script (top-level `"endpoints"`), else `nil`.
    func endpointScript() throws(CommandLineError) -> [UInt8]? {
        guard let file = options.file else { return nil }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw .unreadable(path: file, reason: (error as NSError).localizedDescription)
        }
        return HTTPMockServer.isEndpointScript(bytes) ? bytes : nil
    }

    /// An HTTP stub server for a stub script's bytes.
    private func stubServer(_ bytes: [UInt8]?, configuration: MockServer.Configuration) throws(CommandLineError) -> HTTPMockServer {
        let server = HTTPMockServer(configuration: configuration)
        if !options.protoFiles.isEmpty || !options.descriptorSets.isEmpty {
            do {
                try server.loadProtos(options.protoFiles, protoPaths: options.protoPaths, descriptorSets: options.descriptorSets)
            } catch {
                throw .schema(String(describing: error))
            }
        }
        guard let bytes else { return server }
        do {
            try server.addEndpoints(json: bytes, file: options.file)
        } catch {
            throw .responseFile(error)
        }
        return server
    }

    /// The `--mock-data` folders, every file read and checked.
    func mockDataFolders() throws(CommandLineError) -> [MockDataResponder] {
        var folders: [MockDataResponder] = []
        for directory in options.mockDataDirectories {
            do {
                folders.append(try MockDataResponder(folder: URL(fileURLWithPath: directory, isDirectory: true), allowsWildcards: options.allowsWildcards))
            } catch {
                throw .mockData(error)
            }
        }
        return folders
    }

    /// `--check`: loads the file strictly and reports what it holds.
    func check() throws(CommandLineError) -> String {
        var report = ""
        for folder in try mockDataFolders() {
            report += "\(folder.folder.path): OK, \(folder.fileNames.count) mock-data file\(folder.fileNames.count == 1 ? "" : "s")\n"
        }
        if options.file == nil && !options.mockDataDirectories.isEmpty { return report }
        return report + (try checkFile())
    }

    private func checkFile() throws(CommandLineError) -> String {
        if let bytes = try endpointScript() {
            let server = try stubServer(bytes, configuration: .init())
            return "\(options.file ?? ""): OK, \(server.stubs.count) endpoint\(server.stubs.count == 1 ? "" : "s")\n"
        }
        let script = try loadScript()
        do {
            try script.validate()
        } catch {
            throw .responseFile(error)
        }
        // Warnings in the compilers' form, `FILE:LINE:COLUMN: warning: message`; they do not fail the check.
        let warnings = script.warnings.map { "\($0.description.dropLast($0.message.count))warning: \($0.message)\n" }.joined()
        return warnings + "\(options.file ?? "ftp.json"): OK, sets: \(script.setNames.map { "\"\($0)\"" }.joined(separator: ", "))\n"
    }

    /// The regular files inside `directory` and its folders, by relative path (`a.txt`,
    /// `sub/b.txt`); an empty folder as its path with a trailing `/`. Symbolic links are followed,
    /// but not to folders above or beside `directory`'s own (no loops).
    static func files(in directory: String) throws(CommandLineError) -> [String: Data] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).resolvingSymlinksInPath()
        var files: [String: Data] = [:]
        func walk(_ folder: URL, prefix: String, depth: Int) throws {
            let entries = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey])
            if entries.isEmpty && !prefix.isEmpty { files[prefix] = Data() }
            for url in entries {
                let resolved = url.resolvingSymlinksInPath()
                let values = try resolved.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
                let name = prefix + url.lastPathComponent
                if values.isRegularFile == true {
                    files[name] = try Data(contentsOf: resolved)
                } else if values.isDirectory == true, depth < 64, resolved.path.hasPrefix(root.path + "/") || resolved.path == url.path {
                    try walk(resolved, prefix: name + "/", depth: depth + 1)
                }
            }
        }
        do {
            try walk(root, prefix: "", depth: 0)
        } catch {
            throw .unreadable(path: directory, reason: (error as NSError).localizedDescription)
        }
        return files
    }

    /// What watches the transcript: `--verbose` prints it, `--transcript FILE` appends it as JSON lines.
    func transcriptObserver() throws(CommandLineError) -> (@Sendable (Transcript.Entry) -> Void)? {
        try TranscriptOutput.observer(path: options.transcriptFile, verbose: options.verbose) { path in
            .unreadable(path: path, reason: "cannot create the transcript file")
        }
    }

    /// Starts a server as the options say; it runs until the process ends.
    func startServer() throws(CommandLineError) -> MockServer {
        try start().server
    }

    /// The TLS the options ask for: a generated test identity (its CA written to `--tls-ca-out`) or
    /// the `--tls-cert`/`--tls-key` files; `nil` without `--tls` or `--starttls`.
    func tlsConfiguration() throws(CommandLineError) -> TLSSettings? {
        guard let mode = options.tlsMode else { return nil }
        let identity: TLSSettings.Identity
        do {
            if let certificate = options.tlsCertificate, let key = options.tlsKey {
                identity = try TLSSettings.Identity(certificateFile: certificate, privateKeyFile: key)
            } else {
                identity = try .generated(hostNames: options.tlsHosts, fault: options.tlsFault)
            }
        } catch {
            throw .tls(error)
        }
        try CertificateAuthorityFile.write(identity, to: options.tlsCAOut)
        var configuration = TLSSettings(identity: identity, mode: mode == .implicit ? .implicit : .explicit)
        configuration.clientCertificates = options.tlsClientCertificates
        configuration.requireSessionReuse = options.tlsRequireReuse
        configuration.requireTLS = options.tlsRequired
        if let timeout = options.tlsHandshakeTimeout { configuration.handshakeTimeout = timeout }
        configuration.handshakeFault = options.tlsHandshakeFault
        configuration.sendsCloseNotify = options.tlsSendsCloseNotify
        if let path = options.tlsClientCA {
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, reason: "no such file, or not readable") }
            configuration.trustedClientCAs = [String(decoding: data, as: UTF8.self)]
        }
        return configuration
    }

    /// Starts a server as the options say, with what the admin API needs of it.
    func start() throws(CommandLineError) -> (server: MockServer, stubs: HTTPMockServer?, endpoints: [UInt8]?) {
        let endpoints = try endpointScript()
        let grpc = !options.protoFiles.isEmpty || !options.descriptorSets.isEmpty
        if grpc, endpoints == nil, let file = options.file {
            throw .usage("--proto and --descriptor-set serve an endpoints file, and \(file) is a response script (its top level has no \"endpoints\")")
        }
        if endpoints != nil || !options.mockDataDirectories.isEmpty || grpc {
            if !options.mockDataDirectories.isEmpty, endpoints == nil, let file = options.file {
                throw .usage("--mock-data combines with an endpoints file, and \(file) is a response script (its top level has no \"endpoints\")")
            }
            var configuration = MockServer.Configuration(host: options.host, port: options.port)
            configuration.transcriptObserver = try transcriptObserver()
            configuration.tls = try tlsConfiguration()
            configuration.conditions = options.conditions
            options.applyHTTP2(to: &configuration)
            let stubs = try stubServer(endpoints, configuration: configuration)
            for folder in try mockDataFolders() { stubs.addMockData(folder) }
            // Whoever reads the reports of the command's stub server writes endpoints files, not Swift.
            stubs.unexpectedRequestSnippet = .endpoint
            do {
                try stubs.start()
            } catch {
                throw .cannotListen(error)
            }
            return (stubs.server, stubs, endpoints)
        }
        let script = try loadScript()
        let responder: PatternResponder
        do {
            responder = try PatternResponder(script: script, set: options.set)
        } catch {
            throw .responseFile(error)
        }
        let observer = try transcriptObserver()
        var uploadHandler: (@Sendable (MockServer.Upload) -> Void)?
        if let directory = options.uploadsDirectory {
            let folder = URL(fileURLWithPath: directory, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .unreadable(path: directory, reason: (error as NSError).localizedDescription)
            }
            uploadHandler = { upload in
                let target = folder.appendingPathComponent(UploadName.safe(upload.name))
                do {
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try upload.data.write(to: target)
                } catch {
                    FileHandle.standardError.write(Data("mockserver: cannot save upload \(target.path): \(error)\n".utf8))
                }
            }
        }
        var configuration = MockServer.Configuration(host: options.host, port: options.port, dataPort: options.dataPort,
                                                     transcriptObserver: observer, uploadHandler: uploadHandler)
        configuration.tls = try tlsConfiguration()
        options.applyHTTP2(to: &configuration)
        configuration.conditions = options.conditions
        let server = MockServer(responder: responder, configuration: configuration)
        if let directory = options.filesDirectory {
            server.files = MockServer.Files(try Self.files(in: directory))
        }
        if let dataFile = options.dataFile {
            do {
                server.data = try Data(contentsOf: URL(fileURLWithPath: dataFile))
            } catch {
                throw .unreadable(path: dataFile, reason: (error as NSError).localizedDescription)
            }
        }
        do {
            try server.start()
        } catch {
            throw .cannotListen(error)
        }
        return (server, nil, nil)
    }
}
