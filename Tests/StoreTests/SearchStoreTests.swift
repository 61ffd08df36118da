import Diary
import Foundation
import KoreanCalendar
import Persistence
import Secrets
import Testing

import DiaryStore
import PostgresStore

/// Korean search over a corpus built here: particles, spacing variants, one- and two-syllable queries, English,
/// mixed text and emoji.
@Suite struct SearchStoreTests {
    /// A diary of one family; titles name the entries in expectations.
    struct Corpus {
        let fixture: StoreFixture
        let sky: Child
        let sea: Child
        let store: any SearchStore

        init(_ engine: Engine) async throws {
            fixture = try await StoreFixture(engine)
            sky = try await fixture.child("하늘")
            sea = try await fixture.child("바다")
            store = fixture.stores.search
            let entries: [(String, String, String, [ChildID], [String], String?)] = [
                ("웃음", "아기가 처음으로 소리 내어 웃었다.", "2025-04-01T09:00", [sky.id], [], nil),
                ("목욕", "아기를 목욕시키고 재웠다", "2025-05-01T20:00", [sky.id], [], nil),
                ("산책", "아기랑 공원에서 산책했다", "2025-06-01T10:00", [sea.id], ["산책"], "올림픽공원"),
                ("백일", "오늘 백일잔치를 했다. 할머니가 오셨다.", "2025-06-08T12:00", [sky.id], ["백일"], nil),
                ("띄어쓰기", "바다의 백일 잔치 준비", "2025-06-20T12:00", [sea.id], [], nil),
                ("돌잔치", "드디어 돌잔치! 돌잡이는 연필", "2026-03-01T12:00", [sky.id], ["첫돌"], "서울"),
                ("걸음마", "첫걸음을 뗐다", "2026-02-10T18:00", [sky.id], [], nil),
                ("바닷가", "We went to the BEACH with Grandma", "2025-08-15T15:00", [sky.id, sea.id], [], "제주도 협재해수욕장"),
                ("디즈니", "3월에 Disney 영화를 봤다", "2026-03-15T16:00", [sea.id], [], nil),
                ("생일", "생일 축하해 🎂 사랑해 🥰", "2026-03-01T19:00", [sky.id], [], nil),
                ("어린이집", "처음 등원한 날", "2026-09-01T08:30", [sky.id], ["어린이집", "Daycare"], nil),
                ("아이", "아이가 잠들었다", "2026-09-02T21:00", [sky.id], [], nil),
            ]
            for (title, body, date, children, tags, place) in entries {
                _ = try await fixture.stores.entries.create(
                    family: fixture.family,
                    content: try EntryContent(
                        title: title, body: body, date: try LocalDateTime(iso: date), childIDs: children, tags: tags,
                        place: try place.map { try Place(name: $0, latitude: nil, longitude: nil) }))
            }
            _ = try await fixture.stores.memos.create(
                family: fixture.family, content: try MemoContent(title: "장보기 목록", body: "기저귀, 물티슈, 아기 로션"))
        }

        func titles(_ text: String, filter: SearchFilter = try! SearchFilter()) async throws -> [String] {
            try await store.search(family: fixture.family, try SearchQuery(text), filter: filter, after: nil, limit: 50)
                .items.map(\.title)
        }

        /// SQLite: FTS5's own check of the index against its documents. PostgreSQL: every token row belongs to a
        /// document (its foreign key), every document has its tokens, and the counts kept beside them are right.
        func integrityCheck() async throws {
            if let sqlite = fixture.sqlite {
                try await sqlite.writer.write { db in
                    try db.execute(sql: "INSERT INTO searchIndex (searchIndex, rank) VALUES ('integrity-check', 1)")
                }
            } else {
                let bare = try await fixture.count(
                    "SELECT count(*) FROM searchDocuments WHERE NOT EXISTS (SELECT 1 FROM searchTokens WHERE documentId = searchDocuments.id)")
                #expect(bare == 0)
                // The counts beside the index: each family's documents (kept by triggers) and each row's instances.
                let drift = try await fixture.count(
                    """
                    SELECT count(*) FROM (SELECT familyId, count(*) AS n FROM searchDocuments GROUP BY familyId) AS d
                    FULL JOIN searchFamilies f USING (familyId) WHERE coalesce(d.n, 0) <> coalesce(f.documents, 0)
                    """)
                #expect(drift == 0)
                #expect(try await fixture.count("SELECT count(*) FROM searchTokens WHERE occurrences <> cardinality(positions)") == 0)
                // Each token row carries its document's family's number.
                let strays = try await fixture.count(
                    """
                    SELECT count(*) FROM searchTokens t JOIN searchDocuments d ON d.id = t.documentId
                    LEFT JOIN searchFamilies f ON f.familyId = d.familyId WHERE f.number IS DISTINCT FROM t.family
                    """)
                #expect(strays == 0)
            }
        }
    }

