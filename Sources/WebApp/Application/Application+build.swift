import Book
import DiaryStore
import Foundation
import Hummingbird
import Logging
import Persistence
import Photos
import ServiceLifecycle
import Services
import Snapshots

/// Builds the application that `saessak serve` runs; tests build the very same one.
/// `database`: the engine `saessak serve --database` opened; nil opens the data folder's SQLite database.
/// `photoStorage`: the object storage `saessak serve --photos` opened; nil keeps photos in the data folder.
public func buildApplication(
    _ configuration: AppConfiguration, database: (any DiaryEngine)? = nil, photoStorage: (any PhotoStorage)? = nil,
    shutdownWatch: ShutdownWatch? = nil, logger: Logger = Logger(label: "saessak")
) async throws -> some ApplicationProtocol {
    let database = try database ?? DiaryDatabase(folder: configuration.dataFolder)
    if !ToolRun.Tool.ffprobe.isInstalled || !ToolRun.Tool.ffmpeg.isInstalled {
        logger.warning("ffmpeg is not installed (Debian package ffmpeg): video uploads will be refused")
    }
    let photos = try PhotoService(
        dataFolder: configuration.dataFolder, database: database, storage: photoStorage,
        limits: PhotoLimits(video: configuration.videoLimits), logger: logger)
    if try await !photos.tidy() {
        logger.notice("another process is writing photos (an import?): files a crash left behind are swept at the next start")
    }
    var mailing = SignIn(database, setupFile: configuration.dataFolder.appendingPathComponent(DataFolder.setupLinkFile))
    if let mail = configuration.mail {
        mailing.mail = SignInMail(stores: database.stores, photos: photos, cipher: database.cipher, configuration: mail)
    }
    let signIn = mailing
    // A data folder nobody can sign in to yet offers a one-time link that creates its owner.
    let setupToken = try await signIn.accounts.hasUsers() ? nil : signIn.setup.issue()
    if setupToken == nil { signIn.setup.retire() }  // one left by a server stopped before its link was used
    // Object storage is swept every hour too (see PhotoSweeper); the folder at start only.
    var services: [any Service] = [
        photos.worker, photos.renditions, StatisticsUpkeep(database: database, logger: logger),
        SearchIndexUpkeep(database: database, logger: logger),
        TrashSweeper(trash: database.stores.trash, activity: database.stores.activity, photos: photos, logger: logger),
    ]
    if photos.storage.isShared { services.append(PhotoSweeper(photos: photos, logger: logger)) }
    let books = BookWorker(stores: database.stores, storage: photos.storage, logger: logger)
    services.append(books)
    var snapshotter = configuration.snapshots.map {
        Snapshotter(database: database, photos: photos.storage, settings: $0, dataFolder: configuration.dataFolder, logger: logger)
    }
    if let mail = configuration.mail {
        // The owners hear of a failed snapshot by mail too, once for each run of failures.
        let snapshotMail = SnapshotMail(stores: database.stores, photos: photos, cipher: database.cipher, configuration: mail)
        let clock = database.clock
        snapshotter?.onFailure = { reason, lastGood in
            do {
                try await snapshotMail.failed(reason: reason, lastGood: lastGood.flatMap { run in run.finishedAt.map { (run.id, $0) } }, now: clock.now())
            } catch {
                logger.error("the owners could not be told of the failed snapshot by mail", metadata: ["error": "\(error)"])
            }
        }
    }
    if let snapshotter {
        logger.info("snapshots", metadata: ["target": "\(snapshotter.settings)", "every": "\(Int(snapshotter.settings.every))s"])
        services.append(SnapshotScheduler(snapshotter: snapshotter, clock: database.clock, logger: logger))
    }
    if let mail = configuration.mail {
        // The owners hear by mail when the disk is nine tenths full, once a day while it stays so.
        services.append(
            DiskWatch(
                folder: configuration.dataFolder,
                mail: SnapshotMail(stores: database.stores, photos: photos, cipher: database.cipher, configuration: mail),
                clock: database.clock, logger: logger))
        services.append(
            try MailDispatcher(
                stores: database.stores, photos: photos, cipher: database.cipher, configuration: mail, clock: database.clock, logger: logger))
    }
    let limits = configuration.connectionLimits
    let counts = ConnectionCounts()
    return Application(
        router: buildRouter(
            database: database, dataFolder: configuration.dataFolder, photos: photos, signIn: signIn,
            staticFolder: configuration.staticFolder, sendsMail: configuration.mail != nil, weather: configuration.weather,
            countsStatements: configuration.countsStatements, snapshots: configuration.snapshots, books: books,
            publicURL: configuration.publicURL, logger: logger
        ).router,
        server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(limits: limits, counts: counts)])),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Saessak"),
        services: shutdownWatch.map { watch in services.map { watch.watched($0) } } ?? services,
        onServerRunning: { channel in
            guard let setupToken, let port = channel.localAddress?.port else { return }
            // Printed, never logged: the link is a password until it is used.
            let link = setupLink(publicURL: configuration.publicURL, host: configuration.host, port: port) + "/setup?token=\(setupToken)"
            FileHandle.standardOutput.write(Data("Saessak has no users yet. Create the owner at: \(link)\n".utf8))
            do { try signIn.setup.publish(link) } catch { logger.warning("the setup link could not be written to the data folder: \(error)") }
        },
        logger: logger)
}

