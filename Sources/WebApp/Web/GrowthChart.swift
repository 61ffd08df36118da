import Diary
import Foundation
import Hummingbird
import KoreanCalendar
import Persistence
import Services

/// `/children/{id}/growth.svg?kind=weight|height|head`: the WHO 3rd/15th/50th/85th/97th percentile curves for the
/// child's sex from birth to the child's age (at least two years, at most five), and the child's measurements.
struct GrowthChart {
    let store: any GrowthStore
    let children: any ChildStore

    /// z of the 3rd, 15th, 50th, 85th and 97th percentiles.
    static let curves: [(label: String, z: Double)] = [
        ("3", -1.880794), ("15", -1.036433), ("50", 0), ("85", 1.036433), ("97", 1.880794),
    ]

    func register(on pages: SecureRoutes) {
        pages.get("children/:id/growth.svg", .viewer, statements: 13) { [store, children] request, context in
            let family = try context.member().familyID
            let child = try await children.get(family: family, id: try context.id(of: "child"))
            let kindName = request.uri.queryParameters["kind"].map(String.init) ?? "weight"
            guard let kind = GrowthMeasurement.Kind(rawValue: kindName) else {
                throw Problem(status: .badRequest, detail: "kind: '\(kindName)' is not height, weight or head", field: "kind")
            }
            let measurements = try await store.measurements(family: family, child: child.id).filter { $0.kind == kind }
            let svg = Self.svg(child: child, kind: kind, measurements: measurements, language: Language(request))
            return Response(
                status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: svg)))
        }
    }

    static func svg(child: Child, kind: GrowthMeasurement.Kind, measurements: [GrowthMeasurement], language: Language) -> String {
        let birth = child.profile.birthDate.solarDate
        let points: [(day: Int, value: Double)] = measurements.compactMap { measurement in
            guard let birth else { return nil }
            let day = measurement.date.julianDayNumber - birth.julianDayNumber
            return (0...WHOGrowthStandard.lastDay).contains(day) ? (day, measurement.value) : nil
        }
        let lastDay = min(WHOGrowthStandard.lastDay, max(730, (points.map(\.day).max() ?? 0) + 90))
        let indicator = WHOGrowthStandard.Indicator(kind)
        let sex = child.profile.sex ?? .female
        let days = Array(stride(from: 0, through: lastDay, by: 7)) + [lastDay]
        let curves = Self.curves.map { curve in
            (curve.label, days.compactMap { day in
                WHOGrowthStandard.lms(indicator, sex: sex, ageInDays: day).map { (day, $0.value(atZ: curve.z)) }
            })
        }
        let values = curves.flatMap { $0.1.map(\.1) } + points.map(\.value)
        let low = (values.min() ?? 0) * 0.95, high = (values.max() ?? 1) * 1.02
        let (width, height, left, bottom, top, right) = (640.0, 400.0, 48.0, 36.0, 28.0, 28.0)
        func x(_ day: Int) -> Double { left + Double(day) / Double(lastDay) * (width - left - right) }
        func y(_ value: Double) -> Double { height - bottom - (value - low) / (high - low) * (height - bottom - top) }
        // Values saved before measurements were bounded may be huge: never an Int conversion that can trap.
        func f(_ number: Double) -> String {
            guard let tenths = Int(exactly: (number * 10).rounded()) else { return "0" }
            return String(tenths).withDecimal
        }

        let unit = kind == .weight ? "kg" : "cm"
        let title: String = {
            let what: String
            switch (kind, language) {
            case (.weight, .korean): what = "몸무게"
            case (.height, .korean): what = "키"
            case (.head, .korean): what = "머리둘레"
            case (.weight, .english): what = "Weight"
            case (.height, .english): what = "Length/height"
            case (.head, .english): what = "Head circumference"
            }
            let standard = language == .korean ? "WHO 성장기준 백분위수" : "WHO growth standard percentiles"
            return "\(child.profile.name) · \(what) (\(unit)) · \(standard)"
        }()
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            aria-label="\(HTML.escape(title))" font-family="sans-serif" font-size="11">
            <title>\(HTML.escape(title))</title>
            <rect width="\(Int(width))" height="\(Int(height))" fill="#fff"/>
            <text x="\(Int(left))" y="18" font-size="13">\(HTML.escape(title))</text>

            """
        for month in stride(from: 0, through: lastDay / 30, by: lastDay > 1100 ? 12 : 6) {
            let day = Int((Double(month) * 30.4375).rounded())
            svg += "<line x1=\"\(f(x(day)))\" y1=\"\(f(top))\" x2=\"\(f(x(day)))\" y2=\"\(f(height - bottom))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(f(x(day)))\" y=\"\(f(height - bottom + 14))\" text-anchor=\"middle\">\(month)\(language == .korean ? "개월" : "m")</text>\n"
        }
        let step = Self.niceStep((high - low) / 6)
        var tick = (low / step).rounded(.up) * step
        while tick <= high {
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(tick)))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(tick.formatted(.number.precision(.fractionLength(0...1))))</text>\n"
            tick += step
        }
        for (label, curve) in curves {
            let path = curve.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
            let colour = label == "50" ? "#2e7d32" : "#90a4ae"
            svg += "<polyline class=\"percentile\" data-percentile=\"\(label)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(label == "50" ? 2 : 1)\" points=\"\(path)\"/>"
            if let last = curve.last {
                svg += "<text x=\"\(f(x(last.0) + 3))\" y=\"\(f(y(last.1) + 4))\" fill=\"\(colour)\">\(label)</text>\n"
            }
        }
        for point in points {
            svg += "<circle class=\"measurement\" cx=\"\(f(x(point.day)))\" cy=\"\(f(y(point.value)))\" r=\"3.5\" fill=\"#d81b60\"/>\n"
        }
        return svg + "</svg>\n"
    }

    /// 1, 2 or 5 times a power of ten.
    static func niceStep(_ rough: Double) -> Double {
        let power = pow(10, floor(log10(max(rough, 1e-9))))
        let fraction = rough / power
        return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power
    }
}

private extension String {
    /// "1234" (tenths) → "123.4".
    var withDecimal: String {
        let negative = hasPrefix("-")
        var digits = negative ? String(dropFirst()) : self
        while digits.count < 2 { digits = "0" + digits }
        return (negative ? "-" : "") + digits.dropLast() + "." + digits.suffix(1)
    }
}
