import Diary
import Foundation
import WeatherAnswers

/// `WeatherStore` over either engine.
public struct SQLWeatherStore: WeatherStore {
    let database: any StoreDatabase

    public init(_ database: any StoreDatabase) { self.database = database }

    public func lookupIsOn(family: FamilyID) async throws -> Bool {
        try await database.read { db in
            guard let row = try db.row("SELECT weatherLookup FROM families WHERE id = \(family)") else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
            return try row.bool("weatherLookup")
        }
    }

    public func setLookup(_ on: Bool, family: FamilyID) async throws {
        try await database.write { db in
            guard try db.execute("UPDATE families SET weatherLookup = \(on) WHERE id = \(family)") == 1 else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
        }
    }

    public func cached(cell: String, date: String) async throws -> CachedWeather? {
        try await database.read { db in
            guard let row = try db.row("SELECT code, high, low, fetchedAt FROM weatherCache WHERE cell = \(cell) AND date = \(date)") else {
                return nil
            }
            let fetchedAt = try row.timestamp("fetchedAt")
            // A row without a code is "no data yet".
            guard let code = try row.optionalInt("code"), let high = try row.optionalDouble("high"), let low = try row.optionalDouble("low") else {
                return CachedWeather(weather: nil, fetchedAt: fetchedAt)
            }
            return CachedWeather(weather: DailyWeather(code: code, high: high, low: low), fetchedAt: fetchedAt)
        }
    }

    public func remember(cell: String, date: String, weather: DailyWeather?) async throws {
        let now = database.clock.now()
        try await database.write { db in
            try db.execute(
                """
                INSERT INTO weatherCache (cell, date, code, high, low, fetchedAt)
                VALUES (\(cell), \(date), \(weather?.code), \(weather?.high), \(weather?.low), \(now))
                ON CONFLICT (cell, date) DO UPDATE SET code = excluded.code, high = excluded.high, low = excluded.low,
                    fetchedAt = excluded.fetchedAt
                """)
        }
    }
}
