import ArgumentParser
import Foundation
import Photos
import Services
import Snapshots
import WeatherAnswers
import WebApp

/// What `saessak serve` takes besides the data, mail and snapshot options: where it listens, its limits, the weather
/// service. `saessak doctor` takes the same, so that it checks with the options the server runs with
/// (`/etc/default/saessak`'s `SAESSAK_OPTIONS` in the Debian package).
struct ServerOptions: ParsableArguments {
    @Option(help: "The address to listen on.")
    var host = AppConfiguration.defaultHost

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = AppConfiguration.defaultPort

    @Option(help: ArgumentHelp("Serve this folder's files at /static/ to anyone, without authentication.", valueName: "DIR"))
    var staticFolder: String?

    @Option(help: ArgumentHelp("Seconds a connection may take to send a request head, and may idle between requests.", valueName: "SECONDS"))
    var headerTimeout = 30

    @Option(help: ArgumentHelp("Seconds a request body may go without sending a byte.", valueName: "SECONDS"))
    var bodyTimeout = 60

    @Option(help: "Connections one IP address may hold open at once.")
    var maxConnectionsPerAddress = 64

    @Option(help: ArgumentHelp("The largest video clip one upload may be, in megabytes (default: 1 GiB).", valueName: "MB"))
    var maxVideoSize = 1024

    @Option(help: ArgumentHelp("The longest video clip one upload may be, in minutes.", valueName: "MINUTES"))
    var maxVideoMinutes = 15

    @Option(help: ArgumentHelp("The weather archive asked for families that turn weather on (Open-Meteo's format).", valueName: "URL"))
    var weatherUrl = OpenMeteoArchive.defaultURL

    @Option(help: ArgumentHelp("Seconds a weather answer may take before the entry is saved without it.", valueName: "SECONDS"))
    var weatherTimeout = 3

    @Option(help: ArgumentHelp("Seconds new entries go without asking for the weather after the service failed (0: always ask).", valueName: "SECONDS"))
    var weatherPause = 300

    @Flag(help: "Say in each response's Saessak-Statements header how many SQL statements it ran (for tests and benchmarks).")
    var countStatements = false

    func validate() throws {
        guard let url = URL(string: weatherUrl), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ArgumentParser.ValidationError("--weather-url must be an http(s) address (got '\(weatherUrl)')")
        }
        guard (1...30).contains(weatherTimeout) else { throw ArgumentParser.ValidationError("--weather-timeout must be 1–30 seconds (got \(weatherTimeout))") }
        guard (0...86_400).contains(weatherPause) else { throw ArgumentParser.ValidationError("--weather-pause must be 0–86400 seconds (got \(weatherPause))") }
        guard headerTimeout >= 1, bodyTimeout >= 1 else { throw ArgumentParser.ValidationError("timeouts are at least 1 second") }
        guard maxConnectionsPerAddress >= 1 else { throw ArgumentParser.ValidationError("--max-connections-per-address must be at least 1") }
        guard (1...16384).contains(maxVideoSize) else { throw ArgumentParser.ValidationError("--max-video-size must be 1–16384 MB (got \(maxVideoSize))") }
        guard (1...240).contains(maxVideoMinutes) else {
            throw ArgumentParser.ValidationError("--max-video-minutes must be 1–240 (got \(maxVideoMinutes))")
        }
        guard (0...65535).contains(port) else { throw ArgumentParser.ValidationError("--port must be 0–65535 (got \(port))") }
        guard !host.isEmpty else { throw ArgumentParser.ValidationError("--host must not be empty") }
    }

    /// The server's configuration with these options.
    func configuration(dataFolder: URL, mail: MailConfiguration?, snapshots: SnapshotSettings?, publicURL: URL?) throws -> AppConfiguration {
        AppConfiguration(
            host: host, port: port, dataFolder: dataFolder, staticFolder: staticFolder.map { URL(fileURLWithPath: $0) },
            connectionLimits: ConnectionLimits(
                headerTimeout: .seconds(Int64(headerTimeout)), bodyStallTimeout: .seconds(Int64(bodyTimeout)),
                maxConnectionsPerAddress: maxConnectionsPerAddress),
            videoLimits: VideoLimits(maxBytes: maxVideoSize << 20, maxSeconds: maxVideoMinutes * 60), mail: mail,
            weather: WeatherConfiguration(url: weatherUrl, timeout: .seconds(weatherTimeout), pause: .seconds(weatherPause)),
            countsStatements: countStatements, snapshots: snapshots, publicURL: publicURL)
    }

    /// `--static-folder` is a folder, and not the data folder or inside it (photos are private).
    func check(dataFolder: URL) throws {
        if let staticFolder {
            let folder = URL(fileURLWithPath: staticFolder).standardizedFileURL.path
            let dataFolder = dataFolder.standardizedFileURL.path
            guard folder != dataFolder, !folder.hasPrefix(dataFolder + "/") else {
                throw ArgumentParser.ValidationError("--static-folder must not be inside the data folder: photos are private")
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw ArgumentParser.ValidationError("--static-folder '\(staticFolder)' is not a folder")
            }
        }
    }
}