/// Where the printed setup link points: the public URL when there is one; `localhost` for a server on the loopback
/// address (the same machine, or through `ssh -L`, and a name a passkey can be made for, where 127.0.0.1 is refused);
/// else the address it listens on.
func setupLink(publicURL: URL?, host: String, port: Int) -> String {
    if let publicURL {
        var text = publicURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
    let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
    let shown = loopback ? "localhost" : host.contains(":") ? "[\(host)]" : host
    return "http://\(shown):\(port)"
}

/// Every route of the server, each with the access it declares (`AccessTable`).
func buildRouter(
    database: any DiaryEngine, dataFolder: URL, photos: PhotoService, signIn: SignIn, staticFolder: URL? = nil, sendsMail: Bool = false,
    weather: WeatherConfiguration = WeatherConfiguration(), countsStatements: Bool = false, snapshots: SnapshotSettings? = nil,
    books: BookWorker? = nil, publicURL: URL? = nil, logger: Logger = Logger(label: "saessak")
) -> (router: Router<AppRequestContext>, access: AccessTable) {
    let stores = database.stores
    // Tests that build the router alone queue books that no worker makes.
    let books = books ?? BookWorker(stores: stores, storage: photos.storage, logger: logger)
    // New entries get the day's weather where their family asked for it (off by default).
    let entryStore = WeatherFillingEntries(
        base: stores.entries, lookup: WeatherLookup(store: stores.weather, configuration: weather, clock: database.clock, logger: logger))
    let router = Router(context: AppRequestContext.self)
    if countsStatements { router.add(middleware: StatementCountMiddleware()) }
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: LanguageMiddleware())
    if let staticFolder {
        router.add(middleware: FileMiddleware(
            staticFolder.path, urlBasePath: "/static", cacheControl: .init([(MediaType(type: .any), [.maxAge(3600)])])))
    }
    let authenticator = Authenticator(accounts: stores.accounts, sessions: stores.sessions, activity: stores.activity)
    let access = AccessTable()
    let root = SecureRoutes(router: router, prefix: "", table: access, authenticator: authenticator)
    root.get("healthz", .anyone) { _, _ in HTTPResponse.Status.ok }
    let pages = SecureRoutes(router: router, prefix: "", table: access, authenticator: authenticator, pages: true)
    Assets().register(on: root)
    Manifest().register(on: root)
    ServiceWorker().register(on: root)
    AccountPages(signIn: signIn).register(on: pages)
    let web = WebStores(
        database: database, dataFolder: dataFolder, photos: photos, signIn: signIn, sendsMail: sendsMail, entries: entryStore,
        weatherURL: weather.url, snapshots: snapshots)
    HomePage(stores: web).register(on: pages)
    EntryPages(stores: web).register(on: pages)
    ReactionPages(stores: web).register(on: pages)
    AlbumPage(stores: web).register(on: pages)
    NewsPages(stores: web).register(on: pages)
    CalendarPages(stores: web).register(on: pages)
    ChildrenPages(stores: web).register(on: pages)
    NotebookPages(stores: web).register(on: pages)
    TrashPages(stores: web).register(on: pages)
    BookPages(stores: web, worker: books).register(on: pages)
    ActivityPages(stores: web).register(on: pages)
    VersionPages(stores: web).register(on: pages)
    SettingsPages(stores: web).register(on: pages)
    let ceremonies = PasskeySignIn(passkeys: stores.passkeys, signIn: signIn, publicURL: publicURL)
    let signInMethods = SignInMethodsPages(stores: web, ceremonies: ceremonies)
    signInMethods.register(on: pages)
    signInMethods.register(json: root)
    PasskeySignUpRoutes(sharing: stores.sharing, signIn: signIn, ceremonies: ceremonies).register(json: root)
    SecondStepPages(stores: web).register(on: pages)
    ImportPages(stores: web).register(on: pages)
    HealthPages(stores: web).register(on: pages)
    SharingPages(sharing: stores.sharing, entries: stores.entries, photos: photos, signIn: signIn).register(on: pages)
    GrowthChart(store: stores.growth, children: stores.children).register(on: pages)

    let api = SecureRoutes(router: router, prefix: "api/v1", table: access, authenticator: authenticator)
    api.get("openapi.json", .anyone) { _, _ in try OpenAPIDocument.response() }
    let today = Today(clock: database.clock)
    let children = ChildrenAPI(store: stores.children, photos: photos, today: today)
    children.routes.register(on: api)
    children.registerReveal(on: api)
    VaccinationsAPI(store: stores.vaccinations, children: stores.children, today: today).register(on: api)
    GrowthAPI(store: stores.growth, children: stores.children).register(on: api)
    TodayAPI(
        children: stores.children, anniversaries: stores.anniversaries, vaccinations: stores.vaccinations,
        today: today
    ).register(on: api)
    FeedsAPI(
        sharing: stores.sharing, children: stores.children, anniversaries: stores.anniversaries,
        events: stores.events, vaccinations: stores.vaccinations, today: today, clock: database.clock
    ).register(api: api, pages: pages)
    let entries = EntriesAPI(store: entryStore, children: stores.children, photos: photos)
    entries.routes.register(on: api)
    entries.registerTimeline(on: api)
    entries.registerVersions(on: api)
    entries.registerOnThisDay(on: api, today: today)
    MemosAPI(store: stores.memos).routes.register(on: api)
    TrashAPI(store: stores.trash, photos: photos, clock: database.clock).register(on: api)
    ActivityAPI(store: stores.activity, accounts: stores.accounts).register(on: api)
    SnapshotsAPI(store: stores.snapshots, settings: snapshots, clock: database.clock).register(on: api)
    BooksAPI(store: stores.books, children: stores.children, storage: photos.storage, worker: books).register(on: api)
    ReactionsAPI(store: stores.reactions).register(on: api)
    NewsAPI(store: stores.news).register(on: api)
    SearchAPI(store: stores.search).register(on: api)
    EventsAPI(store: stores.events, photos: photos).routes.register(on: api)
    AnniversariesAPI(store: stores.anniversaries).routes.register(on: api)
    PhotosAPI(service: photos, entries: stores.entries, children: stores.children, clock: database.clock).register(on: api)
    let uploads = ResumableUploads(dataFolder: dataFolder, photos: photos)
    uploads.sweep(now: database.clock.now())  // uploads that expired while the server was down
    UploadsAPI(uploads: uploads, photos: photos, clock: database.clock).register(on: api)
    CalculatorAPI().register(on: api)
    TokensAPI(accounts: stores.accounts).register(on: api)
    AccountAPI(signIn: signIn).register(on: api)
    SharingAPI(store: stores.sharing).register(on: api)
    WeatherRoutes(store: stores.weather, serviceURL: weather.url).register(api: api, pages: pages)
    SignInRuleRoutes(accounts: stores.accounts).register(api: api, pages: pages)
    MailRoutes(mail: stores.mail, accounts: stores.accounts, cipher: database.cipher, serverSendsMail: sendsMail).register(api: api, pages: pages)
    return (router, access)
}
