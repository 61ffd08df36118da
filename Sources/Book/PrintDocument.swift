import CPrintShims
import Foundation

/// A PDF being written with Cairo, and text laid out with Pango for it: the one place that calls the print shim.
/// Units are points (1/72 inch), y downwards from the page's top. Not for use from two tasks at once.
final class PrintDocument {
    fileprivate let pointer: OpaquePointer
    private var closed = false

    init(path: String, width: Double, height: Double) throws(BookError) {
        pointer = saessak_print_open(path, width, height)
        if let error = saessak_print_error(pointer) {
            let message = String(cString: error)
            _ = saessak_print_close(pointer)
            closed = true
            throw .output("cannot write \(path): \(message)")
        }
    }

    deinit { if !closed { _ = saessak_print_close(pointer) } }

    func metadata(title: String, author: String?, creator: String) {
        saessak_print_metadata(pointer, title, author, creator)
    }

    /// A bookmark to the current page (`parent` 0: the top level); its id, for bookmarks under it.
    @discardableResult
    func outline(_ name: String, parent: Int32 = 0) -> Int32 { saessak_print_outline(pointer, parent, name) }

    func nextPage() { saessak_print_next_page(pointer) }

    func close() throws(BookError) {
        closed = true
        guard saessak_print_close(pointer) == 0 else { throw .output("the PDF could not be finished") }
    }

    func check() throws(BookError) {
        if let error = saessak_print_error(pointer) { throw .output(String(cString: error)) }
    }

    func fill(_ rect: Rect, _ colour: Colour) {
        saessak_print_rectangle(pointer, rect.x, rect.y, rect.width, rect.height, colour.red, colour.green, colour.blue)
    }

    func polyline(_ points: [(x: Double, y: Double)], width: Double, _ colour: Colour, dashed: Bool = false) {
        guard points.count >= 2, let count = Int32(exactly: points.count) else { return }
        let flat = points.flatMap { [$0.x, $0.y] }
        flat.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            saessak_print_polyline(pointer, base, count, width, colour.red, colour.green, colour.blue, dashed ? 1 : 0)
        }
    }

    /// A JPEG of `pixels` placed into `rect`, its bytes kept as they are.
    func jpeg(_ data: Data, pixels: (width: Int, height: Int), in rect: Rect) throws(BookError) {
        guard let width = Int32(exactly: pixels.width), let height = Int32(exactly: pixels.height) else {
            throw .output("an image of \(pixels.width)×\(pixels.height) pixels is too large to place")
        }
        let status = data.withUnsafeBytes { bytes in
            saessak_print_jpeg(pointer, bytes.baseAddress, bytes.count, width, height, rect.x, rect.y, rect.width, rect.height)
        }
        guard status == 0 else { throw .output("an image could not be placed (\(pixels.width)×\(pixels.height))") }
    }

    /// Pango markup laid out `width` wide; nil when the markup does not parse (a bug of ours: it is made escaped).
    func text(_ markup: String, font: Font, width: Double, align: Alignment = .left) -> Text? {
        guard let text = saessak_text_new(pointer, markup, font.description, width, align.rawValue, font.lineSpacing) else { return nil }
        return Text(text, document: self)
    }

    /// Text laid out for this document: lines that can be drawn a run at a time, a paragraph split across pages.
    final class Text {
        fileprivate let pointer: OpaquePointer
        private unowned let document: PrintDocument

        fileprivate init(_ pointer: OpaquePointer, document: PrintDocument) {
            self.pointer = pointer
            self.document = document
        }

        deinit { saessak_text_free(pointer) }

        var lineCount: Int { Int(saessak_text_line_count(pointer)) }
        var height: Double { saessak_text_height(pointer) }
        var width: Double { saessak_text_width(pointer) }
        var unknownGlyphs: Int { Int(saessak_text_unknown_glyphs(pointer)) }

        func top(ofLine line: Int) -> Double { Int32(exactly: line).map { saessak_text_line_top(pointer, $0) } ?? 0 }
        func bottom(ofLine line: Int) -> Double { Int32(exactly: line).map { saessak_text_line_bottom(pointer, $0) } ?? 0 }

        /// The height of lines `lines` together.
        func height(of lines: Range<Int>) -> Double {
            lines.isEmpty ? 0 : bottom(ofLine: lines.upperBound - 1) - top(ofLine: lines.lowerBound)
        }

        /// Draws `lines` with the first one's top at (x, y).
        func draw(_ lines: Range<Int>, x: Double, y: Double, _ colour: Colour) {
            guard let first = Int32(exactly: lines.lowerBound), let end = Int32(exactly: lines.upperBound) else { return }
            saessak_text_draw(document.pointer, pointer, first, end, x, y, colour.red, colour.green, colour.blue)
        }

        func draw(x: Double, y: Double, _ colour: Colour) { draw(0..<lineCount, x: x, y: y, colour) }
    }

    enum Alignment: Int32 {
        case left = 0, centre, right, justified
    }
}

/// A rectangle on the page, in points.
struct Rect: Equatable {
    var x, y, width, height: Double

    var maxX: Double { x + width }
    var maxY: Double { y + height }
}

/// An RGB colour (0…1 each).
struct Colour {
    let red, green, blue: Double

    static let ink = Colour(red: 0.13, green: 0.13, blue: 0.13)
    static let grey = Colour(red: 0.42, green: 0.42, blue: 0.42)
    static let rule = Colour(red: 0.80, green: 0.80, blue: 0.80)
    static let accent = Colour(red: 0.18, green: 0.49, blue: 0.20)
    static let paper = Colour(red: 1, green: 1, blue: 1)
    static let tint = Colour(red: 0.95, green: 0.97, blue: 0.93)
    static let measurement = Colour(red: 0.85, green: 0.11, blue: 0.38)
}

/// A Pango font description and the line height it is set with.
struct Font {
    let description: String
    let lineSpacing: Double
}
