/// Splits a JSON array of objects, arriving in pieces, into its elements' bytes, so a backup's table is read a row
/// at a time and never held whole. Only the array's framing is checked here (an opening `[`, objects separated by
/// commas, a closing `]`, nothing after it but white space); each element is parsed on its own by the caller, so
/// what is inside an object is `JSONDecoder`'s to judge. An element longer than `maxElementBytes` is refused
/// rather than gathered.
struct JSONArrayElements {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notAnArrayOfObjects
        case elementTooLong(Int)
        case cutShort

        var description: String {
            switch self {
            case .notAnArrayOfObjects: "it is not an array of objects"
            case .elementTooLong(let limit): "a row is longer than \(limit / 1_048_576) MB"
            case .cutShort: "it is cut short"
            }
        }
    }

    private enum Stage { case beforeArray, beforeElement(first: Bool), inElement, afterElement, ended }

    let maxElementBytes: Int
    private var stage = Stage.beforeArray
    private var element: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false

    init(maxElementBytes: Int = 16 << 20) {
        self.maxElementBytes = maxElementBytes
    }

    /// Whether the closing `]` has been read.
    var isComplete: Bool {
        if case .ended = stage { true } else { false }
    }

    /// Reads `bytes`; returns the elements they complete, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [[UInt8]] {
        var complete: [[UInt8]] = []
        for byte in bytes {
            switch stage {
            case .beforeArray:
                guard !Self.isSpace(byte) else { continue }
                guard byte == UInt8(ascii: "[") else { throw .notAnArrayOfObjects }
                stage = .beforeElement(first: true)
            case .beforeElement(let first):
                guard !Self.isSpace(byte) else { continue }
                if byte == UInt8(ascii: "]"), first {
                    stage = .ended
                } else if byte == UInt8(ascii: "{") {
                    element = [byte]
                    depth = 1
                    stage = .inElement
                } else {
                    throw .notAnArrayOfObjects
                }
            case .inElement:
                guard element.count < maxElementBytes else { throw .elementTooLong(maxElementBytes) }
                element.append(byte)
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        complete.append(element)
                        element = []
                        stage = .afterElement
                    }
                }
            case .afterElement:
                guard !Self.isSpace(byte) else { continue }
                if byte == UInt8(ascii: ",") {
                    stage = .beforeElement(first: false)
                } else if byte == UInt8(ascii: "]") {
                    stage = .ended
                } else {
                    throw .notAnArrayOfObjects
                }
            case .ended:
                guard Self.isSpace(byte) else { throw .notAnArrayOfObjects }
            }
        }
        return complete
    }

    /// The input has ended: an error unless the array was closed.
    func finish() throws(Failure) {
        guard isComplete else { throw .cutShort }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
