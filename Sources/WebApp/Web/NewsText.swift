import Diary
import Foundation
import Hummingbird
import Services

/// "엄마가 일기 2개와 사진 8장을 올렸어요": one author's news, in the reader's language.
enum NewsText {
    static func line(_ news: NewsLine, language: Language) -> String {
        switch language {
        case .korean where news.isAtLeastCounted:
            return "\(news.authorName)\(subjectParticle(news.authorName)) 일기를 \(grouped(NewsLine.counted))개 넘게 올렸어요"
        case .english where news.isAtLeastCounted:
            return "\(news.authorName) added more than \(grouped(NewsLine.counted)) entries"
        case .korean:
            let what = news.photos > 0 ? "일기 \(news.entries)개와 사진 \(news.photos)장을" : "일기 \(news.entries)개를"
            return "\(news.authorName)\(subjectParticle(news.authorName)) \(what) 올렸어요"
        case .english:
            let entries = news.entries == 1 ? "1 entry" : "\(news.entries) entries"
            let photos = news.photos == 0 ? "" : news.photos == 1 ? " with 1 photo" : " with \(news.photos) photos"
            return "\(news.authorName) added \(entries)\(photos)"
        }
    }

    /// `1,000`: digits grouped by thousands, as both languages write them.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        let groups = stride(from: digits.count, to: 0, by: -3).reversed().map { end in
            String(digits[digits.index(digits.startIndex, offsetBy: max(0, end - 3))..<digits.index(digits.startIndex, offsetBy: end)])
        }
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// 이 after a final consonant (할아버지가, 민준이), 가 after a vowel; (이)가 after a name not in Hangul.
    static func subjectParticle(_ name: String) -> String {
        guard let last = name.unicodeScalars.last, (0xAC00...0xD7A3).contains(last.value) else { return "(이)가" }
        return (last.value - 0xAC00) % 28 == 0 ? "가" : "이"
    }
}

/// `POST /news/read` from the home page: everything new has been seen.
struct NewsPages {
    let stores: WebStores

    func register(on pages: SecureRoutes) {
        pages.post("news/read", .member) { _, context in
            try await stores.database.stores.news.markAllRead(family: try context.member().familyID, user: try context.user())
            return AccountPages.redirect("/")
        }
    }
}
