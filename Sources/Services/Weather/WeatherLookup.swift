import AsyncHTTPClient
import Diary
import Foundation
import KoreanCalendar
import Logging
import NIOCore
import NIOFoundationCompat
import Persistence
import Synchronization
import WeatherAnswers

/// Where the day's weather is asked (`saessak serve --weather-url`, `--weather-timeout`, `--weather-pause`).
public struct WeatherConfiguration: Sendable {
    public var url: String
    public var timeout: Duration
    /// After the service fails, how long new entries go without asking it (zero: every entry asks).
    public var pause: Duration

    public init(url: String = OpenMeteoArchive.defaultURL, timeout: Duration = .seconds(3), pause: Duration = .seconds(300)) {
        self.url = url
        self.timeout = timeout
        self.pause = pause
    }
}

/// When the weather service last failed this server: a home server whose internet is down, or a service that is
/// gone, would otherwise make every new entry wait the whole timeout. Kept in memory — each server finds out for
/// itself, and a restart asks again.
final class WeatherPause: Sendable {
    private let until = Mutex<ContinuousClock.Instant?>(nil)
    let length: Duration

    init(length: Duration) { self.length = length }

    var isOn: Bool { until.withLock { until in until.map { ContinuousClock.now < $0 } ?? false } }

    func begin() { until.withLock { $0 = ContinuousClock.now + length } }
}

/// Fills a new entry's weather (or an edited one's that gains its first coordinates: `WeatherFillingEntries`) from a
/// public archive when its family turned the lookup on (off by default), the entry says no weather, and it has
/// coordinates. What is sent: the entry's date and its position rounded to 0.1°. Answers are
/// kept by day and cell, so each is asked once ("no data yet" is asked again after a day). A slow, failing or
/// vanished service leaves the weather empty and the save goes on — never a failed save; the log says why — and the
/// entries after it are saved without asking until `pause` has passed. A refusal in the archive's own words (a day it
/// does not cover) is an answer, not a failure: it pauses nothing.
public struct WeatherLookup: Sendable {
    let store: any WeatherStore
    let archive: WeatherArchive
    let clock: Clock
    let logger: Logger
    let pause: WeatherPause

    /// `archive` is where days are asked (`WeatherArchive.live` from the configuration when not given); `clock` says
    /// how old a kept "no data yet" is.
    public init(
        store: any WeatherStore, configuration: WeatherConfiguration, archive: WeatherArchive? = nil, clock: Clock = .live, logger: Logger
    ) {
        self.store = store
        self.archive = archive ?? .live(url: configuration.url, timeout: configuration.timeout)
        self.clock = clock
        self.logger = logger
        self.pause = WeatherPause(length: configuration.pause)
    }

    /// A day's "no data yet" is kept this long before the archive is asked again.
    static let noDataFor: TimeInterval = 86_400

    /// The weather text for the entry, or nil to leave it as it is.
    public func weather(family: FamilyID, content: EntryContent) async -> String? {
        guard content.weather == nil, let latitude = content.place?.latitude, let longitude = content.place?.longitude,
            let cell = WeatherCell(latitude: latitude, longitude: longitude)
        else { return nil }
        do {
            guard try await store.lookupIsOn(family: family) else { return nil }
        } catch {
            return nil
        }
        let date = content.date.date.iso
        if let kept = try? await store.cached(cell: cell.key, date: date),
            kept.weather != nil || clock.now().timeIntervalSince(kept.fetchedAt) < Self.noDataFor
        {
            return kept.weather?.text(english: false)
        }
        guard !pause.isOn else {
            logger.info("weather: left empty, the service failed a moment ago", metadata: ["date": "\(date)"])
            return nil
        }
        do {
            let day = try await archive.fetch(cell, date)
            try await store.remember(cell: cell.key, date: date, weather: day)
            return day?.text(english: false)
        } catch OpenMeteoArchive.Failure.refused(let reason) {
            logger.warning("weather: left empty", metadata: ["date": "\(date)", "why": "the archive refused: \(reason)"])
            return nil
        } catch {
            pause.begin()  // a zero pause ends as it begins
            logger.warning("weather: left empty", metadata: ["date": "\(date)", "why": "\(error)", "askedAgainIn": "\(pause.length)"])
            return nil
        }
    }
}

/// Where a day's weather at a cell is asked: the public archive over HTTP (`live`), or what a test answers.
public struct WeatherArchive: Sendable {
    public var fetch: @Sendable (_ cell: WeatherCell, _ date: String) async throws -> DailyWeather?

    public init(fetch: @escaping @Sendable (_ cell: WeatherCell, _ date: String) async throws -> DailyWeather?) { self.fetch = fetch }

