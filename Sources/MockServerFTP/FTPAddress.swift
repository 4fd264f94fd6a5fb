import Foundation
import MockServerCore

/// Parses the address arguments of FTP's active-mode commands: `PORT`'s `h1,h2,h3,h4,p1,p2`
/// (RFC 959) and `EPRT`'s `|1|127.0.0.1|port|` or `|2|::1|port|` (RFC 2428, any delimiter).
package enum FTPAddress {
    /// Why an argument is not an address, in words that name the field at fault.
    package struct Malformed: Error, Sendable, Equatable {
        /// Such as `PORT's p1 "256" is not a number from 0 to 255`.
        package let reason: String
    }

    /// The address `argument` names.
    ///
    /// - Throws: ``Malformed`` naming the field at fault: a count of fields, a number out of range
    ///   (or not a plain decimal), an unknown network protocol, or an address of the wrong family.
    package static func parse(_ argument: String) throws(Malformed) -> NetworkAddress {
        let text = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        // EPRT's delimiter may be any printable character but a digit; a sign starts a (bad) PORT number.
        if let delimiter = text.first, !("0"..."9").contains(delimiter), delimiter != "+", delimiter != "-" {
            return try extended(text, delimiter: delimiter)
        }
        return try classic(text)
    }

    /// `PORT`'s six decimal bytes.
    private static func classic(_ text: String) throws(Malformed) -> NetworkAddress {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 6 else {
            throw Malformed(reason: "PORT needs six numbers h1,h2,h3,h4,p1,p2, not \(fields.count) (\"\(text)\")")
        }
        let names = ["h1", "h2", "h3", "h4", "p1", "p2"]
        var values: [Int] = []
        for (name, field) in zip(names, fields) {
            guard let value = FTPNumber.parse(field, maximum: 255) else {
                throw Malformed(reason: "PORT's \(name) \"\(field)\" is not a number from 0 to 255")
            }
            values.append(value)
        }
        let port = values[4] << 8 | values[5]
        guard port > 0 else { throw Malformed(reason: "PORT's port p1,p2 is 0") }
        return NetworkAddress(host: values[0..<4].map(String.init).joined(separator: "."), port: UInt16(port), isIPv6: false)
    }

    /// `EPRT`'s `<d>protocol<d>address<d>port<d>`.
    private static func extended(_ text: String, delimiter: Character) throws(Malformed) -> NetworkAddress {
        let fields = text.split(separator: delimiter, omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[4].isEmpty else {
            throw Malformed(reason: "EPRT needs <d>protocol<d>address<d>port<d> with one delimiter, not \"\(text)\"")
        }
        let family = fields[1]
        guard family == "1" || family == "2" else {
            throw Malformed(reason: "EPRT's network protocol \"\(family)\" is neither 1 (IPv4) nor 2 (IPv6)")
        }
        guard let port = FTPNumber.parse(fields[3], maximum: Int(UInt16.max)), port > 0 else {
            throw Malformed(reason: "EPRT's port \"\(fields[3])\" is not a number from 1 to 65535")
        }
        guard let address = try? NetworkAddress(host: String(fields[2]), port: UInt16(port)), address.isIPv6 == (family == "2") else {
            throw Malformed(reason: "EPRT's address \"\(fields[2])\" is not an \(family == "1" ? "IPv4" : "IPv6") address")
        }
        return address
    }
}
