/// The page sizes print shops take for photo books, and the bleed they ask for.
public enum PageSize: String, CaseIterable, Sendable {
    /// 148 × 210 mm.
    case a5
    /// 210 × 297 mm.
    case a4
    /// 210 × 210 mm, the square photo book.
    case square

    /// The trimmed page in millimetres.
    public var millimetres: (width: Double, height: Double) {
        switch self {
        case .a5: (148, 210)
        case .a4: (210, 297)
        case .square: (210, 210)
        }
    }

    /// What a shop cuts off around the trimmed page when asked for bleed: 3 mm each side.
    public static let bleedMillimetres = 3.0

    static func points(_ millimetres: Double) -> Double { millimetres / 25.4 * 72 }
}

/// The page as drawn: its full size with any bleed, where the trimmed page lies on it, and the text block inside.
struct PageGeometry {
    let width: Double
    let height: Double
    /// The trimmed page.
    let trim: Rect
    /// Where text and photos go: the trimmed page less its margins.
    let content: Rect

    init(size: PageSize, bleed: Bool) {
        let (width, height) = size.millimetres
        let extra = bleed ? PageSize.points(PageSize.bleedMillimetres) : 0
        trim = Rect(x: extra, y: extra, width: PageSize.points(width), height: PageSize.points(height))
        self.width = trim.width + 2 * extra
        self.height = trim.height + 2 * extra
        // Margins of about a ninth of the short side: 16 mm on A5, 20 mm on A4 and the square book; the inner one
        // would differ in a bound book, but a shop's binding varies and both sides of a spread stay alike.
        let margin = PageSize.points(min(width, height) >= 200 ? 20 : 16)
        let footer = PageSize.points(8)
        content = Rect(x: trim.x + margin, y: trim.y + margin, width: trim.width - 2 * margin, height: trim.height - 2 * margin - footer)
    }

    /// The page number's line, below the text block.
    var footerY: Double { content.maxY + PageSize.points(4) }
}
