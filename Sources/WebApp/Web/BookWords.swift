import Services

/// The books page's words (docs/book.md), Korean first and complete in English.
enum BookWord: String, CaseIterable, Sendable {
    case books, booksIntro, makeBook, bookWho, bookWholeFamily, bookYear, bookFormat, bookFormatPDF, bookFormatHTML, bookSize
    case bookSizeA5, bookSizeA4, bookSizeSquare, bookBleed, bookReactions, bookLanguage, bookMake, bookQueued, bookRunning
    case bookReady, bookFailed, bookDownload, bookKeptUntil, bookNone, bookAsked, bookRefresh, bookFormatHint, bookBusy, bookFull

    var texts: (korean: String, english: String) {
        switch self {
        case .books: ("책과 보관본", "Books and archives")
        case .booksIntro:
            (
                "한 해의 일기를 인쇄소에 맡길 수 있는 PDF 책으로, 또는 어느 브라우저에서나 열리는 HTML 보관본(ZIP)으로 만듭니다. 만들어지는 동안 다른 일을 해도 됩니다. 다 만든 파일은 3일 동안 받을 수 있습니다.",
                "Make a year of the diary into a PDF book a print shop takes, or an HTML archive (a ZIP) that any browser opens. You can do other things while it is made. A made file can be downloaded for three days."
            )
        case .makeBook: ("책 만들기", "Make a book")
        case .bookWho: ("누구의 책", "Whose book")
        case .bookWholeFamily: ("가족 모두", "The whole family")
        case .bookYear: ("연도", "Year")
        case .bookFormat: ("형식", "Format")
        case .bookFormatPDF: ("PDF 책 (인쇄용)", "PDF book (to print)")
        case .bookFormatHTML: ("HTML 보관본 (ZIP)", "HTML archive (ZIP)")
        case .bookFormatHint:
            (
                "PDF는 원본 사진을 300ppi로 넣어 인쇄소에 그대로 맡길 수 있습니다. 보관본은 인터넷 없이 파일만으로 열리는 웹 페이지로, 사진 원본과 영상, 댓글이 함께 들어갑니다.",
                "The PDF places the original photos at 300 ppi, ready for a print shop. The archive is web pages that open from the files alone, with no network, holding the original photos, the clips and the comments."
            )
        case .bookSize: ("판형", "Page size")
        case .bookSizeA5: ("A5 (148 × 210 mm)", "A5 (148 × 210 mm)")
        case .bookSizeA4: ("A4 (210 × 297 mm)", "A4 (210 × 297 mm)")
        case .bookSizeSquare: ("정사각형 (210 × 210 mm)", "Square (210 × 210 mm)")
        case .bookBleed: ("재단 여백 3 mm 더하기 (인쇄소가 요청할 때)", "Add 3 mm bleed (when the print shop asks)")
        case .bookReactions: ("하트와 댓글 넣기", "Include hearts and comments")
        case .bookLanguage: ("책의 언어", "The book's language")
        case .bookMake: ("만들기", "Make it")
        case .bookQueued: ("차례를 기다리는 중", "Waiting its turn")
        case .bookRunning: ("만드는 중 · %@%", "Being made · %@%")
        case .bookReady: ("다 만들었습니다 · %@쪽 · %@", "Made · %@ pages · %@")
        case .bookFailed: ("만들지 못했습니다: %@", "Could not be made: %@")
        case .bookDownload: ("받기", "Download")
        case .bookKeptUntil: ("%@까지 보관", "Kept until %@")
        case .bookNone: ("아직 만든 책이 없습니다.", "No books made yet.")
        case .bookAsked: ("책을 만들기 시작했습니다. 다 되면 이 페이지에서 받을 수 있습니다.", "The book is being made. Download it from this page when it is ready.")
        case .bookRefresh: ("새로 고침", "Refresh")
        case .bookBusy: ("이미 책 %@권을 만들고 있습니다. 하나가 끝난 뒤에 다시 눌러 주세요.", "%@ books are being made already: ask again when one is done.")
        case .bookFull: ("만들어 둔 책이 이미 %@권 있습니다. 하나를 지운 뒤에 다시 눌러 주세요.", "%@ books are made and kept already: delete one, then ask again.")
        }
    }

    func text(_ language: Language) -> String { language == .korean ? texts.korean : texts.english }

    /// The text with `%@` replaced by the arguments in order.
    func text(_ language: Language, _ arguments: String...) -> String { Language.filling(text(language), arguments) }
}
