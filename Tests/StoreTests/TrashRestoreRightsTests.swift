import Diary
import Foundation
import KoreanCalendar
import Persistence
import Testing

/// Who may bring back what (issue 66: a viewer's trashed comment, restored with its parent, brought back the entry an
/// owner deleted). Every kind of item that waits for a parent × every kind of parent it can wait for × every role:
/// the store asks `TrashRestorer.may` of every item a restore would bring back, and brings back all or nothing.
@Suite struct TrashRestoreRightsTests {
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        /// Grandma's comment, on an entry mom trashed, or on an entry whose child mom trashed.
        case commentOnEntry, commentOnChildsEntry
        /// What mom took out or deleted, waiting for the entry or the child mom trashed after.
        case photoOfEntry, visitOfChild, measurementOfChild, doseOfChild, anniversaryOfChild

        var testDescription: String { rawValue }
    }

    static let roles: [Role] = [.viewer, .editor, .owner]

    @Test(arguments: Engine.available, Case.allCases) func aRestoreBringsBackOnlyWhatTheRestorerMayRestore(engine: Engine, kind: Case) async throws {
        let fixture = try await StoreFixture(engine)
        let (stores, family) = (fixture.stores, fixture.family)
        let mom = try await stores.accounts.user(named: "kim")
        let grandma = try await fixture.grandmaJoins()
        for (number, role) in Self.roles.enumerated() {
            let child = try await fixture.child("하늘 \(role.rawValue)")
            let entry = try await stores.entries.create(
                family: family,
                content: try EntryContent(title: "첫 걸음 \(role.rawValue)", body: "", date: try .init(iso: "2026-11-22T09:00"), childIDs: [child.id]),
                photos: [], author: mom)
            // The item, then its parent, each trashed by whoever may.
            let item: TrashItem
            let parent: TrashItem
            switch kind {
            case .commentOnEntry, .commentOnChildsEntry:
                let comment = try await stores.reactions.addComment(family: family, on: .entry(entry.id), author: grandma, text: "예쁘다")
                item = try await stores.reactions.deleteComment(family: family, id: comment.id, by: grandma, asOwner: false)
                parent = kind == .commentOnEntry
                    ? try await stores.entries.delete(family: family, id: entry.id, by: mom)
                    : try await stores.children.delete(family: family, id: child.id, by: mom)
            case .photoOfEntry:
                let photo = Photo(
                    familyID: family, sha256: String(format: "%064x", 7000 + number), mimeType: "image/jpeg",
                    byteCount: 1, width: 1, height: 1, createdAt: Date())
                let stored = try await stores.photos.add([photo], family: family, entry: entry.id)
                item = try await stores.photos.remove(stored[0].id, family: family, entry: entry.id, by: mom)
                parent = try await stores.entries.delete(family: family, id: entry.id, by: mom)
            case .visitOfChild:
                let visit = try await stores.events.create(
                    family: family, details: try EventDetails(childID: child.id, kind: .hospital, title: "감기", date: try SolarDate(iso: "2026-01-03")),
                    photos: [])
                item = try await stores.events.delete(family: family, id: visit.id, by: mom)
                parent = try await stores.children.delete(family: family, id: child.id, by: mom)
            case .measurementOfChild:
                let weight = try await stores.growth.add(
                    family: family,
                    try GrowthMeasurement(childID: child.id, kind: .weight, value: 9.5, unit: .kilograms, date: try SolarDate(iso: "2025-06-01")))
                item = try await stores.growth.delete(family: family, child: child.id, id: weight.id, by: mom)
                parent = try await stores.children.delete(family: family, id: child.id, by: mom)
            case .doseOfChild:
                let dose = try await stores.vaccinations.record(
                    family: family,
                    try VaccinationShot(
                        childID: child.id, record: VaccinationRecord(product: .hepB, date: try SolarDate(iso: "2025-04-01")), place: nil, lot: nil,
                        productName: nil))
                item = try await stores.vaccinations.delete(family: family, child: child.id, id: dose.id, by: mom)
                parent = try await stores.children.delete(family: family, id: child.id, by: mom)
            case .anniversaryOfChild:
                let day = try await stores.anniversaries.create(
                    family: family, details: try AnniversaryDetails(name: "첫 만남", calendar: .solar, month: 5, day: 5, childID: child.id))
                item = try await stores.anniversaries.delete(family: family, id: day.id, by: mom)
                parent = try await stores.children.delete(family: family, id: child.id, by: mom)
            }
            let waiting = try await stores.trash.get(family: family, id: item.id)
            guard waiting.waitsFor == parent.id else {
                // An anniversary may stand on its own (its child is a choice): then only the item's own rights count.
                #expect(kind == .anniversaryOfChild, "\(kind): waits for \(String(describing: waiting.waitsFor))")
                continue
            }
            let restorer = TrashRestorer.member(
                Membership(userID: role == .viewer ? grandma : mom, familyID: family, role: role))
            let before = try await stores.trash.list(family: family).items.map(\.id)
            if role.includes(.editor) {
                let back = try await stores.trash.restore(family: family, id: item.id, withParent: true, as: restorer)
                #expect(back.map(\.item.id) == [parent.id, item.id], "\(kind) as \(role)")
            } else {
                // Grandma's own comment still waits for what mom deleted; anything else of mom's is not hers to see.
                let ownComment = kind == .commentOnEntry || kind == .commentOnChildsEntry
                await #expect(throws: StoreError.self, "\(kind) as \(role)") {
                    try await stores.trash.restore(family: family, id: item.id, withParent: true, as: restorer)
                }
                do {
                    _ = try await stores.trash.restore(family: family, id: item.id, withParent: true, as: restorer)
                } catch let error as StoreError {
                    if ownComment {
                        guard case .conflict(field: "parent", _) = error else { Issue.record("\(kind): \(error)"); continue }
                    } else {
                        #expect(error == .notFound(kind: "trash item", id: item.id.description))
                    }
                }
                #expect(try await stores.trash.list(family: family).items.map(\.id) == before, "\(kind): nothing came back")
            }
        }
    }
}
