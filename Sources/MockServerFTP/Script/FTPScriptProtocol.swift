import MockServerCore
import MockServerScript

/// FTP's part of the script language: `«passive»`, `{"active": …}`, the transfers, `«ftp»`,
/// `«refuse-data»`, `{"delay-data": …}` and `{"protect": …}` (FTPS's `PROT`), in scripts with `scheme` `ftp` and in line scripts
/// that name no other protocol.
package struct FTPScriptProtocol: ScriptProtocol {
    package let name = "FTP"
    package let schemes: Set<String> = ["ftp", "ftps"]
    package let framing = Framing.lines
    package let framings: Set<Framing> = [.lines, .raw]
    package let tokens = ["«passive»", "«ftp»", "«refuse-data»"] + FTPTransfer.allCases.map(\.rawValue)
    package let keys = ["active", "delay-data", "protect"]
    /// `upload-settle`: how long an upload's data must be quiet before the script goes on.
    package let settingKeys = ["upload-settle"]

    /// Creates FTP's vocabulary.
    /// Scripts without a scheme are the original MockServer's format, which FTP serves.
    package let servesScriptsWithoutScheme = true

    package init() {}

    /// Lines (or raw reads) answered by the script, and the original's shared passive-data port
    /// beside the main port, which sends the server's data to whoever connects.
    package func connections(framing: Framing) -> ScriptConnections {
        (framing == .raw ? ScriptConnections.raw : .lines).adding(ScriptListener(values: { ScriptSettings([FTPDataPort(port: $0)]) }) { socket, loop, context in
            let server = context.server
            return SharedDataPort.listener(socket: socket, loop: loop) { server.content().data }
        })
    }

    /// `ftps` for `ftp` under implicit TLS.
    package func urlScheme(for scheme: String, implicitTLS: Bool) -> String {
        implicitTLS && scheme == "ftp" ? "ftps" : scheme
    }

    package func companionKeys(of key: String) -> [String] {
        key == "active" || key == "protect" ? ["otherwise"] : []
    }

    /// `$pasv`, the data listener as PASV's `h1,h2,h3,h4,p1,p2`, `$epsv`, as EPSV's `|||port|`,
    /// and `$dataport`, its number: this connection's own after `«passive»`, else the server's shared one.
    package var variables: [ScriptProtocolVariable] {
        [ScriptProtocolVariable("pasv", value: Self.pasv),
         ScriptProtocolVariable("epsv") { "|||\(FTPDataPort.port(in: $0))|" },
         ScriptProtocolVariable("dataport") { String(FTPDataPort.port(in: $0)) }]
    }

    /// `h1,h2,h3,h4,p1,p2` for the data port. An IPv6 server gives `0,0,0,0` as the host: PASV
    /// cannot carry an IPv6 address, and clients use the control connection's address then.
    @Sendable private static func pasv(_ context: SubstitutionContext) -> String {
        let port = FTPDataPort.port(in: context)
        var text = pasvHost(context.address)
        text += ","
        text += String(port >> 8)
        text += ","
        text += String(port & 0xFF)
        return text
    }

    /// `address` with commas for its dots when it is four decimal numbers of 0 to 255 joined by
    /// dots (an IPv4 address), else `0,0,0,0`: one walk over its bytes, as PASV asks for it on
    /// every data connection.
    private static func pasvHost(_ address: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(address.utf8.count)
        var parts = 1
        var digits = 0
        var value = 0
        for byte in address.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return "0,0,0,0" }
                bytes.append(byte)
            case UInt8(ascii: "."):
                guard digits > 0, parts < 4 else { return "0,0,0,0" }
                parts += 1
                digits = 0
                value = 0
                bytes.append(UInt8(ascii: ","))
            default:
                return "0,0,0,0"
            }
        }
        guard parts == 4, digits > 0 else { return "0,0,0,0" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The file's `upload-settle`, as FTP's settings.
    package func settings(_ members: [JSONNode.Member], in decoding: ScriptDecoding) throws(ResponseFileError) -> any Sendable {
        try FTPSettings.decode(members, in: decoding)
    }

    package func command(token: String, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        switch token {
        case "«passive»": return .openPassive
        case "«ftp»": return .ftp
        case "«refuse-data»": return .command(FTPScriptCommand.refuseData)
        default:
            guard let transfer = FTPTransfer(rawValue: token) else {
                throw decoding.error(.unknownToken(path: decoding.path, token: token, known: tokens))
            }
            return .transfer(transfer)
        }
    }

    package func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        let value = object.command.value
        let path = "\(decoding.path).\(key)"
        if key == "delay-data" {
            return .command(FTPScriptCommand.delayData(try decoding.seconds(value, path: path)))
        }
        let otherwise = try object.companion("otherwise").map { value throws(ResponseFileError) in
            try decoding.commands(value, path: "\(decoding.path).otherwise")
        }
        if key == "protect" {
            return .command(FTPScriptCommand.protect(ResponseTemplate(try decoding.string(value, path: path)), otherwise: otherwise))
        }
        return .connectActive(ResponseTemplate(try decoding.string(value, path: path)), otherwise: otherwise)
    }
}
