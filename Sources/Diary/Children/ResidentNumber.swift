/// 주민등록번호, the resident registration number: `YYMMDD-NNNNNNN`.
///
/// Sensitive: the store keeps it encrypted, interfaces show `masked`, and its `description` is the masked form
/// so that string interpolation into a log line can never leak it.
public struct ResidentNumber: Hashable, Sendable, CustomStringConvertible {
    /// The 13 digits without the hyphen.
    public let digits: String

    public init(_ text: String) throws(ValidationError) {
        let compact = text.filter { $0 != "-" }
        guard compact.count == 13, compact.allSatisfy({ $0.isASCII && $0.isNumber }),
            text.count == 13 || (text.count == 14 && text.split(separator: "-").map(\.count) == [6, 7])
        else {
            throw ValidationError(field: "residentNumber", .residentNumberForm)
        }
        digits = compact
    }

    /// `YYMMDD-NNNNNNN`, for the owner who asks to reveal it and for encryption.
    public var formatted: String { "\(digits.prefix(6))-\(digits.dropFirst(6))" }

    /// `YYMMDD-N******`: birth date and the sex digit only.
    public var masked: String { "\(digits.prefix(6))-\(digits.dropFirst(6).prefix(1))******" }

    public var description: String { masked }
}
