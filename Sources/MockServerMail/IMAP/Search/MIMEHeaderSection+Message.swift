import Foundation

extension MIMEHeaderSection {
    /// The top-level header section of the message `raw`, read without parsing its MIME parts
    /// (what SEARCH's header criteria and SORT's fields need).
    init(messageHeaderOf raw: Data) {
        self = raw.withUnsafeBytes { MIMEHeaderSection(reading: $0, in: 0..<$0.count, maximumLength: MIMELimits().maximumHeaderLength) }
    }
}
