import Foundation
import Testing

@testable import Persistence

@Suite struct StoredTimeTests {
    @Test func wholeMillisecondsRoundTripExactly() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let milliseconds = Int.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            #expect(StoredTime.date(StoredTime.text(date)) == date)
        }
    }

    @Test(arguments: [(0.0, "1970-01-01 00:00:00.000"), (-0.001, "1969-12-31 23:59:59.999"), (1_795_313_425.123, "2026-11-22 02:10:25.123")])
    func format(_ seconds: Double, _ text: String) {
        #expect(StoredTime.text(Date(timeIntervalSince1970: seconds)) == text)
    }

    @Test func textOrderIsTimeOrder() {
        let dates = [-86_400.5, -0.001, 0, 0.001, 59.999, 86_399.999, 1e9].map(Date.init(timeIntervalSince1970:))
        let texts = dates.map(StoredTime.text)
        #expect(texts == texts.sorted())
    }

    /// Times read back from a restored backup are outside data: a huge part once could overflow the arithmetic.
    @Test(arguments: ["2024-01-01 99999999999999999:00:00.000", "2024-01-01 24:00:00.000", "2024-01-01 00:00:00.9999",
                      "2024-01-01 -1:00:00.000", "2024-01-01 00:00", "", "x y"])
    func unreadableTimesAreNoTime(_ text: String) {
        #expect(StoredTime.date(text) == nil)
    }
}
