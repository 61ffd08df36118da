import Foundation

/// How `saessak serve` was asked to run.
public struct AppConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Holds `saessak.sqlite`, `secret.key` and (later) `photos/`; created on first run.
    public var dataFolder: URL

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080
    public static let defaultDataFolder = "saessak-data"

    public init(host: String = defaultHost, port: Int = defaultPort, dataFolder: URL) {
        self.host = host
        self.port = port
        self.dataFolder = dataFolder
    }
}
