import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing
import WeatherAnswers

import DiaryStore

/// The smaller records — memos, anniversaries, growth, vaccinations, the weather — on both engines: what is written
/// reads back the same, in the documented order, and one family never reaches another's.
@Suite struct RecordStoreTests {
    @Test(arguments: Engine.available) func memosPageMostRecentlyChangedFirst(engine: Engine) async throws {
        let clock = TestClock()
        let fixture = try await StoreFixture(engine, clock: clock.clock)
        let memos = fixture.stores.memos
        var made: [Memo] = []
        for n in 0..<5 {
            clock.advance(60)
            made.append(try await memos.create(family: fixture.family, content: try MemoContent(title: "메모 \(n)", body: "내용 \(n)")))
        }
        #expect(try await memos.get(family: fixture.family, id: made[2].id) == made[2])
        clock.advance(60)
        let edited = try await memos.update(family: fixture.family, id: made[0].id, content: try MemoContent(title: "고친 메모", body: "새 내용"))
        #expect(edited.id == made[0].id && edited.createdAt == made[0].createdAt && edited.modifiedAt > made[4].modifiedAt)
        #expect(edited.content.title == "고친 메모")

        var seen: [MemoID] = []
        var cursor: PageCursor?
        repeat {
            let page = try await memos.list(family: fixture.family, after: cursor, limit: 2)
            seen += page.items.map(\.id)
            cursor = page.next
        } while cursor != nil
        #expect(seen == [made[0].id, made[4].id, made[3].id, made[2].id, made[1].id])

        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.notFound(kind: "memo", id: made[1].id.description)) { try await memos.get(family: other, id: made[1].id) }
        await #expect(throws: StoreError.self) { try await memos.update(family: other, id: made[1].id, content: made[1].content) }
        await #expect(throws: StoreError.self) { try await memos.delete(family: other, id: made[1].id, by: nil) }
        #expect(try await memos.list(family: other, after: nil, limit: 10).items.isEmpty)
        _ = try await memos.delete(family: fixture.family, id: made[1].id, by: nil)
        await #expect(throws: StoreError.self) { try await memos.get(family: fixture.family, id: made[1].id) }
        await #expect(throws: StoreError.self) { try await memos.delete(family: fixture.family, id: made[1].id, by: nil) }
    }

    @Test(arguments: Engine.available) func anniversariesKeepTheirCalendarAndComeInMonthDayOrder(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.anniversaries
        let child = try await fixture.child()
        let jesa = try await store.create(
            family: fixture.family, details: try AnniversaryDetails(name: "할아버지 제사", calendar: .lunar, month: 4, day: 30, isLeapMonth: true, isHoliday: true))
        let wedding = try await store.create(family: fixture.family, details: try AnniversaryDetails(name: "결혼기념일", calendar: .solar, month: 2, day: 29))
        let naming = try await store.create(
            family: fixture.family, details: try AnniversaryDetails(name: "이름 지은 날", calendar: .solar, month: 4, day: 2, childID: child.id))
        #expect(try await store.get(family: fixture.family, id: jesa.id) == jesa)
        #expect(jesa.details.isLeapMonth && jesa.details.isHoliday && jesa.details.calendar == .lunar)
        #expect(naming.details.childID == child.id)
        let listed = try await store.list(family: fixture.family, after: nil, limit: 10).items.map(\.id)
        #expect(listed == [wedding.id, naming.id, jesa.id])
        let firstPage = try await store.list(family: fixture.family, after: nil, limit: 2)
        let rest = try await store.list(family: fixture.family, after: firstPage.next, limit: 2)
        #expect(firstPage.items.map(\.id) + rest.items.map(\.id) == listed && rest.next == nil)

        let moved = try await store.update(
            family: fixture.family, id: wedding.id, details: try AnniversaryDetails(name: "결혼기념일", calendar: .solar, month: 12, day: 1))
        #expect(moved.id == wedding.id && moved.createdAt == wedding.createdAt && moved.details.month == 12)
        #expect(try await store.list(family: fixture.family, after: nil, limit: 10).items.last?.id == wedding.id)

        // Another family's child cannot be named; another family sees nothing.
        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) {
            try await store.create(family: other, details: try AnniversaryDetails(name: "남의 아이", calendar: .solar, month: 1, day: 1, childID: child.id))
        }
        await #expect(throws: StoreError.self) { try await store.get(family: other, id: jesa.id) }
        await #expect(throws: StoreError.self) { try await store.delete(family: other, id: jesa.id, by: nil) }
        _ = try await store.delete(family: fixture.family, id: jesa.id, by: nil)
        #expect(try await store.list(family: fixture.family, after: nil, limit: 10).items.map(\.id) == [naming.id, wedding.id])
    }

    @Test(arguments: Engine.available) func eventsComeNewestFirstAndNarrowToAChild(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let events = fixture.stores.events
        let sky = try await fixture.child("하늘")
        let sea = try await fixture.child("바다")
        var details = try EventDetails(childID: sky.id, kind: .hospital, title: "감기", date: try SolarDate(iso: "2026-01-10"))
        details.time = try ClockTime(iso: "09:30")
        details.hospital = "연세소아과"
        details.doctor = "김의사"
        details.diagnosis = "급성 비인두염"
        details.notes = "해열제 처방"
        let cold = try await events.create(family: fixture.family, details: details)
        let checkup = try await events.create(
            family: fixture.family, details: try EventDetails(childID: sea.id, kind: .milestone, title: "첫 걸음", date: try SolarDate(iso: "2026-02-01")))
        let shot = try await events.create(
            family: fixture.family, details: try EventDetails(childID: sky.id, kind: .other, title: "돌잔치", date: try SolarDate(iso: "2026-03-01")))
        #expect(try await events.get(family: fixture.family, id: cold.id) == cold)
        #expect(cold.details == details && cold.photoIDs.isEmpty)
        #expect(try await events.list(family: fixture.family, after: nil, limit: 10).items.map(\.id) == [shot.id, checkup.id, cold.id])
        let first = try await events.list(family: fixture.family, child: sky.id, after: nil, limit: 1)
        let rest = try await events.list(family: fixture.family, child: sky.id, after: first.next, limit: 1)
        #expect(first.items.map(\.id) == [shot.id] && rest.items.map(\.id) == [cold.id])
        #expect(rest.next == nil)

        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.notFound(kind: "event", id: cold.id.description)) { try await events.get(family: other, id: cold.id) }
        await #expect(throws: StoreError.self) { try await events.update(family: other, id: cold.id, details: details) }
        await #expect(throws: StoreError.self) { try await events.delete(family: other, id: cold.id, by: nil) }
        await #expect(throws: StoreError.self) {
            try await events.create(family: other, details: try EventDetails(childID: sky.id, kind: .hospital, title: "남의 아이", date: try SolarDate(iso: "2026-01-01")))
        }
        #expect(try await events.delete(family: fixture.family, id: cold.id, by: nil).kind == .event)
        await #expect(throws: StoreError.self) { try await events.get(family: fixture.family, id: cold.id) }
    }

    @Test(arguments: Engine.available) func measurementsComeOldestFirstPerChild(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let growth = fixture.stores.growth
        let sky = try await fixture.child("하늘")
        let sea = try await fixture.child("바다")
        let later = try await growth.add(
            family: fixture.family, try GrowthMeasurement(childID: sky.id, kind: .weight, value: 7.25, unit: .kilograms, date: try SolarDate(iso: "2025-06-01")))
        let earlier = try await growth.add(
            family: fixture.family, try GrowthMeasurement(childID: sky.id, kind: .height, value: 50.5, unit: .centimetres, date: try SolarDate(iso: "2025-03-01")))
        let hers = try await growth.add(
            family: fixture.family, try GrowthMeasurement(childID: sea.id, kind: .head, value: 34.1, unit: .centimetres, date: try SolarDate(iso: "2025-03-02")))
        #expect(try await growth.measurements(family: fixture.family, child: sky.id) == [earlier, later])
        #expect(try await growth.measurements(family: fixture.family, child: sea.id) == [hers])

        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await growth.measurements(family: other, child: sky.id) }
        await #expect(throws: StoreError.self) {
            try await growth.add(family: other, try GrowthMeasurement(childID: sky.id, kind: .weight, value: 8, unit: .kilograms, date: try SolarDate(iso: "2025-07-01")))
        }
        await #expect(throws: StoreError.self) { try await growth.delete(family: other, child: sky.id, id: later.id, by: nil) }
        await #expect(throws: StoreError.self) { try await growth.delete(family: fixture.family, child: sea.id, id: later.id, by: nil) }
        _ = try await growth.delete(family: fixture.family, child: sky.id, id: later.id, by: nil)
        #expect(try await growth.measurements(family: fixture.family, child: sky.id) == [earlier])
    }

    @Test(arguments: Engine.available) func shotsChoicesAndSkippedDosesAreAChildsOwn(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.vaccinations
        let child = try await fixture.child()
        let shot = try await store.record(
            family: fixture.family,
            try VaccinationShot(
                childID: child.id, record: VaccinationRecord(product: .dtapIpvHib, date: try SolarDate(iso: "2025-05-01")), place: "소아과",
                lot: "A12", productName: "펜탁심"))
        let bcg = try await store.record(
            family: fixture.family,
            try VaccinationShot(childID: child.id, record: VaccinationRecord(product: .bcg, date: try SolarDate(iso: "2025-03-20")), place: nil, lot: nil, productName: nil))
        try await store.choose(family: fixture.family, child: child.id, .rotavirus, .rv5)
        try await store.setSkipped(family: fixture.family, child: child.id, DoseKey(vaccine: .hepA, number: 2), true)
        var all = try await store.vaccinations(family: fixture.family, child: child.id)
        #expect(Set(all.shots) == [shot, bcg])
        #expect(all.choices == [.rotavirus: .rv5] && all.skipped == [DoseKey(vaccine: .hepA, number: 2)])

        // Choosing again replaces; nil clears; a skip is cleared as it was set.
        try await store.choose(family: fixture.family, child: child.id, .rotavirus, .rv1)
        try await store.choose(family: fixture.family, child: child.id, .japaneseEncephalitis, .ijev)
        try await store.choose(family: fixture.family, child: child.id, .japaneseEncephalitis, nil)
        try await store.setSkipped(family: fixture.family, child: child.id, DoseKey(vaccine: .hepA, number: 2), true)
        try await store.setSkipped(family: fixture.family, child: child.id, DoseKey(vaccine: .hepA, number: 2), false)
        _ = try await store.delete(family: fixture.family, child: child.id, id: bcg.id, by: nil)
        all = try await store.vaccinations(family: fixture.family, child: child.id)
        #expect(all.shots == [shot] && all.choices == [.rotavirus: .rv1] && all.skipped.isEmpty)

        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.self) { try await store.vaccinations(family: other, child: child.id) }
        await #expect(throws: StoreError.self) { try await store.delete(family: other, child: child.id, id: shot.id, by: nil) }
        await #expect(throws: StoreError.self) { try await store.choose(family: other, child: child.id, .rotavirus, .rv5) }
        await #expect(throws: StoreError.self) { try await store.setSkipped(family: other, child: child.id, DoseKey(vaccine: .bcg, number: 1), true) }
        await #expect(throws: StoreError.self) {
            try await store.record(
                family: other,
                try VaccinationShot(childID: child.id, record: VaccinationRecord(product: .bcg, date: try SolarDate(iso: "2025-03-20")), place: nil, lot: nil, productName: nil))
        }
        #expect(try await store.vaccinations(family: fixture.family, child: child.id).choices == [.rotavirus: .rv1])

        // Several children at once (the notices' one read): each its own, a child without records empty, and in
        // another family's name nothing of this one's.
        let second = try await fixture.child()
        try await store.setSkipped(family: fixture.family, child: second.id, DoseKey(vaccine: .bcg, number: 1), true)
        let both = try await store.vaccinations(family: fixture.family, children: [child.id, second.id])
        #expect(both[child.id]?.shots == [shot] && both[child.id]?.choices == [.rotavirus: .rv1] && both[child.id]?.skipped.isEmpty == true)
        #expect(both[second.id]?.shots.isEmpty == true && both[second.id]?.skipped == [DoseKey(vaccine: .bcg, number: 1)])
        let theirs = try await store.vaccinations(family: other, children: [child.id, second.id])
        #expect(theirs.values.allSatisfy { $0.shots.isEmpty && $0.choices.isEmpty && $0.skipped.isEmpty })
        #expect(try await store.vaccinations(family: fixture.family, children: []).isEmpty)
    }

    @Test(arguments: Engine.available) func weatherLookupIsOffUntilTurnedOnAndAnswersAreKeptPerCellAndDay(engine: Engine) async throws {
        let clock = TestClock()
        let fixture = try await StoreFixture(engine, clock: clock.clock)
        let weather = fixture.stores.weather
        #expect(try await weather.lookupIsOn(family: fixture.family) == false)
        try await weather.setLookup(true, family: fixture.family)
        #expect(try await weather.lookupIsOn(family: fixture.family))
        #expect(try await weather.lookupIsOn(family: try await fixture.otherFamily()) == false)

        #expect(try await weather.cached(cell: "375,1270", date: "2026-05-05") == nil)
        try await weather.remember(cell: "375,1270", date: "2026-05-05", weather: nil)
        let none = try #require(try await weather.cached(cell: "375,1270", date: "2026-05-05"))
        #expect(none.weather == nil && none.fetchedAt == clock.clock.now())
        clock.advance(3600)
        try await weather.remember(cell: "375,1270", date: "2026-05-05", weather: DailyWeather(code: 61, high: 18.4, low: -2.5))
        let rain = try #require(try await weather.cached(cell: "375,1270", date: "2026-05-05"))
        #expect(rain.weather == DailyWeather(code: 61, high: 18.4, low: -2.5) && rain.fetchedAt == clock.clock.now())
        #expect(try await weather.cached(cell: "375,1270", date: "2026-05-06") == nil)
        #expect(try await weather.cached(cell: "375,1271", date: "2026-05-05") == nil)
        try await weather.setLookup(false, family: fixture.family)
        #expect(try await weather.lookupIsOn(family: fixture.family) == false)
    }
}

/// A clock the test moves by hand, in whole milliseconds (what both engines store).
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Date(timeIntervalSince1970: 1_780_000_000)

    var clock: Clock { Clock { self.lock.withLock { self.time } } }

    func advance(_ seconds: TimeInterval) { lock.withLock { time += seconds } }
}
