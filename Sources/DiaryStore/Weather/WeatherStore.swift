import Diary
import Foundation
import GRDB
import Persistence
import WeatherAnswers

/// `WeatherStore` over the SQLite database (`DiaryDatabase`), with the statements of `WeatherSQL`.
public struct SQLiteWeatherStore: WeatherStore {
    let database: DiaryDatabase

    public init(_ database: DiaryDatabase) { self.database = database }

    public func lookupIsOn(family: FamilyID) async throws -> Bool {
        try await database.writer.read { db in
            guard let on = try Bool.fetchOne(db, sql: WeatherSQL.isOn, arguments: [family.sql]) else {
                throw StoreError.notFound(kind: "family", id: family.description)
            }
            return on
        }
    }

    public func setLookup(_ on: Bool, family: FamilyID) async throws {
        try await database.writer.write { db in
            try db.execute(sql: WeatherSQL.setOn, arguments: [on, family.sql])
            guard db.changesCount == 1 else { throw StoreError.notFound(kind: "family", id: family.description) }
        }
    }

    public func cached(cell: String, date: String) async throws -> CachedWeather? {
        try await database.writer.read { db in
            try Row.fetchOne(db, sql: WeatherSQL.cached, arguments: [cell, date]).map { row in
                WeatherSQL.cachedWeather(code: row["code"], high: row["high"], low: row["low"], fetchedAt: try row.timestamp("fetchedAt"))
            }
        }
    }

    public func remember(cell: String, date: String, weather: DailyWeather?) async throws {
        let now = database.clock.now().stored
        try await database.writer.write { db in
            try db.execute(sql: WeatherSQL.remember, arguments: [cell, date, weather?.code, weather?.high, weather?.low, now])
        }
    }
}
