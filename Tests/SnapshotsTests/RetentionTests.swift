import Diary
import DiaryStore
import Foundation
import Logging
import Persistence
import Photos
import Snapshots
import Synchronization
import Testing

/// The retention over a simulated year and more, with real restic and an injected clock: a snapshot every week for
/// 406 days (each restic call derives the repository's key, half a second: a snapshot a day would take minutes), each run forgetting by 7 daily, 4 weekly, 12 monthly and yearly ones. What restic keeps at the end is
/// what the rule, applied after every run the same way, keeps — computed here on its own.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/restic"), "needs restic (Debian package restic)"))
struct RetentionTests {
    final class FakeTime: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01 00:00 UTC
        func advance(days: Double) { now.withLock { $0 += days * 86_400 } }
    }

    /// restic's rule (`forget --keep-daily/weekly/monthly/yearly`): from the newest, a snapshot is kept when it is the
    /// first seen of its day (week, month, year) while that count lasts.
    static func kept(_ times: [Date], daily: Int, weekly: Int, monthly: Int, yearly: Int) -> [Date] {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = .current
        let rules: [(count: Int, bucket: (Date) -> String)] = [
            (daily, { let c = calendar.dateComponents([.year, .month, .day], from: $0); return "\(c.year!)-\(c.month!)-\(c.day!)" }),
            (weekly, { let c = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: $0); return "\(c.yearForWeekOfYear!)-\(c.weekOfYear!)" }),
            (monthly, { let c = calendar.dateComponents([.year, .month], from: $0); return "\(c.year!)-\(c.month!)" }),
            (yearly, { "\(calendar.component(.year, from: $0))" }),
        ]
        var left = rules.map(\.count)
        var last: [String?] = Array(repeating: nil, count: rules.count)
        var keep: [Date] = []
        for time in times.sorted(by: >) {
            var kept = false
            for (index, rule) in rules.enumerated() where left[index] > 0 {
                let bucket = rule.bucket(time)
                if bucket != last[index] {
                    last[index] = bucket
                    left[index] -= 1
                    kept = true
                }
            }
            if kept { keep.append(time) }
        }
        return keep.sorted()
    }

    @Test func aYearOfSnapshotsKeepsWhatTheRuleSays() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-retention-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let time = FakeTime()
        let database = try DiaryDatabase(folder: folder.appendingPathComponent("data"), clock: Clock { time.now.withLock { $0 } })
        defer { database.close() }
        _ = try await database.stores.accounts.createUser(username: "mom", passwordHash: "x", familyName: "우리집")
        let settings = try SnapshotSettings(
            target: folder.appendingPathComponent("target").path, every: 86_400,
            environment: ["SAESSAK_SNAPSHOT_PASSWORD": "a passphrase for the test"])
        let snapshotter = Snapshotter(
            database: database, photos: try PhotoFolder(dataFolder: folder.appendingPathComponent("data")), settings: settings,
            dataFolder: folder.appendingPathComponent("data"), logger: Logger(label: "test"))
        var expected: [Date] = []
        // A snapshot a fortnight for fourteen months: past the twelve months kept, in half the restic runs of a weekly
        // year (each is a second or two; make test's longest Swift test).
        for _ in 0..<31 {
            _ = try #require(try await snapshotter.run(period: snapshotter.period(at: time.now.withLock { $0 })))
            expected = Self.kept(expected + [time.now.withLock { $0 }], daily: 7, weekly: 4, monthly: 12, yearly: 1000)
            time.advance(days: 14)
        }
        let listed = try await snapshotter.repository.list().compactMap { parse($0.time) }
        #expect(listed.map(\.timeIntervalSince1970) == expected.map(\.timeIntervalSince1970))
        #expect(expected.count > 7)  // the months and the year reach back beyond the days
        // A period's snapshot is taken once: asking again in the same period does nothing.
        time.advance(days: -14)
        #expect(try await snapshotter.run(period: snapshotter.period(at: time.now.withLock { $0 })) == nil)
    }

    /// restic's times (`2026-01-01T09:00:00+09:00`, with nanoseconds or without).
    func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
