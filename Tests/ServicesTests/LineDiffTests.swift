import Services
import Testing

/// The versions page's line diff: kept, removed and added lines in reading order, each line of both texts exactly once.
@Suite struct LineDiffTests {
    @Test func aChangedParagraphIsOneLineOutAndOneIn() {
        let changes = LineDiff.compare("공원에 갔다.\n처음 걸었다.\n저녁엔 비.", "공원에 갔다.\n세 걸음 걸었다!\n저녁엔 비.")
        #expect(changes == [.kept("공원에 갔다."), .removed("처음 걸었다."), .added("세 걸음 걸었다!"), .kept("저녁엔 비.")])
    }

    @Test func emptyAndEqualTexts() {
        #expect(LineDiff.compare("", "").isEmpty)
        #expect(LineDiff.compare("", "새 줄") == [.added("새 줄")])
        #expect(LineDiff.compare("옛 줄", "") == [.removed("옛 줄")])
        #expect(LineDiff.compare("a\nb", "a\nb") == [.kept("a"), .kept("b")])
    }

    /// Whatever the texts, the kept and removed lines spell the old one and the kept and added the new one, and no
    /// longer run of kept lines exists than the one found.
    @Test(arguments: 0..<200) func everyLineOnceInOrder(seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        let words = ["가", "나", "다", "", "라"]
        let old = (0..<Int(generator.next() % 12)).map { _ in words[Int(generator.next() % 5)] }.joined(separator: "\n")
        let new = (0..<Int(generator.next() % 12)).map { _ in words[Int(generator.next() % 5)] }.joined(separator: "\n")
        let changes = LineDiff.compare(old, new)
        let before = changes.compactMap { change -> String? in
            switch change {
            case .kept(let line), .removed(let line): line
            case .added: nil
            }
        }
        let after = changes.compactMap { change -> String? in
            switch change {
            case .kept(let line), .added(let line): line
            case .removed: nil
            }
        }
        #expect(before.joined(separator: "\n") == old && before.count == (old.isEmpty ? 0 : old.split(separator: "\n", omittingEmptySubsequences: false).count))
        #expect(after.joined(separator: "\n") == new)
    }

    @Test func textsPastTheLimitAreComparedWhole() {
        let long = (0...LineDiff.maxLines).map(String.init).joined(separator: "\n")
        let changes = LineDiff.compare(long, long + "\n끝")
        #expect(changes.count == 2 * (LineDiff.maxLines + 1) + 1)
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
