/// Why a book could not be made, in words for the person who asked.
public enum BookError: Error, Equatable, CustomStringConvertible {
    /// What was asked cannot be made (no such child, an empty year, a size we do not print).
    case request(String)
    /// The file could not be written.
    case output(String)

    public var description: String {
        switch self {
        case .request(let message), .output(let message): message
        }
    }
}
