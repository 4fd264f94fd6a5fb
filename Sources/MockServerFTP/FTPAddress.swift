import Foundation

/// Parses the address arguments of FTP's active-mode commands.
package enum FTPAddress {
    /// `h1,h2,h3,h4,p1,p2` (PORT) or `|1|127.0.0.1|port|` / `|2|::1|port|` (EPRT), or `nil`.
    package static func parse(_ argument: String) -> (host: String, port: UInt16)? {
        let text = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        if let delimiter = text.first, !delimiter.isNumber {
            let parts = text.split(separator: delimiter, omittingEmptySubsequences: false)
            guard parts.count == 5, parts[0].isEmpty, parts[4].isEmpty, parts[1] == "1" || parts[1] == "2",
                  !parts[2].isEmpty, let port = UInt16(parts[3]), port > 0 else { return nil }
            return (String(parts[2]), port)
        }
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 6, numbers.allSatisfy({ $0 != nil }) else { return nil }
        let values = numbers.map { Int($0!) }
        let port = UInt16(values[4] << 8 | values[5])
        guard port > 0 else { return nil }
        return (values[0..<4].map(String.init).joined(separator: "."), port)
    }
}
