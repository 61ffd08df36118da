import Testing

@testable import Diary

@Suite struct CalculatorTests {
    @Test(arguments: [
        ("2+3=", "5"), ("2+3==", "8"), ("2+3===", "11"),  // = repeats the last operation
        ("0.1+0.2=", "0.3"),  // decimal, not binary, arithmetic
        ("2+3×4=", "20"),  // left to right, as a pocket calculator
        ("2+×3=", "6"),  // a second operator replaces the first
        ("9-12=", "-3"), ("7÷2=", "3.5"), ("1÷3=", "0.33333333333"), ("2×=", "4"), ("10÷4==", "0.625"),
        ("5÷0=", "Error"), ("5÷0=7+1=", "Error"), ("5÷0=C7+1=", "8"),  // errors hold until C
        ("999999999999×10=", "Error"),  // too long for the display: an error, never a silent overflow
        ("1234567890123", "123456789012"),  // input stops at the display's width
        ("3.1.4", "3.14"), (".5+.5=", "1"), ("5=", "5"), ("", "0"), ("12C", "0"),
        ("2+3=4", "4"), ("2+3=4+1=", "5"), ("2+3=+1=", "6"),  // after =, digits start afresh, operators continue
        ("1-1=", "0"), ("0.5×2=", "1"), ("100÷8=", "12.5"),
    ])
    func keySequences(_ keys: String, _ display: String) {
        var calculator = Calculator()
        let accepted = calculator.press(keys: keys)
        #expect(accepted)
        #expect(calculator.display == display)
        #expect(calculator.isError == (display == "Error"))
    }

    @Test func unknownKeysAreRefused() {
        var calculator = Calculator()
        let accepted = calculator.press(keys: "2^3")
        #expect(!accepted)
        #expect(Calculator.Key("x") == nil && Calculator.Key("÷") == .operation(.divide) && Calculator.Key("*") == .operation(.multiply))
    }
}