    static let examples: [(String, [String])] = [
        // Particles: the bare noun finds every form, and nothing else.
        ("아기", ["목욕", "산책", "웃음", "장보기 목록"]),
        ("아기가", ["웃음"]),
        ("백일", ["백일", "띄어쓰기"]),
        ("백일잔치", ["백일", "띄어쓰기"]),  // 백일 잔치 written with a space is found too
        ("백일 잔치", ["백일", "띄어쓰기"]),  // and terms apart find 백일잔치 written as one word
        // One syllable.
        ("돌", ["돌잔치"]),
        ("첫", ["걸음마", "돌잔치"]),  // 처음 is not 첫
        ("잡", ["돌잔치"]),
        // English: case-insensitive, by the start of words.
        ("beach", ["바닷가"]),
        ("BEA", ["바닷가"]),
        ("grand", ["바닷가"]),
        ("each", []),
        ("daycare", ["어린이집"]),
        // Mixed Korean and English, digits beside syllables.
        ("disney 영화", ["디즈니"]),
        ("3월", ["디즈니"]),
        ("Disney 바다", []),
        // Emoji, old and new.
        ("🎂", ["생일"]),
        ("🥰", ["생일"]),
        // Tags and places.
        ("어린이", ["어린이집"]),
        ("제주", ["바닷가"]),
        ("올림픽", ["산책"]),
        // Memos.
        ("기저귀", ["장보기 목록"]),
    ]

    @Test(arguments: Engine.available, SearchStoreTests.examples)
    func findsKoreanAndEnglish(engine: Engine, example: (query: String, expected: [String])) async throws {
        let corpus = try await Corpus(engine)
        #expect(try await corpus.titles(example.query).sorted() == example.expected.sorted())
    }

    /// The contract between the engines: every query of the suite finds the same hits, in the same order, with the
    /// same passages, on PostgreSQL as on SQLite — with several terms' lists merged, looked up, or as chosen.
    @Test(.enabled(if: Engine.available.contains(.postgres)))
    func bothEnginesGiveTheSameHitsInTheSameOrder() async throws {
        let sqlite = try await Corpus(.sqlite)
        let postgres = try await Corpus(.postgres)
        let queries = Self.examples.map(\.0) + [
            "아기 공원", "할머니", "준비", "축하 사랑", "We", "연필 돌잡이", "처음", "\u{0345}", "아기 \u{0345}", "아기 산책 공원", "생일 아기",
        ]
        let ways = [nil, true, false].map { PostgresSearchStore(postgres.fixture.postgres!, merging: $0) }
        for query in queries {
            func hits(_ store: any SearchStore, _ corpus: Corpus) async throws -> [String] {
                try await store.search(family: corpus.fixture.family, try SearchQuery(query), after: nil, limit: 50).items
                    .map { "\($0.title) | \($0.snippet.text) | \($0.snippet.parts.filter(\.isMatch).map(\.text))" }
            }
            let expected = try await hits(sqlite.store, sqlite)
            for (way, store) in zip(["chosen", "merged", "looked up"], ways) {
                let found = try await hits(store, postgres)
                #expect(found == expected, "\(query), \(way): \(found) ≠ \(expected)")
            }
        }
    }

