import Foundation
import MockServerCore

/// What a line recording adds for FTP: the upstream's passive replies (`227`, `229`) are rewritten
/// so that data connections pass through the recorder, which relays them and keeps what was
/// downloaded and uploaded under the files folder, at the paths the client used.
///
/// Lives on the loop's thread, with its ``RelaySession``.
final class FTPRelay {
    /// The folder files are written to.
    let files: URL
    /// The recorder's own address, for the rewritten replies.
    let listenHost: String
    /// The upstream's control address (its host stands in for a `227` that says 0.0.0.0).
    let upstream: NetworkAddress
    private unowned let loop: EventLoop
    private var partialReply: [UInt8] = []
    /// The working directory, as the client's CWDs and the upstream's answers left it.
    private var cwd = "/"
    private var pendingCwd: String?
    /// The transfer command the next data connection serves.
    private var transfer: (verb: String, path: String)?
    private var relays: [DataRelay] = []

    init(files: URL, listenHost: String, upstream: NetworkAddress, loop: EventLoop) {
        self.files = files
        self.listenHost = listenHost
        self.upstream = upstream
        self.loop = loop
    }

    /// The verbs whose answers come from the files on replay, not from the recorded dialogue.
    static let fileCommands: Set<String> = ["CWD", "XCWD", "CDUP", "XCUP", "PWD", "XPWD", "EPSV", "PASV", "PORT", "EPRT", "REST", "SIZE", "MDTM",
                                            "RETR", "LIST", "NLST", "MLSD", "MLST", "STOR", "APPE", "STOU", "DELE", "MKD", "XMKD", "RMD", "XRMD",
                                            "RNFR", "RNTO"]

    /// The verb of a client line, upper-cased.
    static func verb(of line: String) -> String {
        String(line.prefix { $0 != " " }).uppercased()
    }

    /// A line the client sent.
    func clientLine(_ line: String) {
        let verb = Self.verb(of: line)
        let argument = line.firstIndex(of: " ").map { String(line[line.index(after: $0)...]) } ?? ""
        switch verb {
        case "CWD", "XCWD": pendingCwd = Self.join(cwd, argument)
        case "CDUP", "XCUP": pendingCwd = Self.join(cwd, "..")
        case "RETR", "STOR", "APPE": transfer = (verb, Self.join(cwd, argument))
        case "LIST", "NLST", "MLSD": transfer = (verb, cwd)
        default: break
        }
    }

    /// Bytes from the upstream, as they go on to the client: whole lines only, passive replies
    /// rewritten to the recorder's own data ports.
    func fromUpstream(_ bytes: [UInt8]) -> [UInt8] {
        partialReply += bytes
        guard let lastBreak = partialReply.lastIndex(of: 0x0A) else { return [] }
        let complete = Array(partialReply[...lastBreak])
        partialReply = Array(partialReply[(lastBreak + 1)...])
        var output: [UInt8] = []
        for line in complete.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            output += rewritten(String(decoding: line, as: UTF8.self)).utf8
            output.append(0x0A)
        }
        return output
    }

    private func rewritten(_ line: String) -> String {
        if line.hasPrefix("250"), let target = pendingCwd {
            cwd = target
            pendingCwd = nil
            try? FileManager.default.createDirectory(at: local(target), withIntermediateDirectories: true)
        } else if !line.hasPrefix("1"), pendingCwd != nil, line.first.map({ $0 == "4" || $0 == "5" }) == true {
            pendingCwd = nil
        }
        if line.hasPrefix("227 "), let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") {
            let numbers = line[line.index(after: open)..<close].split(separator: ",").compactMap { Int($0.trimmingSpaces()) }
            guard numbers.count == 6, numbers.allSatisfy({ (0...255).contains($0) }) else { return line }
            let host = numbers[0..<4].map(String.init).joined(separator: ".")
            let target = (try? NetworkAddress(host: host == "0.0.0.0" ? upstream.host : host, port: UInt16(numbers[4] * 256 + numbers[5]))) ?? upstream
            guard let port = relay(to: target), !listenHost.contains(":") else { return line }
            let tuple = listenHost.split(separator: ".").joined(separator: ",") + ",\(port / 256),\(port % 256)"
            return String(line[...open]) + tuple + String(line[close...])
        }
        if line.hasPrefix("229 "), let open = line.range(of: "(|||"), let close = line[open.upperBound...].range(of: "|)"),
           let port = UInt16(line[open.upperBound..<close.lowerBound]) {
            let target = (try? NetworkAddress(host: upstream.host, port: port)) ?? upstream
            guard let local = relay(to: target) else { return line }
            return String(line[..<open.upperBound]) + String(local) + String(line[close.lowerBound...])
        }
        return line
    }

    /// A data port of the recorder's that relays its one connection to `target`; its port.
    private func relay(to target: NetworkAddress) -> UInt16? {
        do {
            let relay = try DataRelay(listeningOn: NetworkAddress(host: listenHost, port: 0), upstream: target, loop: loop) { [weak self] download, upload in
                self?.dataFinished(download: download, upload: upload)
            }
            relays.append(relay)
            return relay.port
        } catch {
            loop.logger.log(.warning, "no data port for the recording: \(error)")
            return nil
        }
    }

    /// A data connection ended: what it carried is kept as the file the transfer named.
    private func dataFinished(download: [UInt8], upload: [UInt8]) {
        guard let (verb, path) = transfer else { return }
        transfer = nil
        let bytes: [UInt8]
        switch verb {
        case "RETR": bytes = download
        case "STOR", "APPE": bytes = upload
        default: return
        }
        let url = local(path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        } catch {
            loop.logger.log(.warning, "cannot keep \(path): \(error)")
        }
    }

    /// Closes the data ports not used yet.
    func close() {
        for relay in relays { relay.close() }
        relays = []
    }

    /// `path` under the files folder (never outside it).
    private func local(_ path: String) -> URL {
        let parts = path.split(separator: "/").filter { $0 != "." && $0 != ".." && !$0.isEmpty }
        return parts.reduce(files) { $0.appendingPathComponent(String($1)) }
    }

    /// `path` resolved against `directory`, `.` and `..` applied, never above `/`.
    static func join(_ directory: String, _ path: String) -> String {
        var parts: [Substring] = path.hasPrefix("/") ? [] : directory.split(separator: "/")
        for part in path.split(separator: "/") {
            switch part {
            case ".", "": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
