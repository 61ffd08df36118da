import Book
import Diary
import Foundation
import HTTPTypes
import Hummingbird
import KoreanCalendar
import Photos
import Services

/// `/api/v1/books`: the book of a year (a PDF for a print shop) or the archive (a ZIP of plain HTML), made in the
/// background and kept for download a few days (docs/book.md). Owners and editors ask for them, follow them and
/// download them; a viewer cannot (a book holds the whole diary of its days, comments included), nor can a share link.
struct BooksAPI {
    let store: any BookJobStore
    let children: any ChildStore
    let storage: any PhotoStorage
    let worker: BookWorker

    struct Payload: Decodable {
        let childId: String?
        let year: Int?
        let from: String?
        let to: String?
        let format: String?
        let size: String?
        let bleed: Bool?
        let withReactions: Bool?
        let language: String?
    }

    func register(on api: SecureRoutes) {
        let (store, children, storage, worker) = (store, children, storage, worker)
        api.get("books", .editor, statements: 10) { _, context in
            let family = try context.member().familyID
            let names = try await BookNaming(children: children, family: family)
            return try JSONBody.response(ListResponse(items: try await store.list(family: family).map { BookJobResource($0, names: names) }, next: nil))
        }
        api.post("books", .editor) { request, context in
            let family = try context.member().familyID
            let payload = try await request.decode(as: Payload.self, context: context)
            let asked = try await BookAsking(
                childID: payload.childId, year: payload.year, from: payload.from, to: payload.to, format: payload.format, size: payload.size,
                bleed: payload.bleed ?? false, reactions: payload.withReactions ?? false, language: payload.language
            ).request(family: family, children: children)
            let job: BookJob
            switch try await store.create(family: family, requestedBy: context.userID, request: asked, limits: BookWorker.perFamily) {
            case .success(let made): job = made
            case .failure(.busy(let count)):
                throw Problem(status: .conflict, detail: "\(count) books are being made for this family already: wait for one to finish")
            case .failure(.full(let count)):
                throw Problem(status: .conflict, detail: "\(count) books are made and kept for download already: delete one first")
            }
            worker.enqueue()
            var response = try JSONBody.response(BookJobResource(job, names: try await BookNaming(children: children, family: family)), status: .accepted)
            response.headers[.location] = "/api/v1/books/\(job.id)"
            return response
        }
        api.get("books/:id", .editor, statements: 10) { _, context in
            let family = try context.member().familyID
            let job = try await Self.job(store, family: family, context: context)
            return try JSONBody.response(BookJobResource(job, names: try await BookNaming(children: children, family: family)))
        }
        api.get("books/:id/file", .editor, statements: 10) { request, context in
            let family = try context.member().familyID
            let job = try await Self.job(store, family: family, context: context)
            return try await Self.download(job, names: try await BookNaming(children: children, family: family), storage: storage, request: request)
        }
        api.delete("books/:id", .editor) { _, context in
            let family = try context.member().familyID
            let job = try await Self.job(store, family: family, context: context)
            guard try await Self.delete(job, store: store, storage: storage) else { throw Problem(status: .notFound, detail: "no book with id \(job.id)") }
            return Response(status: .noContent)
        }
    }

    static func job(_ store: any BookJobStore, family: FamilyID, context: AppRequestContext) async throws -> BookJob {
        let id: BookJobID = try context.id(of: "book")
        guard let job = try await store.job(family: family, id: id) else { throw Problem(status: .notFound, detail: "no book with id \(id)") }
        return job
    }

    /// Deletes a book's row, then its file (a book being made stops at its next renewal); false when it was gone.
    static func delete(_ job: BookJob, store: any BookJobStore, storage: any PhotoStorage) async throws -> Bool {
        guard try await store.delete(family: job.familyID, id: job.id) else { return false }
        await storage.deleteBook(StoredBook(job))
        return true
    }

    /// The finished file as an attachment named for the reader (하늘-2026.pdf); 409 while it is being made.
    static func download(_ job: BookJob, names: BookNaming, storage: any PhotoStorage, request: Request) async throws -> Response {
        guard job.status == .ready else {
            throw Problem(status: .conflict, detail: job.status == .failed ? "the book could not be made: \(job.error ?? "")" : "the book is not made yet")
        }
        guard let file = try await storage.openBook(StoredBook(job)) else { throw Problem(status: .notFound, detail: "the book's file is gone: ask for it again") }
        var response = try await FileResponse.serve(
            file, contentType: job.request.format.contentType, etag: job.id.description, caching: .never, request: request)
        response.headers[.contentDisposition] = names.disposition(job)
        return response
    }
}

