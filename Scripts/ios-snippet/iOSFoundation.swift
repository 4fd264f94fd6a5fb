// What an iOS test target's Foundation is and is not, stood in for on Linux: Scripts/darwin-typecheck.sh
// type-checks a README snippet with this file beside it, in the snippet's own module, against Linux's
// Foundation (swift-corelibs-foundation). Only the types matter: it is type-checked, never run.
//
// 1. What Apple's Foundation has that Linux splits off. On Apple platforms URLSession, URLRequest,
//    HTTPURLResponse and the rest of networking are in Foundation, and XMLParser too; on Linux they are
//    in FoundationNetworking and FoundationXML, which a snippet imports under
//    `#if canImport(FoundationNetworking)`. The script makes that condition false (as on iOS), so these
//    re-exports give the snippet's module Foundation's names as Apple's Foundation has them, through the
//    Linux implementation: their spellings are checked, not Apple's own declarations.
@_exported import FoundationNetworking
@_exported import FoundationXML
import Foundation

// 2. What SwiftPM writes into a target with resources, on iOS as on Linux (resource_bundle_accessor.swift):
//    `Bundle.module`, the target's resource bundle. The snippet's `in: .module` needs it.
extension Bundle {
    static var module: Bundle { Bundle.main }
}

// 3. What Linux's Foundation has and iOS's does not: each is declared here again, unavailable, so that a
//    snippet naming it fails with the reason (a declaration of the snippet's own module hides the one
//    imported from Foundation). The list is every name swift-corelibs-foundation (Swift 6.3.1) declares
//    whose Apple documentation gives no iOS availability; the pages are cited. Members (ProcessInfo.userName,
//    FileManager.homeDirectoryForCurrentUser, ...) cannot be hidden this way: the script finds them in
//    the type-checked syntax tree instead (its list `ios_unavailable`).

/// https://developer.apple.com/documentation/foundation/process: macOS 10.0, Mac Catalyst 13.0; not iOS,
/// tvOS, watchOS or visionOS (NSTask.h: API_UNAVAILABLE(ios, watchos, tvos)).
@available(*, unavailable, message: "not on iOS: Process (NSTask) is macOS-only; an iOS test cannot start a program")
typealias Process = Foundation.Process

/// https://developer.apple.com/documentation/foundation/host: macOS only (NSHost.h: API_UNAVAILABLE(ios, watchos, tvos)).
@available(*, unavailable, message: "not on iOS: Host (NSHost) is macOS-only")
typealias Host = Foundation.Host

/// https://developer.apple.com/documentation/foundation/socketport: macOS only.
@available(*, unavailable, message: "not on iOS: SocketPort (NSSocketPort) is macOS-only")
typealias SocketPort = Foundation.SocketPort

/// https://developer.apple.com/documentation/foundation/portmessage: macOS and Mac Catalyst only.
@available(*, unavailable, message: "not on iOS: PortMessage (NSPortMessage) is macOS-only")
typealias PortMessage = Foundation.PortMessage

/// https://developer.apple.com/documentation/foundation/xmldocument and its kin (XMLElement, XMLNode,
/// XMLDTD, XMLDTDNode): macOS only, the tree-based XML classes. iOS has XMLParser alone.
@available(*, unavailable, message: "not on iOS: XMLDocument (NSXMLDocument) is macOS-only; iOS has XMLParser")
typealias XMLDocument = FoundationXML.XMLDocument
@available(*, unavailable, message: "not on iOS: XMLElement (NSXMLElement) is macOS-only; iOS has XMLParser")
typealias XMLElement = FoundationXML.XMLElement
@available(*, unavailable, message: "not on iOS: XMLNode (NSXMLNode) is macOS-only; iOS has XMLParser")
typealias XMLNode = FoundationXML.XMLNode
@available(*, unavailable, message: "not on iOS: XMLDTD (NSXMLDTD) is macOS-only; iOS has XMLParser")
typealias XMLDTD = FoundationXML.XMLDTD
@available(*, unavailable, message: "not on iOS: XMLDTDNode (NSXMLDTDNode) is macOS-only; iOS has XMLParser")
typealias XMLDTDNode = FoundationXML.XMLDTDNode
