import Diary
import Foundation

/// A measurement as the API shows it and the health page lists it: with the child's age on the day and, against
/// the WHO 2006 standards, its z-score and percentile.
public struct MeasurementResource: Encodable, Sendable {
    public let id: MeasurementID
    public let kind: GrowthMeasurement.Kind
    public let value: Double
    public let unit: GrowthMeasurement.Unit
    public let date: String
    /// Age on the day, in days (nil before birth or without a solar birth date).
    public let ageInDays: Int?
    /// Against the WHO 2006 standards, for 0–1856 days and a known sex; absent otherwise.
    public let zScore: Double?
    public let percentile: Double?

    /// Each of a child's measurements, assessed.
    public static func list(_ measurements: [GrowthMeasurement], child: Child) -> [MeasurementResource] {
        let birth = child.profile.birthDate.solarDate
        return measurements.map { measurement in
            let age = birth.map { measurement.date.julianDayNumber - $0.julianDayNumber }.flatMap { $0 >= 0 ? $0 : nil }
            let assessment = age.flatMap { age in
                child.profile.sex.flatMap { sex in
                    WHOGrowthStandard.assess(.init(measurement.kind), sex: sex, ageInDays: age, value: measurement.value)
                }
            }
            return MeasurementResource(
                id: measurement.id, kind: measurement.kind, value: measurement.value, unit: measurement.unit,
                date: measurement.date.iso, ageInDays: age, zScore: assessment?.zScore, percentile: assessment?.percentile)
        }
    }
}
