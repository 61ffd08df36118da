import DiaryStore
import Foundation
import Hummingbird
import Logging

/// Builds the application that `saessak serve` runs; tests build the very same one.
public func buildApplication(_ configuration: AppConfiguration, logger: Logger = Logger(label: "saessak"))
    async throws -> some ApplicationProtocol
{
    let database = try DiaryDatabase(folder: configuration.dataFolder)
    let photos = try PhotoService(dataFolder: configuration.dataFolder, database: database, logger: logger)
    try await photos.tidy()
    return Application(
        router: buildRouter(database: database, photos: photos, staticFolder: configuration.staticFolder).router,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Saessak"),
        services: [photos.worker],
        logger: logger)
}

/// Every route of the server, each with the access it declares (`AccessTable`).
func buildRouter(database: DiaryDatabase, photos: PhotoService, staticFolder: URL? = nil)
    -> (router: Router<AppRequestContext>, access: AccessTable)
{
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: LogRequestsMiddleware(.info))
    if let staticFolder {
        router.add(middleware: FileMiddleware(
            staticFolder.path, urlBasePath: "/static", cacheControl: .init([(MediaType(type: .any), [.maxAge(3600)])])))
    }
    router.add(middleware: AuthenticationMiddleware(accounts: AccountStore(database)))
    let access = AccessTable()
    let root = SecureRoutes(router: router, prefix: "", table: access)
    root.get("healthz", .anyone) { _, _ in HTTPResponse.Status.ok }

    let api = SecureRoutes(router: router, prefix: "api/v1", table: access)
    api.get("openapi.json", .anyone) { _, _ in try OpenAPIDocument.response() }
    let today = Today(clock: database.clock)
    ChildrenAPI(store: ChildStore(database), photos: photos, today: today).routes.register(on: api)
    let entries = EntriesAPI(store: EntryStore(database), photos: photos)
    entries.routes.register(on: api)
    entries.registerTimeline(on: api)
    entries.registerOnThisDay(on: api, today: today)
    MemosAPI(store: MemoStore(database)).routes.register(on: api)
    SearchAPI(store: SearchStore(database)).register(on: api)
    EventsAPI(store: EventStore(database)).routes.register(on: api)
    AnniversariesAPI(store: AnniversaryStore(database)).routes.register(on: api)
    PhotosAPI(service: photos, clock: database.clock).register(on: api)
    CalculatorAPI().register(on: api)
    TokensAPI(accounts: AccountStore(database)).register(on: api)
    return (router, access)
}