/// What a book is asked for with, from the API's JSON or the books page's form, checked field by field.
struct BookAsking {
    let childID: String?
    let year: Int?
    let from: String?
    let to: String?
    let format: String?
    let size: String?
    let bleed: Bool
    let reactions: Bool
    let language: String?

    func request(family: FamilyID, children: any ChildStore) async throws -> BookRequest {
        var child: ChildID?
        if let text = childID, !text.isEmpty, text != "family" {
            guard let id = ChildID(text) else { throw ValidationError(field: "childId", "'\(text)' is not a child's id") }
            guard try await children.byID(family: family)[id] != nil else { throw ValidationError(field: "childId", "no child \(id) in this family") }
            child = id
        }
        guard let format = BookRequest.Format(rawValue: format ?? "pdf") else {
            throw ValidationError(field: "format", "'\(format ?? "")' is not pdf or html")
        }
        let size = size ?? PageSize.a5.rawValue
        guard PageSize(rawValue: size) != nil else { throw ValidationError(field: "size", "'\(size)' is not a5, a4 or square") }
        let language = language ?? Language.korean.rawValue
        guard Language(rawValue: language) != nil else { throw ValidationError(field: "language", "'\(language)' is not ko or en") }
        let period: BookPeriod
        do {
            switch (year, from.flatMap { $0.isEmpty ? nil : $0 }, to.flatMap { $0.isEmpty ? nil : $0 }) {
            case (let year?, nil, nil): period = try BookPeriod(year: year)
            case (nil, let from?, let to?):
                let first = try Validate.field("from") { try SolarDate(iso: from) }
                let last = try Validate.field("to") { try SolarDate(iso: to) }
                period = try BookPeriod(from: first, through: last)
            case (_?, _, _): throw ValidationError(field: "year", "give either a year or from and to, not both")
            case (nil, _, _): throw ValidationError(field: "year", "give a year, or from and to")
            }
        } catch let error as BookError {
            throw ValidationError(field: year != nil ? "year" : "from", error.description)
        }
        return BookRequest(
            childID: child, first: period.first, last: period.last, year: period.year, format: format, size: size, bleed: bleed,
            reactions: reactions, language: language)
    }
}

/// The children's names, for naming books and their files.
struct BookNaming {
    let names: [ChildID: String]

    init(names: [ChildID: String]) { self.names = names }

    init(children: any ChildStore, family: FamilyID) async throws {
        names = try await children.byID(family: family).mapValues { $0.profile.nickname ?? $0.profile.name }
    }

    /// 하늘, or 가족 / family for the whole family's.
    func who(_ request: BookRequest) -> String {
        request.childID.flatMap { names[$0] } ?? (request.language == "en" ? "family" : "가족")
    }

    /// 하늘-2026.pdf, 가족-2026-03-01-2027-02-28.zip
    func fileName(_ request: BookRequest) -> String {
        let when = request.year.map(String.init) ?? "\(request.first.iso)-\(request.last.iso)"
        let who = who(request).unicodeScalars.filter { !CharacterSet(charactersIn: "/\\\"<>:|?*").contains($0) && $0.value >= 0x20 }
        return "\(String(String.UnicodeScalarView(who)))-\(when).\(request.format.fileExtension)"
    }

    /// `attachment` with the name in UTF-8 (RFC 6266) and an ASCII stand-in for old clients.
    func disposition(_ job: BookJob) -> String {
        let name = fileName(job.request)
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._"))) ?? "book"
        return "attachment; filename=\"saessak-book.\(job.request.format.fileExtension)\"; filename*=UTF-8''\(encoded)"
    }
}

/// A book as the API shows it.
struct BookJobResource: Encodable {
    let id: String
    let childId: String?
    let name: String
    let from: String
    let to: String
    let year: Int?
    let format: String
    let size: String
    let bleed: Bool
    let withReactions: Bool
    let language: String
    let status: String
    let progress: Int
    let createdAt: Date
    let finishedAt: Date?
    let expiresAt: Date?
    let error: String?
    let byteCount: Int?
    let pages: Int?
    let fileName: String
    let download: String?

    init(_ job: BookJob, names: BookNaming) {
        let request = job.request
        id = job.id.description
        childId = request.childID?.description
        name = names.who(request)
        from = request.first.iso
        to = request.last.iso
        year = request.year
        format = request.format.rawValue
        size = request.size
        bleed = request.bleed
        withReactions = request.reactions
        language = request.language
        status = job.status.rawValue
        progress = job.progress
        createdAt = job.createdAt
        finishedAt = job.finishedAt
        expiresAt = job.expiresAt
        error = job.error
        byteCount = job.byteCount
        pages = job.pages
        fileName = names.fileName(request)
        download = job.status == .ready ? "/api/v1/books/\(job.id)/file" : nil
    }
}
