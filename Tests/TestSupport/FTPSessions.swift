import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession configurations for `ftp://` in tests.
public enum FTPSessions {
    /// An ephemeral configuration that loads `ftp://` URLs. On Apple platforms FTP is deprecated in
    /// URLSession and loads only in its classic loading mode (`usesClassicLoadingMode`, which exists
    /// from macOS 15.4 and its siblings; before that the classic mode is the only one), so it is
    /// turned on there. Linux's FoundationNetworking loads FTP through libcurl in any session.
    public static func configuration(timeout: TimeInterval = 20) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        #if canImport(Darwin)
        if #available(macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *) {
            configuration.usesClassicLoadingMode = true
        }
        #endif
        return configuration
    }
}
