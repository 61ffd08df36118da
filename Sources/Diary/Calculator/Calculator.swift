import Foundation

/// A pocket calculator: digits, decimal point, + − × ÷, C and =, with exact decimal arithmetic (0.1 + 0.2 = 0.3).
///
/// Like a pocket calculator it works left to right without precedence (2 + 3 × 4 = 20); pressing an operator again
/// before the second number replaces it; pressing = again repeats the last operation (2 + 3 = 5, = 8, = 11).
/// Division by zero and results too long for the display put it in an error state that only C leaves.
/// The state is a plain value, so a stateless API can hand it back and forth.
public struct Calculator: Hashable, Sendable, Codable {
    public enum Key: Hashable, Sendable {
        case digit(Int)
        case point
        case operation(Operation)
        case equals
        case clear

        /// Reads `0`–`9`, `.`, `+`, `-`/`−`, `*`/`×`, `/`/`÷`, `=`, `C`.
        public init?(_ text: String) {
            switch text {
            case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9": self = .digit(Int(text)!)
            case ".": self = .point
            case "+": self = .operation(.add)
            case "-", "−": self = .operation(.subtract)
            case "*", "×": self = .operation(.multiply)
            case "/", "÷": self = .operation(.divide)
            case "=": self = .equals
            case "C", "c": self = .clear
            default: return nil
            }
        }
    }

    public enum Operation: String, Hashable, Sendable, Codable {
        case add = "+", subtract = "−", multiply = "×", divide = "÷"

        func apply(_ left: Decimal, _ right: Decimal) -> Decimal? {
            switch self {
            case .add: left + right
            case .subtract: left - right
            case .multiply: left * right
            case .divide: right.isZero ? nil : left / right
            }
        }
    }

    /// Digits the display shows; longer results are rounded, a longer integer part is an error.
    public static let displayDigits = 12

    /// The number being typed, or the last result, as shown.
    public private(set) var display = "0"
    /// The left operand waiting for `pending`.
    private var accumulator: Decimal?
    private var pending: Operation?
    /// What = repeats.
    private var repeatOperation: Operation?
    private var repeatOperand: Decimal?
    /// Whether digits append to the display (true) or start a new number (false).
    private var typing = false
    public private(set) var isError = false

    public init() {}

    public mutating func press(_ key: Key) {
        if isError && key != .clear { return }
        switch key {
        case .clear:
            self = Calculator()
        case .digit(let digit):
            if !typing {
                display = "0"
                typing = true
                if pending == nil { accumulator = nil }
            }
            let digits = display.filter(\.isNumber).count
            guard digits < Self.displayDigits || display == "0" else { return }
            display = display == "0" ? String(digit) : display + String(digit)
        case .point:
            if !typing {
                display = "0"
                typing = true
                if pending == nil { accumulator = nil }
            }
            if !display.contains(".") { display += "." }
        case .operation(let operation):
            if typing, let pending, let left = accumulator {
                guard let result = finish(pending.apply(left, value)) else { return }
                accumulator = result
            } else if typing || accumulator == nil {
                accumulator = value
            }
            pending = operation
            typing = false
        case .equals:
            if let pending {
                // "2 + =" takes the display as the second operand too: 4, as a pocket calculator does.
                let left = accumulator ?? value
                let right = value
                guard let result = finish(pending.apply(left, right)) else { return }
                repeatOperation = pending
                repeatOperand = right
                accumulator = result
                self.pending = nil
            } else if let operation = repeatOperation, let operand = repeatOperand {
                guard let result = finish(operation.apply(value, operand)) else { return }
                accumulator = result
            }
            typing = false
        }
    }

    /// Presses each key of a string like "12+3=" in turn; false if one was not a key.
    @discardableResult
    public mutating func press(keys: String) -> Bool {
        for character in keys where !character.isWhitespace {
            guard let key = Key(String(character)) else { return false }
            press(key)
        }
        return true
    }

    /// The number on the display.
    var value: Decimal { Decimal(string: display, locale: Locale(identifier: "en_US_POSIX")) ?? 0 }

    /// Shows a result, or enters the error state (division by zero, too long for the display).
    private mutating func finish(_ result: Decimal?) -> Decimal? {
        guard let result, let shown = Self.format(result) else {
            isError = true
            display = "Error"
            return nil
        }
        display = shown
        return Decimal(string: shown, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The display text of a number: at most `displayDigits` significant digits, rounded; nil when the integer part
    /// alone is longer.
    static func format(_ number: Decimal) -> String? {
        if number.isZero { return "0" }
        let magnitude = number.magnitude
        let integerDigits = magnitude >= 1 ? String(describing: NSDecimalNumber(decimal: magnitude).int64Value).count : 1
        guard magnitude < Decimal(string: "1" + String(repeating: "0", count: displayDigits))! else { return nil }
        var rounded = Decimal()
        var source = number
        NSDecimalRound(&rounded, &source, max(0, displayDigits - integerDigits), .plain)
        var text = NSDecimalNumber(decimal: rounded).description(withLocale: Locale(identifier: "en_US_POSIX"))
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
