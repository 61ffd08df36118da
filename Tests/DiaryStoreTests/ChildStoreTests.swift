import Diary
import Foundation
import GRDB
import KoreanCalendar
import Testing

@testable import DiaryStore

@Suite struct ChildStoreTests {
    @Test func profilesRoundTripAndTheResidentNumberIsEncryptedAtRest() async throws {
        let fixture = try await StoreFixture()
        let store = SQLiteChildStore(fixture.database)
        let profile = try ChildProfile(
            name: "김하늘", nickname: "콩이", birthDate: .lunar(try LunarDate(iso: "2023-02-10", isLeapMonth: true)),
            birthTime: try ClockTime(iso: "04:30"), sex: .female, birthplace: "서울", hospital: "서울대병원",
            residentNumber: try ResidentNumber("230331-4123456"))
        let created = try await store.create(family: fixture.family, profile: profile)
        #expect(try await store.get(family: fixture.family, id: created.id) == created)

        let raw = try await fixture.database.writer.read { db in
            try Data.fetchOne(db, sql: "SELECT residentNumberSealed FROM children")!
        }
        #expect(!String(decoding: raw, as: UTF8.self).contains("4123456"))
        let fileBytes = try Data(contentsOf: fixture.folder.appendingPathComponent("saessak.sqlite"))
            + (try Data(contentsOf: fixture.folder.appendingPathComponent("saessak.sqlite-wal")))
        #expect(fileBytes.range(of: Data("4123456".utf8)) == nil)
    }

    @Test func updateReplacesTheProfileAndKeepsTheIdentity() async throws {
        let fixture = try await StoreFixture()
        let store = SQLiteChildStore(fixture.database)
        let child = try await fixture.child()
        var profile = child.profile
        profile.name = "새이름"
        let updated = try await store.update(family: fixture.family, id: child.id, profile: profile)
        #expect(updated.id == child.id && updated.profile.name == "새이름" && updated.createdAt == child.createdAt)
        #expect(updated.modifiedAt >= child.modifiedAt)
    }

    @Test func anotherFamilysChildIsNotFound() async throws {
        let fixture = try await StoreFixture()
        let store = SQLiteChildStore(fixture.database)
        let child = try await fixture.child()
        let other = try await fixture.otherFamily()
        await #expect(throws: StoreError.notFound(kind: "child", id: child.id.description)) {
            try await store.get(family: other, id: child.id)
        }
        await #expect(throws: StoreError.self) { try await store.update(family: other, id: child.id, profile: child.profile) }
        await #expect(throws: StoreError.self) { try await store.delete(family: other, id: child.id) }
        #expect(try await store.list(family: other, after: nil, limit: 50).items.isEmpty)
        #expect(try await store.get(family: fixture.family, id: child.id) == child)
    }

    @Test func deletingAChildTakesWhatIsOnlyTheirsAndNothingElse() async throws {
        let fixture = try await StoreFixture()
        let sky = try await fixture.child("하늘")
        let sea = try await fixture.child("바다")
        let onlySky = try await fixture.entry("하늘만", at: "2026-01-01T10:00", children: [sky.id], tags: ["혼자"])
        let both = try await fixture.entry("둘이", at: "2026-01-02T10:00", children: [sky.id, sea.id], tags: ["같이"])
        _ = try await SQLiteEventStore(fixture.database).create(
            family: fixture.family, details: try EventDetails(childID: sky.id, kind: .hospital, title: "검진", date: try SolarDate(iso: "2026-01-03")))
        _ = try await SQLiteAnniversaryStore(fixture.database).create(
            family: fixture.family, details: try AnniversaryDetails(name: "하늘 기념일", calendar: .solar, month: 1, day: 1, childID: sky.id))

        try await SQLiteChildStore(fixture.database).delete(family: fixture.family, id: sky.id)

        let entries = SQLiteEntryStore(fixture.database)
        await #expect(throws: StoreError.self) { try await entries.get(family: fixture.family, id: onlySky.id) }
        let kept = try await entries.get(family: fixture.family, id: both.id)
        #expect(kept.content.childIDs == [sea.id])
        #expect(try await entries.tags(family: fixture.family) == ["같이"])
        let counts = try await fixture.database.writer.read { db in
            try ["events", "anniversaries", "entryChildren", "tags"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! }
        }
        #expect(counts == [0, 0, 1, 1])
    }

    @Test func listsPageInTheOrderChildrenWereAdded() async throws {
        let fixture = try await StoreFixture()
        var names: [String] = []
        for index in 0..<7 {
            names.append("아이\(index)")
            _ = try await fixture.child(names.last!)
        }
        var seen: [String] = []
        var cursor: PageCursor?
        repeat {
            let page = try await SQLiteChildStore(fixture.database).list(family: fixture.family, after: cursor, limit: 3)
            seen += page.items.map(\.profile.name)
            cursor = page.next
        } while cursor != nil
        #expect(seen == names)
    }

    @Test func theSchemaItselfRefusesLinksAcrossFamilies() async throws {
        let fixture = try await StoreFixture()
        let child = try await fixture.child()
        let other = try await fixture.otherFamily()
        let otherChild = try await fixture.child("남의 아이", in: other)
        let entry = try await fixture.entry("우리", at: "2026-01-01T00:00", children: [child.id])
        await #expect(throws: DatabaseError.self) {
            try await fixture.database.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO entryChildren (entryId, childId, familyId, position) VALUES (?, ?, ?, 1)",
                    arguments: [entry.id.description, otherChild.id.description, fixture.family.description])
            }
        }
        await #expect(throws: StoreError.unknownReference(field: "childIds", id: otherChild.id.description)) {
            try await fixture.entry("남의", at: "2026-01-01T00:00", children: [otherChild.id])
        }
        #expect(try await fixture.database.integrityCheck() == "ok")
    }
}
