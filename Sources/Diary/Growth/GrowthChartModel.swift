import Foundation
import KoreanCalendar

/// What a growth chart shows, whatever draws it (the web page's SVG, the printed book): the WHO 3rd/15th/50th/85th/97th
/// percentile curves for the child's sex from birth to the child's age (at least two years, at most five), the
/// child's measurements of one kind by day of life, and the value range and ticks around them.
public struct GrowthChartModel: Sendable {
    /// z of the 3rd, 15th, 50th, 85th and 97th percentiles.
    public static let percentiles: [(label: String, z: Double)] = [
        ("3", -1.880794), ("15", -1.036433), ("50", 0), ("85", 1.036433), ("97", 1.880794),
    ]

    public let kind: GrowthMeasurement.Kind
    /// The last day of life on the chart.
    public let lastDay: Int
    public let curves: [(label: String, points: [(day: Int, value: Double)])]
    /// The child's measurements in date order.
    public let points: [(day: Int, value: Double)]
    public let low: Double
    public let high: Double

    public init(child: Child, kind: GrowthMeasurement.Kind, measurements: [GrowthMeasurement]) {
        self.kind = kind
        let birth = child.profile.birthDate.solarDate
        points = measurements.filter { $0.kind == kind }.sorted { $0.date < $1.date }.compactMap { measurement in
            guard let birth else { return nil }
            let day = measurement.date.julianDayNumber - birth.julianDayNumber
            return (0...WHOGrowthStandard.lastDay).contains(day) ? (day, measurement.value) : nil
        }
        let lastDay = min(WHOGrowthStandard.lastDay, max(730, (points.map(\.day).max() ?? 0) + 90))
        self.lastDay = lastDay
        let indicator = WHOGrowthStandard.Indicator(kind)
        let sex = child.profile.sex ?? .female
        let days = Array(stride(from: 0, through: lastDay, by: 7)) + [lastDay]
        curves = Self.percentiles.map { curve in
            (curve.label, days.compactMap { day in
                WHOGrowthStandard.lms(indicator, sex: sex, ageInDays: day).map { (day, $0.value(atZ: curve.z)) }
            })
        }
        let values = curves.flatMap { $0.points.map(\.value) } + points.map(\.value)
        low = (values.min() ?? 0) * 0.95
        high = (values.max() ?? 1) * 1.02
    }

    /// The values to label on the value axis: about six, at 1, 2 or 5 times a power of ten.
    public var valueTicks: [Double] {
        let step = Self.niceStep((high - low) / 6)
        guard step > 0, step.isFinite, (high - low) / step < 100 else { return [] }
        return Array(stride(from: (low / step).rounded(.up) * step, through: high, by: step))
    }

    /// The ages to label on the time axis, in months: every 6 months up to three years, then every 12.
    public var monthTicks: [(month: Int, day: Int)] {
        stride(from: 0, through: lastDay / 30, by: lastDay > 1100 ? 12 : 6).map { ($0, Int((Double($0) * 30.4375).rounded())) }
    }

    /// The unit the kind is measured in.
    public var unit: String { kind == .weight ? "kg" : "cm" }

    /// 1, 2 or 5 times a power of ten.
    public static func niceStep(_ rough: Double) -> Double {
        let power = pow(10, floor(log10(max(rough, 1e-9))))
        let fraction = rough / power
        return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power
    }
}
