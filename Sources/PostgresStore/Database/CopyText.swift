import Foundation
import NIOCore
import PostgresNIO

/// Values as `COPY … FROM STDIN`'s text format takes a column, written straight into the buffer a `COPY` sends: a
/// restore writes ten million search tokens and a million rows this way, and a `String` made for each value was a
/// fifth of its time (docs/performance.md).
extension ByteBuffer {
    /// Text with backslash, tab, newline and carriage return escaped (`\\`, `\t`, `\n`, `\r`).
    mutating func writeCopyText(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices {
                let escape: StaticString
                switch bytes[index] {
                case 0x5C: escape = "\\\\"
                case 0x09: escape = "\\t"
                case 0x0A: escape = "\\n"
                case 0x0D: escape = "\\r"
                default: continue
                }
                writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                writeStaticString(escape)
                start = index + 1
            }
            writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
    }

    /// A whole number in decimal.
    mutating func writeCopyInteger(_ number: Int) {
        writeString(String(number))
    }

    /// Any bound value: `\N` for NULL, booleans as `t` and `f`, bytes as escaped hex (`\\x…`), text escaped, numbers
    /// as Swift writes them.
    mutating func writeCopyValue(_ value: SQLArgument) {
        switch value {
        case nil: writeStaticString("\\N")
        case let text as String: writeCopyText(text)
        case let flag as Bool: writeStaticString(flag ? "t" : "f")
        case let number as Int: writeCopyInteger(number)
        case let data as Data:
            writeStaticString("\\\\x")
            let digits: StaticString = "0123456789abcdef"
            for byte in data {
                writeInteger(digits.utf8Start[Int(byte >> 4)])
                writeInteger(digits.utf8Start[Int(byte & 0x0F)])
            }
        case let some?: writeString("\(some)")
        }
    }
}
