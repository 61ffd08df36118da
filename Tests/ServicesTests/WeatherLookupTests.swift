import Diary
import DiaryStore
import Foundation
import KoreanCalendar
import Logging
import Persistence
import Synchronization
import Testing
import WeatherAnswers

@testable import Services

/// The weather lookup with its effects injected: a test archive in place of the HTTP service, a test clock in place of
/// the system's. What it asks, what it keeps, when it asks again.
@Suite struct WeatherLookupTests {
    /// Counts what it is asked and answers from a script.
    final class Archive: Sendable {
        let asked = Mutex(0)
        let answer = Mutex<Result<DailyWeather?, any Error>>(.success(nil))

        var source: WeatherArchive {
            WeatherArchive { _, _ in
                self.asked.withLock { $0 += 1 }
                return try self.answer.withLock { $0 }.get()
            }
        }
    }

    final class Time: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var clock: Clock { Clock { self.now.withLock { $0 } } }
    }

    struct ServiceDown: Error {}

    /// A real SQLite database on the test's clock (the lookup and the answers it keeps read one clock), with a family.
    func database(_ time: Time) async throws -> (DiaryDatabase, FamilyID) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-weather-\(UUID().uuidString)")
        let database = try DiaryDatabase(folder: folder, clock: time.clock)
        let family = try await database.stores.accounts.createUser(username: "kim", passwordHash: "x", familyName: "김씨네").1.id
        return (database, family)
    }

    func content(day: String) throws -> EntryContent {
        try EntryContent(
            title: "산책", body: "", date: try LocalDateTime(iso: day + "T10:00"), childIDs: [ChildID()],
            place: try Place(name: "남산", latitude: 37.5512, longitude: 126.9882))
    }

    @Test func noDataYetIsKeptForADayAndTheServiceIsNotAskedAgainMeanwhile() async throws {
        let (archive, time) = (Archive(), Time())
        let (database, family) = try await database(time)
        try await database.stores.weather.setLookup(true, family: family)
        let lookup = WeatherLookup(
            store: database.stores.weather, configuration: WeatherConfiguration(), archive: archive.source, clock: time.clock,
            logger: Logger(label: "test"))
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-20")) == nil)
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-20")) == nil)
        #expect(archive.asked.withLock { $0 } == 1)
        // A day later the archive is asked again; its answer is kept for good.
        time.now.withLock { $0 += 86_401 }
        archive.answer.withLock { $0 = .success(DailyWeather(code: 61, high: 12.4, low: 3.6)) }
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-20")) == "비 12℃/4℃")
        time.now.withLock { $0 += 10 * 86_400 }
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-20")) == "비 12℃/4℃")
        #expect(archive.asked.withLock { $0 } == 2)
    }

    @Test func aFailingServiceIsPausedAndAFamilyThatDidNotAskIsNeverLookedUp() async throws {
        let (archive, time) = (Archive(), Time())
        let (database, family) = try await database(time)
        archive.answer.withLock { $0 = .failure(ServiceDown()) }
        let lookup = WeatherLookup(
            store: database.stores.weather, configuration: WeatherConfiguration(pause: .seconds(300)), archive: archive.source,
            clock: time.clock, logger: Logger(label: "test"))
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-21")) == nil)
        #expect(archive.asked.withLock { $0 } == 0)
        try await database.stores.weather.setLookup(true, family: family)
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-21")) == nil)
        #expect(await lookup.weather(family: family, content: try content(day: "2026-11-22")) == nil)
        #expect(archive.asked.withLock { $0 } == 1)
    }
}
