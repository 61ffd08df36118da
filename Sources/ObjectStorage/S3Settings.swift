import Files
import Foundation

/// Where photos are kept in object storage: `s3://BUCKET/PREFIX?endpoint=https://HOST:PORT&region=…`. The keys
/// never come in the URL (a command line is visible to every user of the machine, and URLs end up in logs): they
/// come from the environment (`SAESSAK_S3_ACCESS_KEY_ID`, `SAESSAK_S3_SECRET_ACCESS_KEY`) or from files named by
/// `…_FILE`.
///
/// Parameters: `endpoint` (default AWS's `https://s3.REGION.amazonaws.com`), `region` (default `us-east-1`),
/// `style=path|virtual` (how the bucket is addressed: in the path, or as the host's first label; default `virtual`
/// on AWS, `path` for any other endpoint), `part-size` (bytes per part of a multipart upload, at least 5 MiB,
/// default 16 MiB: a file larger than one part goes up in parts).
public struct S3Settings: Sendable, Equatable, CustomStringConvertible {
    public var bucket: String
    /// Every key starts with this (no leading or trailing `/`); may be empty.
    public var prefix: String
    public var endpoint: URL
    public var region: String
    public var style: AddressingStyle
    public var partSize: Int
    public var credentials: S3Credentials

    public enum AddressingStyle: String, Sendable, Equatable {
        case path, virtual
    }

    public static let accessKeyVariable = "SAESSAK_S3_ACCESS_KEY_ID"
    public static let secretKeyVariable = "SAESSAK_S3_SECRET_ACCESS_KEY"
    public static let minimumPartSize = 5 << 20
    public static let defaultPartSize = 16 << 20

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads a URL and the keys from `environment`; every problem is named.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(Invalid) {
        let usage = "photos in object storage are named s3://BUCKET/PREFIX?endpoint=https://HOST:PORT&region=REGION"
        guard let components = URLComponents(string: text), components.scheme == "s3" else { throw Invalid(description: usage) }
        guard components.user == nil, components.password == nil else {
            throw Invalid(
                description: "the photo store URL must not hold keys: put them in \(Self.accessKeyVariable) and \(Self.secretKeyVariable) (or files named by …_FILE)")
        }
        guard let bucket = components.host, Self.isBucketName(bucket) else {
            throw Invalid(description: "the bucket name must be 3 to 63 lowercase letters, digits, dots and hyphens (\(usage))")
        }
        self.bucket = bucket
        let prefix = components.path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        guard prefix.utf8.count <= 512, !prefix.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) else {
            throw Invalid(description: "the prefix '\(prefix)' must be under 512 bytes, without '.' or '..' parts")
        }
        self.prefix = prefix
        region = "us-east-1"
        partSize = Self.defaultPartSize
        var endpoint: URL?
        var style: AddressingStyle?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "endpoint":
                guard let url = URL(string: value), let scheme = url.scheme, scheme == "http" || scheme == "https",
                    let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.user == nil
                else { throw Invalid(description: "endpoint must be http(s)://HOST[:PORT] with nothing after it, not '\(value)'") }
                endpoint = url
            case "region":
                guard !value.isEmpty, value.utf8.count <= 64, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                    throw Invalid(description: "region must be a name such as us-east-1, not '\(value)'")
                }
                region = value
            case "style":
                guard let chosen = AddressingStyle(rawValue: value) else {
                    throw Invalid(description: "style must be path or virtual, not '\(value)'")
                }
                style = chosen
            case "part-size":
                guard let size = Int(value), size >= Self.minimumPartSize, size <= 1 << 30 else {
                    throw Invalid(description: "part-size must be a number of bytes from \(Self.minimumPartSize) (5 MiB) to 1 GiB")
                }
                partSize = size
            default:
                throw Invalid(description: "the photo store URL has an unknown parameter '\(item.name)' (known: endpoint, region, style, part-size)")
            }
        }
        if let endpoint {
            self.endpoint = endpoint
            self.style = style ?? .path
        } else {
            guard let aws = URL(string: "https://s3.\(region).amazonaws.com") else { throw Invalid(description: usage) }
            self.endpoint = aws
            self.style = style ?? .virtual
        }
        if self.style == .virtual && bucket.contains(".") && self.endpoint.scheme == "https" {
            throw Invalid(description: "a bucket with dots cannot be addressed as a host name over https: add style=path")
        }
        credentials = try S3Credentials(environment: environment)
    }

    /// Without the keys.
    public var description: String {
        let base = "s3://\(bucket)/\(prefix)"
        return "\(base)?endpoint=\(endpoint.absoluteString)&region=\(region)&style=\(style.rawValue)"
    }

    /// S3's rule for names that also work as host names.
    static func isBucketName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last else { return false }
        func alphanumeric(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        return alphanumeric(first) && alphanumeric(last) && bytes.allSatisfy { alphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            && !name.contains("..")
    }
}

/// An access key and its secret. The secret is never printed.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    public let accessKeyID: String
    let secretAccessKey: String

    public init(accessKeyID: String, secretAccessKey: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
    }

    init(environment: [String: String]) throws(S3Settings.Invalid) {
        let access = try Self.value(S3Settings.accessKeyVariable, environment)
        let secret = try Self.value(S3Settings.secretKeyVariable, environment)
        guard let access, let secret else {
            throw S3Settings.Invalid(
                description: "the photo store needs its keys: set \(S3Settings.accessKeyVariable) and \(S3Settings.secretKeyVariable) (or …_FILE naming files that hold them)")
        }
        guard access.utf8.count <= 128, access.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" }) else {
            throw S3Settings.Invalid(description: "\(S3Settings.accessKeyVariable) must be a key ID of printable characters without '/'")
        }
        self.init(accessKeyID: access, secretAccessKey: secret)
    }

    /// A variable's value, or the first line of the file its `_FILE` twin names.
    private static func value(_ name: String, _ environment: [String: String]) throws(S3Settings.Invalid) -> String? {
        do { return try SecretVariable.value(name, in: environment) } catch { throw S3Settings.Invalid(description: error.description) }
    }

    public var description: String { "\(accessKeyID) (secret hidden)" }
}

extension S3Settings {
    /// The same place as restic names it (`s3:https://HOST:PORT/BUCKET/PREFIX`), for the snapshots.
    public var resticRepository: String {
        let base = endpoint.absoluteString.hasSuffix("/") ? String(endpoint.absoluteString.dropLast()) : endpoint.absoluteString
        return "s3:\(base)/\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
    }

    /// What restic reads the keys, the region and the addressing from: handed to restic's process only.
    public var resticEnvironment: [String: String] {
        ["AWS_ACCESS_KEY_ID": credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": credentials.secretAccessKey, "AWS_DEFAULT_REGION": region]
    }

    /// restic's options for this store (`-o s3.bucket-lookup=path` off AWS).
    public var resticOptions: [String] { ["-o", "s3.bucket-lookup=\(style == .path ? "path" : "dns")", "-o", "s3.region=\(region)"] }
}
