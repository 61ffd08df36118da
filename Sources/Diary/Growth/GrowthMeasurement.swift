import Foundation
import KoreanCalendar

/// One measurement of a child's growth, with an explicit unit.
public struct GrowthMeasurement: Hashable, Sendable {
    public let id: MeasurementID
    public let childID: ChildID
    public let kind: Kind
    public let value: Double
    public let unit: Unit
    public let date: SolarDate

    public enum Kind: String, CaseIterable, Sendable, Codable {
        /// 키 (length lying down before 2 years)
        case height
        /// 몸무게
        case weight
        /// 머리둘레
        case head
    }

    public enum Unit: String, CaseIterable, Sendable, Codable {
        case centimetres = "cm"
        case kilograms = "kg"

        /// Far above any person, far below what a chart's arithmetic cannot hold (a 10³⁰⁰ kg child trapped it).
        public var largestPlausible: Double {
            switch self {
            case .centimetres: 300
            case .kilograms: 500
            }
        }
    }

    /// `plausible: false` only for what is already stored: a value saved before the bound existed still reads.
    public init(
        id: MeasurementID = MeasurementID(), childID: ChildID, kind: Kind, value: Double, unit: Unit, date: SolarDate, plausible: Bool = true
    ) throws(ValidationError) {
        let expected: Unit = kind == .weight ? .kilograms : .centimetres
        guard unit == expected else {
            throw ValidationError(field: "unit", "\(kind.rawValue) is measured in \(expected.rawValue) (got \(unit.rawValue))")
        }
        guard value.isFinite, value > 0 else { throw ValidationError(field: "value", .notPositive) }
        guard !plausible || value <= unit.largestPlausible else {
            throw ValidationError(
                field: "value", .implausible(value: value, unit: unit.rawValue, kind: kind.rawValue, maximum: Int(unit.largestPlausible)))
        }
        self.id = id
        self.childID = childID
        self.kind = kind
        self.value = value
        self.unit = unit
        self.date = date
    }
}
