import ArgumentParser
import DiaryStore
import Hummingbird
import Installation
import Logging
import Foundation
import Photos
import Services
import WeatherAnswers
import WebApp

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the web app and the JSON API.",
        discussion: "A fresh data folder is created on first run. Stop with Ctrl-C (SIGINT) or SIGTERM.")

    @OptionGroup var data: DataOptions
    @OptionGroup var mail: MailOptions
    @OptionGroup var snapshots: SnapshotOptions
    @OptionGroup var server: ServerOptions

    func validate() throws { try server.check(dataFolder: data.url) }

    func run() async throws {
        // Said here, before anyone is answered: a page never meets a missing template.
        if let missing = Installation.missingResources() { throw CLIError(missing) }
        DiaryDatabase.forgoMemoryStatistics()
        var logger = Logger(label: "saessak")
        logger.logLevel = .info
        logger.info("saessak \(Installation.description)")
        // PostgreSQL when a database URL is given; otherwise buildApplication opens the data folder's SQLite.
        let database = try data.postgres() == nil ? nil : try await data.openOrCreate()
        if let database { logger.info("database", metadata: ["engine": "\(database.location)"]) }
        // Object storage when a photo store URL is given; otherwise the data folder's photos/.
        let photoStorage = try data.objectStorage() == nil ? nil : try await data.photoStorage()
        if let photoStorage { logger.info("photos", metadata: ["store": "\(photoStorage.location)"]) }
        let watch = ShutdownWatch(logger: logger)
        let app = try await buildApplication(
            try server.configuration(
                dataFolder: data.url, mail: try mail.configuration(), snapshots: try snapshots.settings(), publicURL: try mail.publicURL()),
            database: database, photoStorage: photoStorage, shutdownWatch: watch, logger: logger)
        try await watch.group(running: app, signals: [.sigterm, .sigint]).run()
    }
}
