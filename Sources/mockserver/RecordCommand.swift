import Foundation
import MockServer
import MockServerAdmin
import MockServerHTTPScript
import MockServerRecording
import MockServerResponses

/// `mockserver record`: a recording reverse proxy started as the options say.
struct RecordCommand {
    let options: RecordOptions

    /// A started recording: where it listens, what it records, and how to end it (stop, write what
    /// is pending, and say what was recorded).
    struct Running {
        let address: NetworkAddress?
        let port: UInt16
        let recording: String
        let finish: @Sendable () -> String
    }

    /// Starts the proxy the options ask for; it runs until the process ends.
    func start() throws(CommandLineError) -> Running {
        guard let url = URL(string: options.upstream) else { throw .usage("record: --upstream \(options.upstream) is not a URL") }
        if let script = options.script { return try startLine(url, script: script) }
        let (server, recorder, destination) = try startHTTP(url)
        return Running(address: server.address, port: server.port, recording: "\(recorder.upstream.origin)\(recorder.upstream.basePath) into \(destination)") {
            server.stop()
            var summary = ""
            do {
                try recorder.flush()
            } catch {
                summary += "mockserver: \(error)\n"
            }
            let (recorded, replayed, failed) = recorder.statistics
            return summary + "mockserver recorded \(recorded) exchange\(recorded == 1 ? "" : "s") (\(replayed) answered from \(destination), \(failed) upstream failures)\n"
        }
    }

    private func startLine(_ url: URL, script: String) throws(CommandLineError) -> Running {
        let recorder: LineRecorder
        do {
            let standard = options.files == nil ? nil : BundledResponses.url(named: "ftp").flatMap { FileManager.default.contents(atPath: $0.path) }.map { Array($0) }
            recorder = try LineRecorder(upstream: url, script: URL(fileURLWithPath: script), keepsTiming: options.keepTiming, host: options.host,
                                        port: options.port, transcriptObserver: try transcriptObserver(mask: options.mask),
                                        files: options.files.map { URL(fileURLWithPath: $0, isDirectory: true) }, standardFTPScript: standard,
                                        mask: options.mask)
        } catch let error as RecordingError {
            throw .usage("record: \(error)")
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw .usage("record: \(error)")
        }
        do {
            try recorder.start()
        } catch {
            throw .cannotListen(error)
        }
        let into = options.files.map { "\(script) and \($0)" } ?? script
        return Running(address: nil, port: recorder.port, recording: "\(options.upstream) into \(into)") {
            do {
                try recorder.stop()
            } catch {
                return "mockserver: \(error)\n"
            }
            return "mockserver recorded \(recorder.dialogueCount) connections into \(script)\n"
        }
    }

    /// The schema of `--proto`, `--proto-path` and `--descriptor-set`, read as the server command
    /// reads them; `nil` when none was given.
    private func grpcSchema() throws(CommandLineError) -> GRPCSchema? {
        guard !options.protoFiles.isEmpty || !options.descriptorSets.isEmpty else { return nil }
        do {
            return try GRPCSchema.load(protoFiles: options.protoFiles, protoPaths: options.protoPaths, descriptorSets: options.descriptorSets)
        } catch {
            throw .schema(String(describing: error))
        }
    }

    private func startHTTP(_ url: URL) throws(CommandLineError) -> (server: MockServer, recorder: HTTPRecorder, destination: String) {
        let destination: HTTPRecorder.Destination
        let path: String
        if let folder = options.mockData {
            destination = .mockData(folder: URL(fileURLWithPath: folder, isDirectory: true))
            path = folder
        } else {
            let file = options.endpoints ?? ""
            destination = .endpoints(file: URL(fileURLWithPath: file))
            path = file
        }
        let schema = try grpcSchema()
        let recorder: HTTPRecorder
        do {
            recorder = try HTTPRecorder(upstream: url, destination: destination, mask: options.mask, keepsTiming: options.keepTiming,
                                        timeout: .milliseconds(Int64(options.timeout * 1000)), upstreamCA: options.upstreamCA,
                                        maximumBodySize: options.maximumBody, grpcSchema: schema)
        } catch {
            switch error {
            case .badUpstream: throw .usage("record: \(error)")
            case .cannotWrite(let path, let reason): throw .cannotWrite(path: path, reason: reason)
            case .unreadable(let path, let reason): throw .unreadable(path: path, reason: reason)
            }
        }
        var configuration = MockServer.Configuration(host: options.host, port: options.port)
        configuration.settings[MockServer.HTTPServerSettings.self] = MockServer.HTTPServerSettings(maximumRequestBodySize: options.maximumRequestBody)
        configuration.transcriptObserver = try transcriptObserver(mask: options.mask)
        configuration.settings[MockServer.HTTP2ServerSettings.self] = MockServer.HTTP2ServerSettings(mode: options.http2)
        if options.tls {
            // The server command's own TLS setup: a generated identity, its CA written where asked.
            var serving = try CommandLineOptions(arguments: [])
            serving.tlsMode = .implicit
            serving.tlsCAOut = options.tlsCAOut
            configuration.tls = try MockServerCommand(options: serving).tlsConfiguration()
        }
        // A recording runs long and under load: its memory is what it writes, not a transcript of
        // every request (--verbose and --transcript see each entry as it happens).
        configuration.transcriptLimit = 10_000
        let server = MockServer(httpResponder: recorder, configuration: configuration)
        do {
            try server.start()
        } catch {
            throw .cannotListen(error)
        }
        return (server, recorder, path)
    }

    /// `--verbose` and `--transcript FILE`, with masked values hidden: the transcript holds the raw
    /// requests and responses (or lines), and a masked value must never reach a file or the terminal.
    private func transcriptObserver(mask: HTTPRecorder.Mask) throws(CommandLineError) -> (@Sendable (Transcript.Entry) -> Void)? {
        let cannotCreate = { (path: String) in CommandLineError.cannotWrite(path: path, reason: "cannot create the transcript file") }
        let masker = TranscriptMasker(mask: mask)
        return try TranscriptOutput.observer(path: options.transcriptFile, verbose: options.verbose, cannotCreate: cannotCreate) { entry in
            masker.masked(entry)
        }
    }
}
