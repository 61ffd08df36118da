import Foundation
import NIOSSL
import Persistence
import PostgresNIO

typealias PostgresClientTLS = PostgresClient.Configuration.TLS

/// Where the PostgreSQL database is: `postgres://USER@HOST:PORT/DATABASE?sslmode=…`. The password never comes in the
/// URL (a command line is visible to every user of the machine, and URLs end up in logs): it comes from the
/// environment (`SAESSAK_DATABASE_PASSWORD`) or a file (`SAESSAK_DATABASE_PASSWORD_FILE`), or there is none (a
/// local socket-trust or certificate setup).
public struct PostgresSettings: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var database: String
    public var password: String?
    public var tls: TLSMode
    public var maximumConnections: Int
    /// The schema Saessak's tables live in (`search_path`), made if missing; nil: the user's default (`public`).
    public var schema: String?

    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    public static let passwordVariable = "SAESSAK_DATABASE_PASSWORD"
    public static let passwordFileVariable = "SAESSAK_DATABASE_PASSWORD_FILE"

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads a URL and the password from `environment`; every problem is named.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            scheme == "postgres" || scheme == "postgresql"
        else { throw Invalid(description: "the database URL must look like postgres://USER@HOST:PORT/DATABASE") }
        guard components.password == nil else {
            throw Invalid(
                description: "the database URL must not hold the password: put it in \(Self.passwordVariable) or in a file named by \(Self.passwordFileVariable)")
        }
        guard let host = components.host, !host.isEmpty else { throw Invalid(description: "the database URL names no host") }
        guard let user = components.user, !user.isEmpty else { throw Invalid(description: "the database URL names no user (postgres://USER@HOST/…)") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw Invalid(description: "the database port \(port) is out of range") }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw Invalid(description: "the database name '\(path)' must not contain '/'") }
        self.host = host
        self.port = port
        self.user = user
        database = path.isEmpty ? user : path
        tls = .prefer
        maximumConnections = 20
        schema = nil
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw Invalid(description: "sslmode must be disable, prefer or require, not '\(item.value ?? "")'")
                }
                tls = mode
            case "pool":
                guard let size = item.value.flatMap(Int.init), (1...500).contains(size) else {
                    throw Invalid(description: "pool must be a number of connections from 1 to 500")
                }
                maximumConnections = size
            case "schema":
                guard let name = item.value, Self.isPlainName(name) else {
                    throw Invalid(description: "schema must be a plain name (letters, digits, underscores; 1 to 63)")
                }
                schema = name
            default:
                throw Invalid(description: "the database URL has an unknown parameter '\(item.name)' (known: sslmode, pool, schema)")
            }
        }
        password = try Self.password(environment)
    }

    /// A lowercase SQL name that needs no quoting.
    static func isPlainName(_ name: String) -> Bool {
        (1...63).contains(name.utf8.count) && name.utf8.first.map { $0 >= 97 && $0 <= 122 || $0 == 95 } == true
            && name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }

    private static func password(_ environment: [String: String]) throws(Invalid) -> String? {
        if let file = environment[passwordFileVariable] {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw Invalid(description: "cannot read the database password file named by \(passwordFileVariable)")
            }
            return text.trimmingCharacters(in: .newlines)
        }
        return environment[passwordVariable]
    }

    /// The URL without any secret: what logs and messages show.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" + (schema.map { "?schema=\($0)" } ?? "") }
}

extension PostgresSettings.TLSMode {
    var client: PostgresClientTLS {
        switch self {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }
}
