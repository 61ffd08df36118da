import DiaryStore
import Foundation
import Hummingbird
import Logging

/// Builds the application that `saessak serve` runs; tests build the very same one.
public func buildApplication(_ configuration: AppConfiguration, logger: Logger = Logger(label: "saessak"))
    async throws -> some ApplicationProtocol
{
    let database = try DiaryDatabase(folder: configuration.dataFolder)
    return Application(
        router: buildRouter(database: database),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Saessak"),
        logger: logger)
}

/// Every route of the server, with the middleware that guards it.
func buildRouter(database: DiaryDatabase) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: LogRequestsMiddleware(.info))
    router.get("healthz") { _, _ in HTTPResponse.Status.ok }

    let api = router.group("api/v1")
    api.get("openapi.json") { _, _ in try OpenAPIDocument.response() }
    api.add(middleware: BearerAuthMiddleware(accounts: AccountStore(database)))
    let today = Today(clock: database.clock)
    ChildrenAPI(store: ChildStore(database), today: today).routes.register(on: api)
    let entries = EntriesAPI(store: EntryStore(database))
    entries.routes.register(on: api)
    entries.registerTimeline(on: api)
    MemosAPI(store: MemoStore(database)).routes.register(on: api)
    EventsAPI(store: EventStore(database)).routes.register(on: api)
    AnniversariesAPI(store: AnniversaryStore(database)).routes.register(on: api)
    return router
}
