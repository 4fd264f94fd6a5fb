import Foundation
import MockServerHTTP
import MockServerCore

extension HTTPRecorder {
    /// What a recording hides before anything is written or printed: the values of some headers,
    /// query parameters, form fields and JSON fields are replaced with ``replacement``. The client and
    /// the upstream still see the real values; no file, transcript or printed line does.
    ///
    /// ```swift
    /// var mask = HTTPRecorder.Mask.standard
    /// mask.headers.append("X-Session")
    /// mask.queryParameters.append("sig")
    /// mask.jsonFields.append("pin")
    /// ```
    public struct Mask: Sendable, Equatable {
        /// Header names whose values are replaced (any case).
        public var headers: [String] { didSet { headerRule = RecordingHeaderMask(self) } }
        /// Pieces of header names: a header whose name contains one (any case) is masked too.
        public var headerNameFragments: [String] { didSet { headerRule = RecordingHeaderMask(self) } }
        /// Header names written as they are even when ``headers`` or ``headerNameFragments`` mask them.
        public var unmaskedHeaders: [String] { didSet { headerRule = RecordingHeaderMask(self) } }
        /// Query parameter names whose values are replaced (any case), in what is written and in the
        /// names of mock-data files.
        public var queryParameters: [String]
        /// Field names of `application/x-www-form-urlencoded` request and response bodies whose values are replaced (any case).
        public var formFields: [String]
        /// JSON object keys whose values are replaced (any case), at any depth, in request and response
        /// bodies whose type is JSON.
        public var jsonFields: [String]
        /// What stands in for a masked value.
        public var replacement: String
        /// The three header lists above as prepared sets, made again whenever one of them changes:
        /// the one header rule, asked by ``masks(header:)`` and for every field a recording writes.
        private(set) var headerRule = RecordingHeaderMask()

        /// The default: the headers `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
        /// `X-Api-Key`, `Api-Key`, `X-Auth-Token`, `X-Amz-Security-Token`, `X-CSRF-Token` and any whose
        /// name contains `token`, `secret`, `api-key` or `apikey`; the query parameters, form fields
        /// and JSON fields `password`, `passwd`, `token`, `access_token`, `refresh_token`, `api_key`,
        /// `apikey`, `secret` and `client_secret`.
        public static let standard = HTTPRecorder.Mask(headers: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key",
                                                             "X-Auth-Token", "X-Amz-Security-Token", "X-CSRF-Token"],
                                                   jsonFields: HTTPRequestMask.standardNames,
                                                   headerNameFragments: ["token", "secret", "api-key", "apikey"],
                                                   queryParameters: HTTPRequestMask.standardNames, formFields: HTTPRequestMask.standardNames)

        /// A mask of these names (none by default: start from ``standard`` to keep the defaults).
        public init(headers: [String] = [], jsonFields: [String] = [], replacement: String = "MASKED", headerNameFragments: [String] = [],
                    unmaskedHeaders: [String] = [], queryParameters: [String] = [], formFields: [String] = []) {
            self.headers = headers
            self.jsonFields = jsonFields
            self.replacement = replacement
            self.headerNameFragments = headerNameFragments
            self.unmaskedHeaders = unmaskedHeaders
            self.queryParameters = queryParameters
            self.formFields = formFields
            headerRule = RecordingHeaderMask(self)
        }

        /// Whether the header `name` is masked: named in ``headers`` or containing one of
        /// ``headerNameFragments``, and not in ``unmaskedHeaders``.
        public func masks(header name: String) -> Bool {
            headerRule.masks(header: name)
        }

        /// `headers` with masked values replaced by ``replacement``: the same headers, not copied,
        /// when none is masked.
        func masked(_ headers: HTTPHeaderFields) -> HTTPHeaderFields {
            guard let first = headers.fields.firstIndex(where: { headerRule.masks(header: $0.name) }) else { return headers }
            var result = HTTPHeaderFields(Array(headers.fields[..<first]))
            result.reserveCapacity(headers.count)
            for field in headers.fields[first...] {
                result.add(name: field.name, value: headerRule.masks(header: field.name) ? replacement : field.value)
            }
            return result
        }

        /// The query parameters, form fields and JSON fields, as a request is masked for its file
        /// name, its endpoint and its replay.
        package var requestMask: HTTPRequestMask {
            HTTPRequestMask(queryParameters: queryParameters, formFields: formFields, jsonFields: jsonFields, replacement: replacement)
        }

        /// `body` with masked form fields replaced when its `contentType` is a form, or masked JSON
        /// fields when it is JSON; `nil` when nothing in it is masked (it is written as it came).
        /// `prepared` is ``requestMask`` made already (a recorder's, made once), else it is made.
        func maskedBody(_ body: [UInt8], contentType: String?, prepared: HTTPRequestMask? = nil) -> [UInt8]? {
            // The media type is asked once of a body of any other type (every recorded answer's).
            guard !body.isEmpty, let contentType else { return nil }
            if Self.isJSON(contentType) { return canonicalMaskedJSON(body, prepared: prepared) }
            guard HTTPFieldText.mediaType(of: contentType, is: "application/x-www-form-urlencoded") else { return nil }
            return (prepared ?? requestMask).maskedBody(body, contentType: contentType)
        }

        /// `body` with masked JSON fields replaced, when its `contentType` is JSON and it holds one;
        /// `nil` when nothing in it is masked (it is written as it came).
        func maskedJSON(_ body: [UInt8], contentType: String?, prepared: HTTPRequestMask? = nil) -> [UInt8]? {
            guard Self.isJSON(contentType) else { return nil }
            return canonicalMaskedJSON(body, prepared: prepared)
        }

        /// A JSON `body` masked by the request mask's one JSON masker, in the recordings' canonical
        /// layout; its media type is the caller's to have checked.
        private func canonicalMaskedJSON(_ body: [UInt8], prepared: HTTPRequestMask?) -> [UInt8]? {
            guard !jsonFields.isEmpty, !body.isEmpty, let masked = (prepared ?? requestMask).maskedJSONValue(of: body) else { return nil }
            return Array(JSONText.write(masked, layout: .canonical).utf8)
        }

        static func isJSON(_ contentType: String?) -> Bool {
            guard let contentType else { return false }
            return HTTPFieldText.isJSON(contentType)
        }
    }
}

extension HTTPRecorder.Mask: CustomReflectable {
    /// The lists and the replacement a user sets, in the order they are declared: what `"\(mask)"`,
    /// `debugPrint` and `dump` show, without the prepared header rule kept beside them.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "headers": headers, "headerNameFragments": headerNameFragments, "unmaskedHeaders": unmaskedHeaders,
            "queryParameters": queryParameters, "formFields": formFields, "jsonFields": jsonFields, "replacement": replacement,
        ], displayStyle: .struct)
    }
}
