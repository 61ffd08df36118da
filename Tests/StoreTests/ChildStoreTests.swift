import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

import DiaryStore

@Suite struct ChildStoreTests {
    @Test(arguments: Engine.available) func profilesRoundTripAndTheResidentNumberIsEncryptedAtRest(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.children
        let profile = try ChildProfile(
            name: "김하늘", nickname: "콩이", birthDate: .lunar(try LunarDate(iso: "2023-02-10", isLeapMonth: true)),
            birthTime: try ClockTime(iso: "04:30"), sex: .female, birthplace: "서울", hospital: "서울대병원",
            residentNumber: try ResidentNumber("230331-4123456"))
        let created = try await store.create(family: fixture.family, profile: profile)
        #expect(try await store.get(family: fixture.family, id: created.id) == created)

        let raw = try #require(try await fixture.data("SELECT residentNumberSealed FROM children"))
        #expect(!String(decoding: raw, as: UTF8.self).contains("4123456"))
        if let folder = fixture.folder, engine == .sqlite {
            let fileBytes = try Data(contentsOf: folder.appendingPathComponent("saessak.sqlite"))
                + (try Data(contentsOf: folder.appendingPathComponent("saessak.sqlite-wal")))
            #expect(fileBytes.range(of: Data("4123456".utf8)) == nil)
        }
    }

    @Test(arguments: Engine.available) func updateReplacesTheProfileAndKeepsTheIdentity(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.children
        let child = try await fixture.child()
        var profile = child.profile
        profile.name = "새이름"
        let updated = try await store.update(family: fixture.family, id: child.id, profile: profile)
        #expect(updated.id == child.id && updated.profile.name == "새이름" && updated.createdAt == child.createdAt)
        #expect(updated.modifiedAt >= child.modifiedAt)
    }

    @Test(arguments: Engine.available) func anotherFamilysChildIsNotFound(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let store = fixture.stores.children
        let child = try await fixture.child()
        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.notFound(kind: "child", id: child.id.description)) {
            try await store.get(family: other, id: child.id)
        }
        await #expect(throws: StoreError.self) { try await store.update(family: other, id: child.id, profile: child.profile) }
        await #expect(throws: StoreError.self) { try await store.delete(family: other, id: child.id, by: nil) }
        #expect(try await store.list(family: other, after: nil, limit: 50).items.isEmpty)
        #expect(try await store.get(family: fixture.family, id: child.id) == child)
    }

    @Test(arguments: Engine.available) func deletingAChildTakesWhatIsOnlyTheirsAndNothingElse(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let sky = try await fixture.child("하늘")
        let sea = try await fixture.child("바다")
        let onlySky = try await fixture.entry("하늘만", at: "2026-01-01T10:00", children: [sky.id], tags: ["혼자"])
        let both = try await fixture.entry("둘이", at: "2026-01-02T10:00", children: [sky.id, sea.id], tags: ["같이"])
        _ = try await fixture.stores.events.create(
            family: fixture.family, details: try EventDetails(childID: sky.id, kind: .hospital, title: "검진", date: try SolarDate(iso: "2026-01-03")))
        _ = try await fixture.stores.anniversaries.create(
            family: fixture.family, details: try AnniversaryDetails(name: "하늘 기념일", calendar: .solar, month: 1, day: 1, childID: sky.id))

        _ = try await fixture.stores.children.delete(family: fixture.family, id: sky.id, by: nil)

        let entries = fixture.stores.entries
        await #expect(throws: StoreError.self) { try await entries.get(family: fixture.family, id: onlySky.id) }
        let kept = try await entries.get(family: fixture.family, id: both.id)
        #expect(kept.content.childIDs == [sea.id])
        #expect(try await entries.tags(family: fixture.family) == ["같이"])
        var counts: [Int] = []
        for table in ["events", "anniversaries", "entryChildren", "tags"] { counts.append(try await fixture.count("SELECT count(*) FROM \(table)")) }
        #expect(counts == [0, 0, 1, 1])
    }

    @Test(arguments: Engine.available) func listsPageInTheOrderChildrenWereAdded(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        var names: [String] = []
        for index in 0..<7 {
            names.append("아이\(index)")
            _ = try await fixture.child(names.last!)
        }
        var seen: [String] = []
        var cursor: PageCursor?
        repeat {
            let page = try await fixture.stores.children.list(family: fixture.family, after: cursor, limit: 3)
            seen += page.items.map(\.profile.name)
            cursor = page.next
        } while cursor != nil
        #expect(seen == names)
    }

    @Test(arguments: Engine.available) func theSchemaItselfRefusesLinksAcrossFamilies(engine: Engine) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        let other = try await fixture.otherFamily()
        let otherChild = try await fixture.child("남의 아이", in: other)
        let entry = try await fixture.entry("우리", at: "2026-01-01T00:00", children: [child.id])
        await #expect(throws: (any Error).self) {
            try await fixture.execute(
                "INSERT INTO entryChildren (entryId, childId, familyId, position) VALUES (?, ?, ?, 1)",
                [entry.id.description, otherChild.id.description, fixture.family.description])
        }
        await #expect(throws: StoreError.unknownReference(field: "childIds", id: otherChild.id.description)) {
            try await fixture.entry("남의", at: "2026-01-01T00:00", children: [otherChild.id])
        }
        #expect(try await fixture.integrityCheck() == "ok")
    }
}