    /// PostgreSQL's "p12 search counts" gave each token row its count and each family its number of documents, and
    /// "p19 search family numbers" the family's number in place of its ID: a diary indexed before them gets them as
    /// it migrates, and searches it as before.
    @Test(.enabled(if: Engine.available.contains(.postgres)))
    func aDiaryIndexedBeforeTheCountsGetsThemAsItMigrates() async throws {
        let corpus = try await Corpus(.postgres)
        let expected = try await corpus.titles("아기 공원")
        for statement in [
            // Back to before p12: the later migrations undone first.
            "DROP INDEX searchTokens_lookup", "ALTER TABLE searchTokens ADD COLUMN familyId text COLLATE \"C\"",
            "UPDATE searchTokens t SET familyId = f.familyId FROM searchFamilies f WHERE f.number = t.family",
            "ALTER TABLE searchTokens ALTER COLUMN familyId SET NOT NULL", "ALTER TABLE searchTokens DROP COLUMN family",
            "CREATE INDEX searchTokens_lookup ON searchTokens(familyId, token, documentId) INCLUDE (field, occurrences)",
            "ALTER TABLE searchFamilies DROP COLUMN number", "DELETE FROM saessakMigrations WHERE name = 'p19 search family numbers'",
            "DROP TABLE passkeyChallenges", "DROP TABLE passkeys", "DROP TABLE recoveryCodes", "DROP TABLE secondSteps",
            "ALTER TABLE sessions DROP COLUMN signedInWith", "ALTER TABLE sessions DROP COLUMN label", "ALTER TABLE families DROP COLUMN strongSignIn", "DELETE FROM saessakMigrations WHERE name = 'p18 sign-in methods'",
            "DROP TABLE bookJobs", "DELETE FROM saessakMigrations WHERE name = 'p17 book jobs'",
            "DROP TABLE snapshotRuns", "DELETE FROM saessakMigrations WHERE name = 'p16 snapshot runs'",
            "DROP TABLE activity", "DROP TABLE devices", "DELETE FROM saessakMigrations WHERE name = 'p15 activity'",
            "DROP TABLE entryVersionPhotos", "DROP TABLE entryVersions",
            "DROP TABLE trashContents", "DROP TABLE trashPhotos", "DROP TABLE trashItems", "ALTER TABLE families DROP COLUMN trashDays",
            "DELETE FROM saessakMigrations WHERE name = 'p14 trash and versions'",
            "DROP INDEX entryChildren_entry", "DROP INDEX entryTags_entry", "DROP INDEX entryPhotos_entry",
            "DELETE FROM saessakMigrations WHERE name = 'p13 entry lists'",
            "DROP TRIGGER searchDocuments_added ON searchDocuments", "DROP TRIGGER searchDocuments_removed ON searchDocuments",
            "DROP FUNCTION searchFamilies_added()", "DROP FUNCTION searchFamilies_removed()", "DROP TABLE searchFamilies",
            "DROP INDEX searchTokens_lookup", "ALTER TABLE searchTokens DROP COLUMN occurrences",
            "CREATE INDEX searchTokens_lookup ON searchTokens(familyId, token, documentId)",
            "DELETE FROM saessakMigrations WHERE name = 'p12 search counts'",
        ] {
            try await corpus.fixture.execute(statement, [])
        }
        var settings = try PostgresSettings(url: try #require(Engine.postgresURL), environment: [:])
        settings.schema = try await corpus.fixture.postgres!.readAsync { db in try await db.string("SELECT current_schema()") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let migrated = try await PostgresDatabase.open(settings, cipher: try FieldCipher.forDataFolder(folder))
        defer { migrated.close() }
        #expect(try await migrated.readAsync { db in try await db.int("SELECT documents FROM searchFamilies") } == 13)
        try await corpus.integrityCheck()
        let found = try await PostgresSearchStore(migrated).search(
            family: corpus.fixture.family, try SearchQuery("아기 공원"), filter: try SearchFilter(), after: nil, limit: 50)
        #expect(found.items.map(\.title) == expected)
    }

    @Test(arguments: Engine.available) func titleMatchesRankAboveBodyMatchesAndSnippetsMarkTheMatch(engine: Engine) async throws {
        let corpus = try await Corpus(engine)
        let page = try await corpus.store.search(family: corpus.fixture.family, try SearchQuery("백일"), after: nil, limit: 10)
        #expect(page.items.first?.title == "백일")
        let hit = try #require(page.items.first { $0.title == "띄어쓰기" })
        #expect(hit.kind == .entry)
        #expect(hit.snippet.text == "바다의 백일 잔치 준비")
        #expect(hit.snippet.parts.filter(\.isMatch).map(\.text) == ["백일"])

        let spaced = try await corpus.store.search(
            family: corpus.fixture.family, try SearchQuery("백일잔치"), after: nil, limit: 10)
        let marked = spaced.items.first { $0.title == "띄어쓰기" }?.snippet.parts.filter(\.isMatch).map(\.text)
        #expect(marked == ["백일 잔치"])

        let memo = try await corpus.store.search(family: corpus.fixture.family, try SearchQuery("물티슈"), after: nil, limit: 10)
        #expect(memo.items.map(\.kind) == [.memo])
    }

    @Test(arguments: Engine.available) func filtersByChildAndDatesFindEntriesOnly(engine: Engine) async throws {
        let corpus = try await Corpus(engine)
        #expect(try await corpus.titles("아기", filter: try SearchFilter(childID: corpus.sky.id)).sorted() == ["목욕", "웃음"])
        #expect(try await corpus.titles("아기", filter: try SearchFilter(childID: corpus.sea.id)) == ["산책"])
        let may = try SearchFilter(from: try SolarDate(iso: "2025-05-01"), to: try SolarDate(iso: "2025-06-01"))
        #expect(try await corpus.titles("아기", filter: may).sorted() == ["목욕", "산책"])
        #expect(try await corpus.titles("기저귀", filter: try SearchFilter(from: try SolarDate(iso: "2000-01-01"))) == [])
        #expect(throws: ValidationError.self) {
            try SearchFilter(from: try SolarDate(iso: "2025-06-02"), to: try SolarDate(iso: "2025-06-01"))
        }
    }

    @Test(arguments: Engine.available) func anotherFamilySeesNothing(engine: Engine) async throws {
        let corpus = try await Corpus(engine)
        let other = try await corpus.fixture.otherFamily()
        let page = try await corpus.store.search(family: other, try SearchQuery("아기"), after: nil, limit: 50)
        #expect(page.items.isEmpty)
    }

    /// PostgreSQL's window of whole-word terms brings the page's documents along by their ids: it takes only the
    /// family's own, as the fetch of any it did not bring does — even when a token row names another family's document
    /// under this family's number (which no write makes; a damaged or hand-edited table could).
    @Test(.enabled(if: Engine.available.contains(.postgres)))
    func aTokenRowPointingAtAnotherFamilysDocumentShowsNothingOfIt() async throws {
        let corpus = try await Corpus(.postgres)
        let other = try await corpus.fixture.otherFamily()
        _ = try await corpus.fixture.stores.memos.create(family: other, content: try MemoContent(title: "비밀 편지", body: "비밀 편지"))
        let query = try SearchQuery("비밀 편지")
        #expect(try await corpus.store.search(family: other, query, after: nil, limit: 10).items.map(\.title) == ["비밀 편지"])
        try await corpus.fixture.execute(
            """
            UPDATE searchTokens SET family = (SELECT number FROM searchFamilies WHERE familyId = ?)
            WHERE family = (SELECT number FROM searchFamilies WHERE familyId = ?)
            """, [corpus.fixture.family.description, other.description])
        #expect(try await corpus.store.search(family: corpus.fixture.family, query, after: nil, limit: 10).items.isEmpty)
        #expect(try await corpus.store.search(family: corpus.fixture.family, try SearchQuery("아기 공원"), after: nil, limit: 50).items.isEmpty == false)
    }

    @Test(arguments: Engine.available) func writesKeepTheIndexInStepInTheSameTransaction(engine: Engine) async throws {
        let corpus = try await Corpus(engine)
        let entries = corpus.fixture.stores.entries
        let memos = corpus.fixture.stores.memos
        let walk = try #require(try await entries.list(family: corpus.fixture.family, after: nil, limit: 50).items.first {
            $0.content.title == "산책"
        })
        var content = walk.content
        content.body = "유모차 타고 한강 나들이"
        content.tags = ["나들이"]
        _ = try await entries.update(family: corpus.fixture.family, id: walk.id, content: content)
        #expect(try await corpus.titles("아기").contains("산책") == false)
        #expect(try await corpus.titles("한강") == ["산책"])
        #expect(try await corpus.titles("나들이") == ["산책"])

