#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads from a pipe's descriptor with `read(2)`, retrying when a signal interrupts it: Foundation's
/// `FileHandle.readDataToEndOfFile()` and `readData(ofLength:)` trap on `EINTR`, which a child
/// process's SIGCHLD (or a signal a test sends) can cause while a read waits.
public enum PipeReading {
    /// Everything until the end of the pipe.
    public static func readToEnd(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// One byte, or `nil` at the end of the pipe.
    public static func readByte(_ fd: Int32) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count == 1 { return byte }
            if count == 0 || errno != EINTR { return nil }
        }
    }

    /// A line without its LF, or what is left at the end of the pipe.
    public static func readLine(_ fd: Int32) -> String {
        var line: [UInt8] = []
        while let byte = readByte(fd), byte != 0x0A { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }
}
