import Diary
import Foundation
import Services
import Snapshots

/// What the owners' home and settings pages say about the scheduled snapshots, in their language:
/// "마지막 백업 3일 전 · 실패: 대상 디스크가 가득 참".
enum SnapshotLine {
    /// The line, or nil when the snapshots are not set up.
    static func read(_ stores: WebStores, language: Language) async throws -> (text: String, troubled: Bool)? {
        guard let settings = stores.snapshots else { return nil }
        let now = stores.database.clock.now()
        let status = try await SnapshotStatus.read(stores.database.stores.snapshots, settings: settings, now: now)
        var parts = [
            status.lastGood.map { ActivityWord.snapshotLastGood.text(language, ago(now.timeIntervalSince($0.at), language)) }
                ?? ActivityWord.snapshotNever.text(language)
        ]
        let failed = status.lastRun?.status == .failed
        if failed, let last = status.lastRun {
            let reason = ActivityWord(rawValue: "reason_\((last.reason ?? .other).rawValue)")?.text(language) ?? ""
            parts.append(ActivityWord.snapshotFailed.text(language, reason))
        }
        return (parts.joined(separator: " · "), failed || status.late)
    }

    /// "3일 전", "5시간 전", "방금".
    static func ago(_ seconds: TimeInterval, _ language: Language) -> String {
        if seconds < 3600 { return ActivityWord.justNow.text(language) }
        if seconds < 86_400 { return ActivityWord.hoursAgo.text(language, "\(Int(seconds / 3600))") }
        return ActivityWord.daysAgo.text(language, "\(Int(seconds / 86_400))")
    }
}