    /// The archive at `url` (Open-Meteo's format), each answer within `timeout`.
    public static func live(url: String, timeout: Duration, client: HTTPClient = .shared) -> WeatherArchive {
        WeatherArchive { cell, date in
            let separator = url.contains("?") ? "&" : "?"
            let request = HTTPClientRequest(url: url + separator + OpenMeteoArchive.query(cell: cell, date: date))
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: OpenMeteoArchive.maximumAnswerBytes)
            // The archive answers errors as 400 with its JSON; anything else not 200 is the service's trouble.
            guard response.status == .ok || response.status == .badRequest else { throw ServiceStatus(code: response.status.code) }
            return try OpenMeteoArchive.weather(from: Data(buffer: body), date: date)
        }
    }

    /// An answer that is not the archive's: the service's own trouble (a 500, a proxy's page).
    private struct ServiceStatus: Error, CustomStringConvertible {
        let code: UInt
        var description: String { "HTTP \(code)" }
    }
}

extension TimeAmount {
    /// A duration as NIO counts it, in whole nanoseconds.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + attoseconds / 1_000_000_000)
    }
}

/// The entry store the API and the pages write through: a new entry that says no weather gets the day's weather when
/// its family asked for it (`WeatherLookup`), and so does an edit that gives an entry its first coordinates;
/// everything else goes straight to the store.
public struct WeatherFillingEntries: EntryStore {
    let base: any EntryStore
    let lookup: WeatherLookup

    public init(base: any EntryStore, lookup: WeatherLookup) {
        self.base = base
        self.lookup = lookup
    }

    private func filled(_ family: FamilyID, _ content: EntryContent) async -> EntryContent {
        guard let weather = await lookup.weather(family: family, content: content) else { return content }
        var content = content
        content.weather = weather
        return content
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?) async throws -> Entry {
        try await base.create(family: family, content: await filled(family, content), photos: photos, author: author)
    }

    public func create(family: FamilyID, content: EntryContent, photos: [PhotoID], author: UserID?, idempotencyKey key: String) async throws
        -> (entry: Entry, replayed: Bool)
    {
        try await base.create(family: family, content: await filled(family, content), photos: photos, author: author, idempotencyKey: key)
    }

    public func list(family: FamilyID, filter: TimelineFilter, after cursor: PageCursor?, limit: Int) async throws -> Page<Entry> {
        try await base.list(family: family, filter: filter, after: cursor, limit: limit)
    }

    public func timeline(family: FamilyID, filter: TimelineFilter, after cursor: PageCursor?, limit: Int) async throws
        -> (sections: [MonthSection<Entry>], next: PageCursor?)
    {
        try await base.timeline(family: family, filter: filter, after: cursor, limit: limit)
    }

    public func days(family: FamilyID, from first: SolarDate, through last: SolarDate) async throws -> [SolarDate: DaySummary] {
        try await base.days(family: family, from: first, through: last)
    }

    public func onThisDay(family: FamilyID, _ day: OnThisDay, limit: Int) async throws -> [Entry] {
        try await base.onThisDay(family: family, day, limit: limit)
    }

    public func get(family: FamilyID, id: EntryID) async throws -> Entry { try await base.get(family: family, id: id) }

    public func entries(family: FamilyID, ids: [EntryID]) async throws -> [Entry] { try await base.entries(family: family, ids: ids) }

    public func fillPlaceRegions() async throws -> Int { try await base.fillPlaceRegions() }

    public func update(
        family: FamilyID, id: EntryID, content: EntryContent, photos: [PhotoID]?, expecting version: Int64?, by user: UserID?
    ) async throws -> (entry: Entry, released: [ReleasedPhotoFile]) {
        var content = content
        if content.weather == nil, content.place?.latitude != nil, try await gainsItsFirstPosition(family, id) {
            content = await filled(family, content)
        }
        return try await base.update(family: family, id: id, content: content, photos: photos, expecting: version, by: user)
    }

    /// Whether an edit that gives the entry coordinates and no weather gives it its first ones, with no weather
    /// before either: a photo with GPS added later, or a place typed in. An entry that had coordinates and no weather
    /// had it cleared, or its day was asked already; one that had weather had it cleared by this edit: neither asks.
    private func gainsItsFirstPosition(_ family: FamilyID, _ id: EntryID) async throws -> Bool {
        let stored = try await base.get(family: family, id: id).content
        return stored.place?.latitude == nil && stored.weather == nil
    }

    public func versions(family: FamilyID, id: EntryID) async throws -> [EntryVersion] { try await base.versions(family: family, id: id) }

    public func versionCount(family: FamilyID, id: EntryID) async throws -> Int { try await base.versionCount(family: family, id: id) }

    public func restoreVersion(family: FamilyID, id: EntryID, number: Int, by user: UserID?) async throws
        -> (entry: Entry, released: [ReleasedPhotoFile])
    {
        try await base.restoreVersion(family: family, id: id, number: number, by: user)
    }

    public func purgeVersion(family: FamilyID, id: EntryID, number: Int) async throws -> [ReleasedPhotoFile] {
        try await base.purgeVersion(family: family, id: id, number: number)
    }

    public func delete(family: FamilyID, id: EntryID, by user: UserID?) async throws -> TrashItem {
        try await base.delete(family: family, id: id, by: user)
    }

    public func tags(family: FamilyID) async throws -> [String] { try await base.tags(family: family) }
}
