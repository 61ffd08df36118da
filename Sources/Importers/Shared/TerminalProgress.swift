import Foundation
import Glibc

/// A progress line on a terminal (`가져오는 중 12/40 · 3초 남음`), redrawn at most ten times a second on standard
/// error; nothing at all when standard error is not a terminal (a script, a log, CI).
public final class TerminalProgress {
    private let total: Int
    private let label: String
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private let enabled: Bool

    public init(total: Int, label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.label = label
        self.enabled = enabled && total > 0
    }

    /// `done` of `total` finished.
    public func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
        lastDrawn = now
        var line = "\r\(label) \(done)/\(total)"
        if done > 0, done < total {
            let remaining = now.timeIntervalSince(started) / Double(done) * Double(total - done)
            line += " · \(Int(remaining.rounded(.up)))초 남음"
        }
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    /// Clears the line.
    public func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
