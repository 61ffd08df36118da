import Foundation
import Snapshots
import Persistence
import Photos
import Services

/// How `saessak serve` was asked to run.
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Holds `saessak.sqlite`, `secret.key` and (later) `photos/`; created on first run.
    public var dataFolder: URL
    /// Files served at `/static/` to anyone, without authentication (web assets, a family's own icon). Never the
    /// data folder: photos are served only through their authorised routes.
    public var staticFolder: URL?
    /// Timeouts and the per-address cap on connections.
    public var connectionLimits: ConnectionLimits
    /// What one uploaded video may be (size, length).
    public var videoLimits: VideoLimits
    /// How mail is sent; nil sends none (members may still choose it).
    public var mail: MailConfiguration?
    /// Where the day's weather is asked, for families that turned it on.
    public var weather: WeatherConfiguration
    /// Each response says how many SQL statements its request ran (`StatementCountMiddleware`): for tests and benchmarks.
    public var countsStatements: Bool
    /// Where and how often the scheduled snapshots go (docs/backup.md); nil: none.
    public var snapshots: SnapshotSettings?
    /// The address people open the app at (`--public-url`): passkeys are bound to its host and origin. Nil: the
    /// address each browser used (its `Host`, and `X-Forwarded-Proto` from a proxy in front).
    public var publicURL: URL?

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080
    public static let defaultDataFolder = DataFolder.defaultName

    public init(
        host: String = defaultHost, port: Int = defaultPort, dataFolder: URL, staticFolder: URL? = nil,
        connectionLimits: ConnectionLimits = .standard, videoLimits: VideoLimits = VideoLimits(), mail: MailConfiguration? = nil,
        weather: WeatherConfiguration = WeatherConfiguration(), countsStatements: Bool = false, snapshots: SnapshotSettings? = nil,
        publicURL: URL? = nil
    ) {
        self.publicURL = publicURL
        self.countsStatements = countsStatements
        self.snapshots = snapshots
        self.mail = mail
        self.weather = weather
        self.connectionLimits = connectionLimits
        self.videoLimits = videoLimits
        self.host = host
        self.port = port
        self.dataFolder = dataFolder
        self.staticFolder = staticFolder
    }
}
