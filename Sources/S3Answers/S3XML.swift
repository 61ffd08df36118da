import Foundation

/// The few elements Saessak reads from S3's XML answers (listings, multipart uploads, errors). S3's answers are flat
/// and regular; this reads them without trusting a byte: an element is found by its name, its text is unescaped,
/// and anything malformed is simply not found. Never an index past the end — answers come over the network.
public enum S3XML {
    /// The raw content of every `<name …>…</name>` element, in order (self-closing ones give "").
    public static func elements(_ name: String, in xml: Substring) -> [Substring] {
        var found: [Substring] = []
        let open = "<" + name
        let close = "</" + name + ">"
        var rest = xml[...]
        while let start = rest.range(of: open) {
            var afterName = start.upperBound
            guard afterName < rest.endIndex else { break }
            let next = rest[afterName]
            // `<Key>` but not `<KeyCount>`.
            guard next == ">" || next == " " || next == "/" || next == "\t" || next == "\n" || next == "\r" else {
                rest = rest[afterName...]
                continue
            }
            guard let tagEnd = rest[afterName...].firstIndex(of: ">") else { break }
            afterName = rest.index(after: tagEnd)
            if tagEnd > start.lowerBound, rest[rest.index(before: tagEnd)] == "/" {
                found.append(rest[afterName..<afterName])
                rest = rest[afterName...]
                continue
            }
            guard let end = rest[afterName...].range(of: close) else { break }
            found.append(rest[afterName..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The unescaped text of the first `<name>` element.
    public static func text(_ name: String, in xml: Substring) -> String? {
        elements(name, in: xml).first.map(unescape)
    }

    /// The five predefined entities and numeric references; anything else is kept as it is.
    public static func unescape(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let tail = rest[amp...]
            guard let semicolon = tail.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = tail[tail.index(after: amp)..<semicolon]
            let scalar: Unicode.Scalar?
            switch entity {
            case "amp": scalar = "&"
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if entity.hasPrefix("#") {
                    scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                } else {
                    scalar = nil
                }
            }
            if let scalar {
                out.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return out + rest
    }

    /// S3's `LastModified`/`Initiated`: ISO 8601 with or without fractional seconds.
    public static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}

/// One object of a listing.
public struct S3Object: Sendable, Equatable {
    public let key: String
    public let size: Int
    public let lastModified: Date
    public let etag: String
}

/// An unfinished multipart upload.
public struct S3Upload: Sendable, Equatable {
    public let key: String
    public let uploadID: String
    public let initiated: Date
}

extension S3XML {
    /// A `ListObjectsV2` page: its objects and the token of the next page.
    public static func objectPage(_ xml: String) throws(S3Error) -> (objects: [S3Object], next: String?) {
        let body = xml[...]
        guard body.contains("<ListBucketResult") else { throw .malformed("a listing without ListBucketResult") }
        var objects: [S3Object] = []
        for item in elements("Contents", in: body) {
            guard let key = text("Key", in: item), let size = text("Size", in: item).flatMap({ Int($0) }), size >= 0,
                let modified = text("LastModified", in: item).flatMap(date)
            else { throw .malformed("a listed object without its key, size or date") }
            objects.append(S3Object(key: key, size: size, lastModified: modified, etag: text("ETag", in: item) ?? ""))
        }
        let truncated = text("IsTruncated", in: body) == "true"
        let next = text("NextContinuationToken", in: body)
        if truncated && (next ?? "").isEmpty { throw .malformed("a truncated listing without a continuation token") }
        return (objects, truncated ? next : nil)
    }

    /// A `ListMultipartUploads` page: its uploads, and the markers of the next page.
    public static func uploadPage(_ xml: String) throws(S3Error) -> (uploads: [S3Upload], next: (key: String, uploadID: String)?) {
        let body = xml[...]
        guard body.contains("<ListMultipartUploadsResult") else { throw .malformed("an upload listing without ListMultipartUploadsResult") }
        var uploads: [S3Upload] = []
        for item in elements("Upload", in: body) {
            guard let key = text("Key", in: item), let id = text("UploadId", in: item), !id.isEmpty,
                let initiated = text("Initiated", in: item).flatMap(date)
            else { throw .malformed("a listed upload without its key, ID or date") }
            uploads.append(S3Upload(key: key, uploadID: id, initiated: initiated))
        }
        guard text("IsTruncated", in: body) == "true" else { return (uploads, nil) }
        guard let key = text("NextKeyMarker", in: body), let id = text("NextUploadIdMarker", in: body), !(key.isEmpty && id.isEmpty) else {
            throw .malformed("a truncated upload listing without its next markers")
        }
        return (uploads, (key, id))
    }

    /// An `<Error>` answer's code and message.
    public static func error(_ xml: String) -> (code: String, message: String)? {
        let body = xml[...]
        guard let inner = elements("Error", in: body).first, let code = text("Code", in: inner) else { return nil }
        return (code, text("Message", in: inner) ?? "")
    }
}
