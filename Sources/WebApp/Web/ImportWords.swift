import Services

/// The words of the import of photos under 가져오기 (issue 40), Korean first and complete in English; kept apart
/// from `Word`, whose table is long enough. The templates see them in `t`. `%@` stands for what the page puts in.
enum ImportWord: String, CaseIterable, Sendable {
    case import_photos, importPhotosHint, importDays, importDaysHint, importDayCounts, importDayHasEntries
    case importNoChildThatDay, importAddToEntry, importSurveying, importImporting, importWaiting, importUnderWay, importFailed, importRefresh

    var texts: (korean: String, english: String) {
        switch self {
        case .import_photos:
            (
                "사진과 동영상 (여러 장, 사진을 묶은 .zip, Google 포토 테이크아웃 .zip)",
                "Photos and clips (several, a .zip of them, a Google Photos Takeout .zip)"
            )
        case .importPhotosHint:
            (
                "사진은 찍은 날마다 일기 하나가 됩니다. 이미 있는 사진은 다시 들어오지 않습니다.",
                "Photos become one entry a day, by the day they were taken. A photo already in the diary is not brought in again."
            )
        case .importDays: ("날짜별로 만들 일기", "Entries to make, a day each")
        case .importDaysHint:
            (
                "날마다 누구의 이야기인지 고를 수 있습니다. 아무도 고르지 않은 날은 가져오지 않습니다.",
                "Choose whom each day is about. A day with no one chosen is left out."
            )
        case .importDayCounts: ("사진 %@장 · 동영상 %@개", "%@ photos · %@ clips")
        case .importDayHasEntries: ("이날 일기 %@개가 이미 있습니다", "The diary has %@ entries that day")
        case .importNoChildThatDay: ("%@: 고른 아이가 없어 가져오지 않았습니다", "%@: no child chosen, left out")
        case .importAddToEntry: ("새 일기 대신 이날의 일기에 사진 더하기", "Add the photos to that day's entry instead of a new one")
        case .importSurveying: ("파일을 살펴보는 중", "Looking through the files")
        case .importImporting: ("사진을 가져오는 중", "Bringing the photos in")
        case .importWaiting: ("곧 시작합니다", "Starting in a moment")
        case .importUnderWay:
            (
                "가져오는 중입니다. 이 페이지를 닫아도 계속되고, 서버가 다시 시작되어도 이어서 합니다.",
                "The import is under way. It goes on if you close this page, and carries on if the server restarts."
            )
        case .importFailed: ("가져오지 못했습니다", "The import failed")
        case .importRefresh: ("새로 고침", "Refresh")
        }
    }

    func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }

    /// The text with `%@` replaced by the arguments in order.
    func text(_ language: Language, _ arguments: String...) -> String { Language.filling(text(language), arguments) }
}
