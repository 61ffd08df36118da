import Diary
import DiaryStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Services

@testable import WebApp

/// The application `saessak serve` runs, on a real socket (`.live`), over a real data folder.
@Suite struct APITests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saessak-web-\(UUID().uuidString)")

    /// A data folder with a family and tokens for its owner and a viewer (grandmother).
    func setUp() async throws -> (owner: String, viewer: String) {
        let database = try DiaryDatabase(folder: folder)
        let accounts = database.stores.accounts
        let (_, family) = try await accounts.createUser(username: "mom", passwordHash: "x", familyName: "우리집")
        _ = try await accounts.createUser(username: "grandma", passwordHash: "x", familyName: "할머니댁")
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO memberships (familyId, userId, role, createdAt) SELECT ?, id, 'viewer', '2026-01-01 00:00:00.000' FROM users WHERE username = 'grandma'",
                arguments: [family.id.description])
        }
        let owner = try await accounts.createToken(username: "mom", familyName: nil).0
        let viewer = try await accounts.createToken(username: "grandma", familyName: "우리집").0
        return (owner, viewer)
    }

    func json(_ object: [String: Any]) -> ByteBuffer {
        ByteBuffer(data: try! JSONSerialization.data(withJSONObject: object))
    }

    func headers(_ token: String) -> HTTPFields {
        [.authorization: "Bearer \(token)", .contentType: "application/json"]
    }

    @Test func healthAndAuthentication() async throws {
        _ = try await setUp()
        let app = try await buildApplication(AppConfiguration(port: 0, dataFolder: folder))
        try await app.test(.live) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/children", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    @Test func viewersReadButDoNotWrite() async throws {
        let tokens = try await setUp()
        let app = try await buildApplication(AppConfiguration(port: 0, dataFolder: folder))
        try await app.test(.live) { client in
            let child: [String: Any] = ["name": "하늘", "birthDate": "2025-03-01"]
            var id = ""
            try await client.execute(uri: "/api/v1/children", method: .post, headers: headers(tokens.owner), body: json(child)) { response in
                #expect(response.status == .created)
                id = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])["id"] as! String
            }
            try await client.execute(uri: "/api/v1/children/\(id)", method: .get, headers: headers(tokens.viewer)) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/api/v1/children", method: .post, headers: headers(tokens.viewer), body: json(child)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/children/\(id)", method: .delete, headers: headers(tokens.viewer)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/children/\(id)", method: .delete, headers: headers(tokens.owner)) {
                #expect($0.status == .noContent)
            }
        }
    }

    @Test func derivedFactsUseTodayInSeoul() async throws {
        let tokens = try await setUp()
        let app = try await buildApplication(AppConfiguration(port: 0, dataFolder: folder))
        try await app.test(.live) { client in
            let body = json(["name": "오늘", "birthDate": Today(clock: .live).date().iso])
            try await client.execute(uri: "/api/v1/children", method: .post, headers: headers(tokens.owner), body: body) { response in
                let child = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let derived = try #require(child["derived"] as? [String: Any])
                #expect(derived["ageDays"] as? Int == 1)
                #expect(derived["ageYears"] as? Int == 0)
            }
        }
    }
}
