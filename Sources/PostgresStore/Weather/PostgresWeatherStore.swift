import Diary
import DiaryStore
import Foundation
import Persistence
import WeatherAnswers

/// `WeatherStore` over PostgreSQL, with the statements of `WeatherSQL`.
public struct PostgresWeatherStore: WeatherStore {
    let database: PostgresDatabase

    public init(_ database: PostgresDatabase) { self.database = database }

    public func lookupIsOn(family: FamilyID) async throws -> Bool {
        guard let row = try await database.readAsync({ db in try await db.row(WeatherSQL.isOn, [family.sql]) }) else {
            throw StoreError.notFound(kind: "family", id: family.description)
        }
        return try row.bool("weatherLookup")
    }

    public func setLookup(_ on: Bool, family: FamilyID) async throws {
        let changed = try await database.writeAsync { db in try await db.execute(WeatherSQL.setOn + " RETURNING id", [on, family.sql]) }
        guard changed == 1 else { throw StoreError.notFound(kind: "family", id: family.description) }
    }

    public func cached(cell: String, date: String) async throws -> CachedWeather? {
        guard let row = try await database.readAsync({ db in try await db.row(WeatherSQL.cached, [cell, date]) }) else { return nil }
        return WeatherSQL.cachedWeather(
            code: try row.optionalInt("code"), high: try row.optionalDouble("high"), low: try row.optionalDouble("low"),
            fetchedAt: try row.timestamp("fetchedAt"))
    }

    public func remember(cell: String, date: String, weather: DailyWeather?) async throws {
        let now = database.clock.now().stored
        try await database.writeAsync { db in
            try await db.execute(WeatherSQL.remember, [cell, date, weather?.code, weather?.high, weather?.low, now])
        }
    }
}
