import Diary
import Foundation

/// The growth charts at the back of a child's book: the same chart model as the web page's SVG, drawn with Cairo.
extension Typesetter {
    /// The charts the child's measurements fill: height, weight, head circumference.
    var charts: [GrowthChartModel] {
        guard let child = content.child else { return [] }
        return GrowthMeasurement.Kind.allCases.map { GrowthChartModel(child: child, kind: $0, measurements: content.growth) }
            .filter { !$0.points.isEmpty }
    }

    var hasGrowth: Bool { !charts.isEmpty }

    /// The WHO growth charts of the child's height, weight and head, each with the child's measurements, at the back.
    func growthPages() throws {
        let charts = charts
        guard let child = content.child, !charts.isEmpty else { return }
        startPage()
        contents.append((words.growth, pageNumber))
        if drawing { document.outline(words.growth) }
        try place(escape(words.growth), font: fonts.month, colour: .accent, after: fonts.size * 1.2)
        let height = (area.maxY - y) / 3 - fonts.size
        for chart in charts {
            if remaining < height, pageHasContent { newPage() }
            if drawing { try draw(chart, name: child.profile.nickname ?? child.profile.name, in: Rect(x: area.x, y: y, width: area.width, height: height)) }
            y += height + fonts.size
            pageHasContent = true
        }
    }

    private func draw(_ chart: GrowthChartModel, name: String, in box: Rect) throws {
        guard let title = document.text(escape(content.language.growthChartTitle(child: name, chart: chart)), font: fonts.meta, width: box.width)
        else { throw BookError.output("a chart's title could not be laid out") }
        title.draw(x: box.x, y: box.y, .ink)
        let label = fonts.size * 2.6
        let plot = Rect(x: box.x + label, y: box.y + title.height + fonts.size * 0.5, width: box.width - label - fonts.size * 1.5,
                        height: box.height - title.height - fonts.size * 2.2)
        guard plot.width > 0, plot.height > 0, chart.high > chart.low else { return }
        func x(_ day: Int) -> Double { plot.x + Double(day) / Double(max(1, chart.lastDay)) * plot.width }
        func y(_ value: Double) -> Double { plot.maxY - (value - chart.low) / (chart.high - chart.low) * plot.height }
        for (month, day) in chart.monthTicks {
            document.polyline([(x(day), plot.y), (x(day), plot.maxY)], width: 0.3, .rule)
            let text = content.language == .korean ? "\(month)개월" : "\(month) m"
            if let tick = document.text(escape(text), font: fonts.caption, width: fonts.size * 4, align: .centre) {
                tick.draw(x: x(day) - fonts.size * 2, y: plot.maxY + fonts.size * 0.2, .grey)
            }
        }
        for value in chart.valueTicks {
            document.polyline([(plot.x, y(value)), (plot.maxX, y(value))], width: 0.3, .rule)
            let text = value.rounded() == value ? String(Int(exactly: value) ?? 0) : String(format: "%.1f", value)
            if let tick = document.text(text, font: fonts.caption, width: label - fonts.size * 0.4, align: .right) {
                tick.draw(x: box.x, y: y(value) - tick.height / 2, .grey)
            }
        }
        for curve in chart.curves {
            document.polyline(curve.points.map { (x($0.day), y($0.value)) }, width: curve.label == "50" ? 1.0 : 0.5,
                              curve.label == "50" ? .accent : .grey, dashed: curve.label != "50")
            if let last = curve.points.last, let tag = document.text(curve.label, font: fonts.caption, width: fonts.size * 1.5) {
                tag.draw(x: x(last.day) + 2, y: y(last.value) - tag.height / 2, curve.label == "50" ? .accent : .grey)
            }
        }
        let points = chart.points.map { (x($0.day), y($0.value)) }
        document.polyline(points, width: 0.8, .measurement)
        for point in points { document.fill(Rect(x: point.0 - 1.6, y: point.1 - 1.6, width: 3.2, height: 3.2), .measurement) }
    }
}
