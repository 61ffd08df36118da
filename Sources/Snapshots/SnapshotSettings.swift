import Foundation
import ObjectStorage

/// Where snapshots go, how often, how many are kept and with which passphrase (docs/backup.md, "Snapshots").
///
/// The target is a folder on another disk (`/mnt/backup/saessak`) or a bucket
/// (`s3://BUCKET/PREFIX?endpoint=https://HOST:PORT`, as photos are named; its keys from
/// `SAESSAK_SNAPSHOT_S3_ACCESS_KEY_ID` and `SAESSAK_SNAPSHOT_S3_SECRET_ACCESS_KEY` or their `…_FILE`s, else the photo
/// store's `SAESSAK_S3_…`). The passphrase that encrypts the repository comes from
/// `SAESSAK_SNAPSHOT_PASSWORD` or the file `SAESSAK_SNAPSHOT_PASSWORD_FILE` names — never the command line, never
/// the log. Without it the snapshots cannot be read by anyone, Saessak included.
public struct SnapshotSettings: Sendable, CustomStringConvertible {
    public static let passwordVariable = "SAESSAK_SNAPSHOT_PASSWORD"
    public static let passwordFileVariable = "SAESSAK_SNAPSHOT_PASSWORD_FILE"

    public enum Target: Sendable, Equatable {
        case folder(URL)
        case bucket(S3Settings)
    }

    public let target: Target
    /// How often a snapshot is taken (at least an hour).
    public var every: TimeInterval
    public var retention: Retention
    /// Whether resident numbers go into the snapshots (in plain text inside the encrypted repository); off unless the
    /// owner asks, like `saessak backup --include-sensitive`.
    public var includeSensitive: Bool
    let password: String

    /// How many snapshots restic keeps, the way people think: the last 7 days, 4 weeks, 12 months, one a year.
    public struct Retention: Sendable, Equatable {
        public var daily = 7
        public var weekly = 4
        public var monthly = 12
        /// One a year for ever (restic has no "for ever": a thousand years).
        public var yearly = 1000

        public init(daily: Int = 7, weekly: Int = 4, monthly: Int = 12, yearly: Int = 1000) {
            self.daily = daily
            self.weekly = weekly
            self.monthly = monthly
            self.yearly = yearly
        }

        /// `7d,4w,12m,1000y` (the `--snapshot-keep` form): every part optional, in any order.
        public init(_ text: String) throws(Invalid) {
            self.init()
            for part in text.split(separator: ",") {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                guard let unit = trimmed.last, let count = Int(trimmed.dropLast()), (0...100_000).contains(count) else {
                    throw Invalid(description: "keep: '\(trimmed.prefix(20))' is not a count and d, w, m or y (such as 7d,4w,12m,1000y)")
                }
                switch unit {
                case "d": daily = count
                case "w": weekly = count
                case "m": monthly = count
                case "y": yearly = count
                default: throw Invalid(description: "keep: '\(trimmed.prefix(20))' is not a count and d, w, m or y (such as 7d,4w,12m,1000y)")
                }
            }
            guard daily + weekly + monthly + yearly > 0 else { throw Invalid(description: "keep: at least one snapshot must be kept") }
        }

        var arguments: [String] {
            ["--keep-daily", "\(daily)", "--keep-weekly", "\(weekly)", "--keep-monthly", "\(monthly)", "--keep-yearly", "\(yearly)"]
        }
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads a target and the passphrase (and a bucket's keys) from `environment`; every problem is named.
    public init(
        target text: String, every: TimeInterval = 86_400, retention: Retention = Retention(), includeSensitive: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Invalid) {
        if text.hasPrefix("s3://") {
            // The bucket's own keys (`SAESSAK_SNAPSHOT_S3_…`), else the photo store's: an off-site bucket usually has
            // keys of its own.
            var keys = environment
            for name in [S3Settings.accessKeyVariable, S3Settings.secretKeyVariable] {
                let own = name.replacingOccurrences(of: "SAESSAK_S3_", with: "SAESSAK_SNAPSHOT_S3_")
                if environment[own] != nil || environment[own + "_FILE"] != nil {
                    keys[name] = environment[own]
                    keys[name + "_FILE"] = environment[own + "_FILE"]
                }
            }
            do { target = .bucket(try S3Settings(url: text, environment: keys)) } catch { throw Invalid(description: "snapshots: \(error)") }
        } else if text.hasPrefix("/") {
            target = .folder(URL(fileURLWithPath: text))
        } else {
            throw Invalid(description: "snapshots go to a folder on another disk (an absolute path) or to s3://BUCKET/PREFIX?endpoint=…")
        }
        guard every >= 3600 else { throw Invalid(description: "snapshots are taken at most every hour (--snapshot-every 1h or more)") }
        self.every = every
        self.retention = retention
        self.includeSensitive = includeSensitive
        password = try Self.password(environment)
    }

    private static func password(_ environment: [String: String]) throws(Invalid) -> String {
        if let direct = environment[passwordVariable], !direct.isEmpty { return direct }
        if let path = environment[passwordFileVariable], !path.isEmpty {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw Invalid(description: "cannot read the snapshot passphrase file named by \(passwordFileVariable)")
            }
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            guard !line.isEmpty else { throw Invalid(description: "the snapshot passphrase file named by \(passwordFileVariable) is empty") }
            return line
        }
        throw Invalid(
            description: "snapshots are encrypted with a passphrase you keep: set \(passwordVariable), or \(passwordFileVariable) to a file holding it")
    }

    /// `24h`, `90m`, `7d`: how often, for `--snapshot-every`.
    public static func interval(_ text: String) throws(Invalid) -> TimeInterval {
        guard let unit = text.last, let count = Double(text.dropLast()), count > 0, count.isFinite else {
            throw Invalid(description: "every: '\(text.prefix(20))' is not a number of minutes, hours or days (such as 24h)")
        }
        switch unit {
        case "m": return count * 60
        case "h": return count * 3600
        case "d": return count * 86_400
        default: throw Invalid(description: "every: '\(text.prefix(20))' is not a number of minutes, hours or days (such as 24h)")
        }
    }

    /// The target as people read it (never a key or the passphrase).
    public var description: String {
        switch target {
        case .folder(let url): url.path
        case .bucket(let settings): settings.description
        }
    }

    /// restic's name for the repository, its options, and the environment its process gets.
    var repository: String {
        switch target {
        case .folder(let url): url.path
        case .bucket(let settings): settings.resticRepository
        }
    }

    var options: [String] {
        switch target {
        case .folder: []
        case .bucket(let settings): settings.resticOptions
        }
    }

    var environment: [String: String] {
        var environment = ["RESTIC_REPOSITORY": repository, "RESTIC_PASSWORD": password]
        if case .bucket(let settings) = target { environment.merge(settings.resticEnvironment) { _, new in new } }
        return environment
    }
}
