import Foundation

/// The WHO 2006 Child Growth Standards for 0–5 years: z-scores and percentiles of a measurement by sex and age in
/// days, by the LMS method, with WHO's restricted adjustment beyond ±3 SD (igrowup).
public enum WHOGrowthStandard {
    /// What the standard covers: weight-for-age, length/height-for-age (lying before 731 days, standing after, as
    /// WHO's table does), head circumference-for-age.
    public enum Indicator: String, CaseIterable, Sendable {
        case weight, height, head

        public init(_ kind: GrowthMeasurement.Kind) {
            switch kind {
            case .weight: self = .weight
            case .height: self = .height
            case .head: self = .head
            }
        }
    }

    /// Box–Cox power, median and coefficient of variation for one day of age.
    public struct LMS: Hashable, Sendable {
        public let l: Double
        public let m: Double
        public let s: Double

        /// The value at `z` standard deviations.
        public func value(atZ z: Double) -> Double {
            abs(l) < 1e-10 ? m * exp(s * z) : m * pow(1 + l * s * z, 1 / l)
        }

        /// The z-score of a value; beyond ±3 the distance is measured in the 2–3 SD interval (WHO's adjustment).
        public func zScore(_ value: Double) -> Double {
            let z = abs(l) < 1e-10 ? log(value / m) / s : (pow(value / m, l) - 1) / (l * s)
            if z > 3 {
                let sd3 = self.value(atZ: 3)
                return 3 + (value - sd3) / (sd3 - self.value(atZ: 2))
            }
            if z < -3 {
                let sd3 = self.value(atZ: -3)
                return -3 + (value - sd3) / (self.value(atZ: -2) - sd3)
            }
            return z
        }
    }

    /// The last day of age the tables cover (5 years and a month).
    public static let lastDay = 1856

    /// The LMS values for a sex and an age in days, or nil outside 0…`lastDay`.
    public static func lms(_ indicator: Indicator, sex: Sex, ageInDays: Int) -> LMS? {
        guard (0...lastDay).contains(ageInDays) else { return nil }
        return parsed[indicator]?[sex]?[ageInDays]
    }

    /// z-score and percentile (0–100) of a measurement, or nil for an age the standard does not cover.
    public static func assess(_ indicator: Indicator, sex: Sex, ageInDays: Int, value: Double) -> (zScore: Double, percentile: Double)? {
        guard let lms = lms(indicator, sex: sex, ageInDays: ageInDays), value > 0 else { return nil }
        let z = lms.zScore(value)
        return (z, percentile(z))
    }

    /// The share of the normal distribution below `z`, in percent.
    public static func percentile(_ z: Double) -> Double { 50 * erfc(-z / 2.squareRoot()) }

    private static let parsed: [Indicator: [Sex: [LMS]]] = tables.mapValues { bySex in
        bySex.mapValues { text in
            text.split(separator: "\n").map { line in
                let numbers = line.split(separator: " ").map { Double($0)! }
                return LMS(l: numbers[0], m: numbers[1], s: numbers[2])
            }
        }
    }
}
