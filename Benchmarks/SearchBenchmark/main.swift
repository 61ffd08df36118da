// Measures Korean search for `make bench` (scripts/bench.py prints the table): 100,000 generated diary entries in
// one family, each query through `SearchStore` (ranked, first page of 20 with snippets) next to a plain
// `LIKE '%…%'` scan finding every match, in the same process on the same database.
// Prints one JSON object per line.
import Diary
import DiaryStore
import Foundation
import GRDB
import KoreanCalendar

let entryCount = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1])! : 100_000
let repetitions = 40

/// A fixed pseudo-random sequence, so every run searches the same diary.
struct Sequence {
    var state: UInt64 = 20_261_122
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
}

let nouns = [
    "아기", "엄마", "아빠", "할머니", "할아버지", "공원", "어린이집", "우유", "이유식", "낮잠", "목욕", "장난감", "그림책", "병원",
    "친구", "선생님", "눈", "비", "바다", "놀이터", "기차", "자동차", "강아지", "고양이", "딸기", "사과", "바나나", "노래", "동생",
    "유모차", "기저귀", "신발", "모자", "햇살", "바람", "저녁", "아침", "케이크", "사진", "풍선", "블록", "이모", "삼촌",
]
let particles = ["가", "이", "를", "을", "랑", "와", "에서", "에게", "도", "는", "의", "하고", ""]
let verbs = [
    "먹었다", "잤다", "웃었다", "울었다", "놀았다", "갔다", "봤다", "만났다", "불렀다", "걸었다", "좋아했다", "읽었다", "탔다",
    "씻었다", "만들었다", "기다렸다", "안아 주었다", "손을 흔들었다",
]
let rare = ["백일잔치를 했다", "돌잔치에서 돌잡이로 연필을 잡았다", "첫걸음을 뗐다", "예방접종을 맞았다", "beach에 갔다", "Disney 영화를 봤다"]

var random = Sequence()
@MainActor func sentence() -> String {
    var words: [String] = []
    for _ in 0..<(1 + random.next(3)) { words.append(random.pick(nouns) + random.pick(particles)) }
    if random.next(200) == 0 { words.append(random.pick(rare)) } else { words.append(random.pick(verbs)) }
    return words.joined(separator: " ") + "."
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-search-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let database = try DiaryDatabase(folder: folder)
let family = try await database.stores.accounts.createUser(username: "bench", passwordHash: "x", familyName: "bench").1.id

let seeded = Date()
let today = try SolarDate(iso: "2026-11-22")
let rows: [StatementArguments] = try (0..<entryCount).map { index in
    let title = random.pick(nouns) + random.pick(particles) + " " + random.pick(verbs)
    let body = (0..<(6 + random.next(10))).map { _ in sentence() }.joined(separator: " ")
    let date = try today.adding(days: -(index / 8))  // eight entries a day, backwards from today
    return [EntryID().description, family.description, title, body, "\(date.iso)T\(10 + index % 8):00"]
}
try database.writer.write { db in
    let insert = try db.makeStatement(sql: """
        INSERT INTO entries (id, familyId, title, body, localDateTime, timeZone, createdAt, modifiedAt)
        VALUES (?, ?, ?, ?, ?, 'Asia/Seoul', '2026-11-22 00:00:00.000', '2026-11-22 00:00:00.000')
        """)
    for row in rows { try insert.execute(arguments: row) }
}
let indexed = Date()
let counts = try await SQLiteSearchStore(database).reindex()
let reindexSeconds = Date().timeIntervalSince(indexed)
let sizes = try database.writer.read { db in
    (try Int.fetchOne(db, sql: "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'searchIndex%'") ?? 0,
     try Int.fetchOne(db, sql: "SELECT sum(pgsize) FROM dbstat WHERE name = 'entries'") ?? 0)
}
print("""
    {"work":"reindex","entries":\(counts.entries),"seconds":\(reindexSeconds),"seedSeconds":\(indexed.timeIntervalSince(seeded)),\
    "indexBytes":\(sizes.0),"entriesBytes":\(sizes.1)}
    """)

func percentile(_ samples: [Double], _ p: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int(p / 100 * Double(sorted.count)))]
}

func time(_ body: () async throws -> Int) async rethrows -> (Double, Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try await body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, result)
}

let store = SQLiteSearchStore(database)
let queries = ["아기", "할머니", "백일", "예방접종", "돌", "첫", "어린이집 케이크", "beach", "disney 영화", "없는말"]
var allSearch: [Double] = []
var allScan: [Double] = []
for text in queries {
    let query = try SearchQuery(text)
    var search: [Double] = []
    var scan: [Double] = []
    var hits = 0
    var scanHits = 0
    for _ in 0..<repetitions {
        let (seconds, count) = try await time {
            try await store.search(family: family, query, after: nil, limit: 20).items.count
        }
        search.append(seconds)
        hits = count
        // The plain way: every term as a substring of title, body or place. Like the index, the scan must find every
        // match before it can rank them (or say how many there are).
        let (scanSeconds, scanCount) = try await time {
            try await database.writer.read { db in
                let terms = text.split(separator: " ").map { "%\($0)%" }
                let condition = terms.map { _ in "(title LIKE ? OR body LIKE ? OR placeName LIKE ?)" }.joined(separator: " AND ")
                return try String.fetchAll(
                    db,
                    sql: "SELECT id FROM entries WHERE familyId = ? AND \(condition)",
                    arguments: StatementArguments([family.description] + terms.flatMap { [$0, $0, $0] })
                ).count
            }
        }
        scan.append(scanSeconds)
        scanHits = scanCount
    }
    allSearch += search
    allScan += scan
    print("""
        {"work":"query","query":"\(text)","hits":\(hits),"scanHits":\(scanHits),"p50":\(percentile(search, 50)),\
        "p99":\(percentile(search, 99)),"scanP50":\(percentile(scan, 50)),"scanP99":\(percentile(scan, 99))}
        """)
}
print("""
    {"work":"all queries","p50":\(percentile(allSearch, 50)),"p99":\(percentile(allSearch, 99)),\
    "scanP50":\(percentile(allScan, 50)),"scanP99":\(percentile(allScan, 99))}
    """)