        // A write that fails leaves the index as it was.
        content.childIDs = [ChildID()]
        await #expect(throws: StoreError.self) {
            _ = try await entries.update(family: corpus.fixture.family, id: walk.id, content: content)
        }
        #expect(try await corpus.titles("한강") == ["산책"])

        _ = try await entries.delete(family: corpus.fixture.family, id: walk.id, by: nil)
        #expect(try await corpus.titles("한강") == [])

        let memo = try await memos.create(family: corpus.fixture.family, content: try MemoContent(title: "병원", body: "예방접종 예약"))
        #expect(try await corpus.titles("예방") == ["병원"])
        _ = try await memos.update(family: corpus.fixture.family, id: memo.id, content: try MemoContent(title: "병원", body: "영유아 검진"))
        #expect(try await corpus.titles("예방") == [])
        #expect(try await corpus.titles("검진") == ["병원"])
        _ = try await memos.delete(family: corpus.fixture.family, id: memo.id, by: nil)
        #expect(try await corpus.titles("검진") == [])
        try await corpus.integrityCheck()
        if engine == .postgres {
            // The family was numbered once, by its first document, and no write since spent another number.
            let numbers = try await corpus.fixture.count("SELECT last_value FROM searchfamilies_number_seq")
            let families = try await corpus.fixture.count("SELECT count(*) FROM searchFamilies")
            #expect(numbers == families)
        }

        // Deleting the whole family cascades through the documents and out of the index.
        try await corpus.fixture.execute("DELETE FROM families WHERE id = ?", [corpus.fixture.family.description])
        #expect(try await corpus.fixture.count("SELECT count(*) FROM searchDocuments") == 0)
        if engine == .sqlite {
            #expect(try await corpus.fixture.count("SELECT count(*) FROM searchIndex WHERE searchIndex MATCH '\"아기\"'") == 0)
        } else {
            #expect(try await corpus.fixture.count("SELECT count(*) FROM searchTokens") == 0)
        }
        try await corpus.integrityCheck()
    }

    @Test(arguments: Engine.available, [4_096, 1, 3, 5, 7])
    func pagesVisitEveryHitOnceWindowByWindow(engine: Engine, window: Int) async throws {
        let fixture = try await StoreFixture(engine)
        let child = try await fixture.child()
        for index in 0..<23 {
            // Every fifth entry says 아기 in its title too, and ranks above the others of its window.
            let title = index % 5 == 0 ? "아기 \(index)" : "\(index)"
            _ = try await fixture.stores.entries.create(
                family: fixture.family,
                content: try EntryContent(
                    title: title, body: "아기와 산책", date: try LocalDateTime(iso: "2026-01-\(10 + index % 10)T09:00"),
                    childIDs: [child.id]))
        }
        _ = try await fixture.entry("산책만", at: "2026-01-01T09:00", children: [child.id])
        // One term, and two whose lists PostgreSQL merges or looks up (both in all 23: the window's edge is the same).
        for (query, merging) in [("아기", nil), ("아기 산책", true), ("아기 산책", false)] as [(String, Bool?)] {
            let store: any SearchStore =
                if let sqlite = fixture.sqlite {
                    SQLiteSearchStore(sqlite, window: window)
                } else {
                    PostgresSearchStore(fixture.postgres!, window: window, merging: merging)
                }
            var titles: [String] = []
            var cursor: PageCursor?
            var pages = 0
            repeat {
                let page = try await store.search(family: fixture.family, try SearchQuery(query), after: cursor, limit: 5)
                titles += page.items.map(\.title)
                cursor = page.next
                pages += 1
            } while cursor != nil
            #expect(titles.count == 23, "\(query)")
            #expect(Set(titles).count == 23, "\(query)")
            #expect(pages == 5, "\(query)")
            if window >= 23 {
                // One window: exact ranking, title matches first (newest first among equals).
                #expect(titles.prefix(5) == ["아기 20", "아기 15", "아기 10", "아기 5", "아기 0"], "\(query)")
            }
            await #expect(throws: ValidationError.self) {
                _ = try await store.search(
                    family: fixture.family, try SearchQuery(query), after: PageCursor(sortKey: "2026", id: "x"), limit: 5)
            }
        }
    }

    @Test(arguments: Engine.available) func reindexRebuildsFromEntriesAndMemos(engine: Engine) async throws {
        let corpus = try await Corpus(engine)
        try await corpus.fixture.execute("DELETE FROM searchDocuments", [])
        #expect(try await corpus.titles("아기") == [])
        let counts = try await corpus.store.reindex()
        #expect(counts.entries == 12)
        #expect(counts.memos == 1)
        #expect(try await corpus.titles("아기").count == 4)
        try await corpus.integrityCheck()
    }
}
