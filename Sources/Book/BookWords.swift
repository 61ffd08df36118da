import KoreanCalendar
import Services

/// The book's own words, Korean first and complete in English.
struct BookWords {
    let language: Language

    var contents: String { language == .korean ? "차례" : "Contents" }

    var formerMember: String { language == .korean ? "예전 가족" : "A former member" }

    var growth: String { language == .korean ? "성장 기록" : "Growth" }

    var photoMissing: String { language == .korean ? "사진 원본을 읽을 수 없습니다" : "The original of this photo could not be read" }

    func counts(entries: Int, photos: Int) -> String {
        language == .korean
            ? "일기 \(entries.grouped)편 · 사진 \(photos.grouped)장"
            : (entries == 1 ? "1 entry" : "\(entries.grouped) entries") + " · " + (photos == 1 ? "1 photo" : "\(photos.grouped) photos")
    }

    func milestone(_ milestone: Milestone) -> String { language == .korean ? milestone.koreanName : milestone.englishName }
}

extension Int {
    /// 2,000 (digits grouped by thousands, as both languages write them).
    var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (self < 0 ? "-" : "") + result
    }
}

/// Text as Pango markup, which is XML: HTML's escapes, and no control characters but tab and newline (XML has no
/// others, and they draw nothing).
func escape(_ text: String) -> String {
    let allowed = text.unicodeScalars.filter { scalar in
        scalar == "\n" || scalar == "\t" || !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF)
    }
    return HTML.escape(String(String.UnicodeScalarView(allowed)))
}

/// Escaped text whose Hangul words are each kept on one line: a line breaks between 어절, never inside one, as Korean
/// is set (a run longer than a third of a line may still break, so that nothing overflows).
func keepingWords(_ text: String) -> String {
    var result = ""
    var word = ""
    func flush() {
        guard !word.isEmpty else { return }
        if word.contains(where: \.isHangul), word.count <= 12 {
            result += "<span allow_breaks=\"false\">" + escape(word) + "</span>"
        } else {
            result += escape(word)
        }
        word = ""
    }
    for character in text {
        if character == " " || character == "\n" || character == "\t" {
            flush()
            result += escape(String(character))
        } else {
            word.append(character)
        }
    }
    flush()
    return result
}

/// Inline Markdown as Pango markup.
func markup(_ inlines: [LightMarkdown.Inline]) -> String {
    inlines.map { inline in
        switch inline {
        case .text(let text): keepingWords(text)
        case .strong(let inner): "<b>" + markup(inner) + "</b>"
        case .emphasis(let inner): "<i>" + markup(inner) + "</i>"
        }
    }.joined()
}

/// The archive's words (its pages are read in a browser, years from now, without Saessak).
extension BookWords {
    var htmlLanguage: String { language == .korean ? "ko" : "en" }
    var previousMonth: String { language == .korean ? "이전 달" : "Previous month" }
    var nextMonth: String { language == .korean ? "다음 달" : "Next month" }
    var original: String { language == .korean ? "원본" : "Original" }
    var comments: String { language == .korean ? "댓글" : "Comments" }
    var milestones: String { language == .korean ? "기념일" : "Milestones" }
    var months: String { language == .korean ? "달마다" : "Months" }
    var hearts: String { language == .korean ? "하트" : "Hearts" }
    var clipNotReady: String {
        language == .korean ? "이 영상은 브라우저에서 재생할 사본이 만들어지지 않았습니다. 원본을 받아 보세요." : "No web copy of this clip was made: open the original."
    }

    func photo(_ caption: String) -> String { (language == .korean ? "사진: " : "Photo: ") + caption }
    func clip(_ caption: String) -> String { (language == .korean ? "영상: " : "Clip: ") + caption }
    func entries(_ count: Int) -> String { language == .korean ? "일기 \(count.grouped)편" : count == 1 ? "1 entry" : "\(count.grouped) entries" }
    func madeOn(_ date: String) -> String { language == .korean ? "\(date) 새싹에서 만든 기록입니다." : "Made with Saessak on \(date)." }
}
