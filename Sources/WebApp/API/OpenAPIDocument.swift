import Foundation
import Hummingbird
import Installation

/// The committed OpenAPI 3.1 description of `/api/v1`, served as is. Tests check the running server against it.
enum OpenAPIDocument {
    static let data: Data? = Installation.resources("saessak_WebApp").flatMap { try? Data(contentsOf: $0.appendingPathComponent("openapi.json")) }

    static func response() throws -> Response {
        guard let data else { throw Problem(status: .internalServerError, detail: "the OpenAPI document is missing from the build") }
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
