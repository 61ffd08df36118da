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
    }

    public init(id: MeasurementID = MeasurementID(), childID: ChildID, kind: Kind, value: Double, unit: Unit, date: SolarDate)
        throws(ValidationError)
    {
        let expected: Unit = kind == .weight ? .kilograms : .centimetres
        guard unit == expected else {
            throw ValidationError(field: "unit", "\(kind.rawValue) is measured in \(expected.rawValue) (got \(unit.rawValue))")
        }
        guard value.isFinite, value > 0 else { throw ValidationError(field: "value", "must be a positive number") }
        self.id = id
        self.childID = childID
        self.kind = kind
        self.value = value
        self.unit = unit
        self.date = date
    }
}
