import Foundation

/// The batch mode of the calendar commands: given '-', read one input per line from standard input and write one
/// JSON object per line; a bad line gets `{"input": …, "error": …}` and the exit status fails at the end.
enum BatchInput {
    static func run(_ render: (String) throws -> String) throws {
        var failures = 0
        while let line = readLine() {
            let input = line.trimmingCharacters(in: .whitespaces)
            if input.isEmpty { continue }
            do {
                print(try render(input))
            } catch {
                failures += 1
                print("{\"input\":\(jsonString(input)),\"error\":\(jsonString("\(error)"))}")
            }
        }
        if failures > 0 { throw CLIError("\(failures) line(s) could not be read") }
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
