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
        let chart = GrowthChartModel(child: child, kind: kind, measurements: measurements)
        let (lastDay, curves, points, low, high) = (chart.lastDay, chart.curves, chart.points, chart.low, chart.high)
        let (width, height, left, bottom, top, right) = (640.0, 400.0, 48.0, 36.0, 28.0, 28.0)
        func x(_ day: Int) -> Double { left + Double(day) / Double(lastDay) * (width - left - right) }
        func y(_ value: Double) -> Double { height - bottom - (value - low) / (high - low) * (height - bottom - top) }
        // Values saved before measurements were bounded may be huge: never an Int conversion that can trap.
        func f(_ number: Double) -> String {
            guard let tenths = Int(exactly: (number * 10).rounded()) else { return "0" }
            return String(tenths).withDecimal
        }

        let title = language.growthChartTitle(child: child.profile.name, chart: chart)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            aria-label="\(HTML.escape(title))" font-family="sans-serif" font-size="11">
            <title>\(HTML.escape(title))</title>
            <rect width="\(Int(width))" height="\(Int(height))" fill="#fff"/>
            <text x="\(Int(left))" y="18" font-size="13">\(HTML.escape(title))</text>

            """
        for (month, day) in chart.monthTicks {
            svg += "<line x1=\"\(f(x(day)))\" y1=\"\(f(top))\" x2=\"\(f(x(day)))\" y2=\"\(f(height - bottom))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(f(x(day)))\" y=\"\(f(height - bottom + 14))\" text-anchor=\"middle\">\(month)\(language == .korean ? "개월" : "m")</text>\n"
        }
        for tick in chart.valueTicks {
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(tick)))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(tick.formatted(.number.precision(.fractionLength(0...1))))</text>\n"
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
