import Book
import Diary
import Foundation
import Hummingbird
import Photos
import Services

/// The 책과 보관본 page (`/books`): ask for a book or an archive of a child's (or the family's) year, follow it being
/// made, download it (docs/book.md). Owners and editors; plain forms, so it works without the script, which only
/// updates the progress while a book is being made.
struct BookPages {
    let stores: WebStores
    let worker: BookWorker

    var store: any BookJobStore { stores.database.stores.books }

    struct Option {
        let value: String
        let name: String
        let selected: Bool
    }

    struct Item {
        let id: String
        let title: String
        /// queued, running, ready or failed (the script reloads the page when it changes).
        let state: String
        let status: String
        let progress: Int?
        let download: String?
        let fileName: String
        let kept: String?
    }

    struct BooksModel: PageModel {
        let who: [Option]
        let year: Int
        let formats: [Option]
        let sizes: [Option]
        let languages: [Option]
        let items: [Item]
        let empty: Bool
        let working: Bool
    }

    func register(on pages: SecureRoutes) {
        pages.get("books", .editor, statements: 10) { request, context in try await page(request, context) }
        pages.post("books", .editor) { request, context in
            let family = try context.member().familyID
            let form = context.form
            let year = form["year"].flatMap { Int($0) }
            if form["year"] != nil, year == nil {
                throw Problem(status: .unprocessableContent, detail: BookWord.bookYear.text(Language(request)), field: "year")
            }
            let asked: BookRequest
            do {
                asked = try await BookAsking(
                    childID: form["child"], year: year, from: nil, to: nil, format: form["format"], size: form["size"],
                    bleed: form["bleed"] == "on", reactions: form["reactions"] == "on", language: form["language"]
                ).request(family: family, children: stores.children)
            } catch let error as ValidationError {
                throw Problem(status: .unprocessableContent, detail: error.text(Language(request)), field: error.field)
            }
            switch try await store.create(family: family, requestedBy: context.userID, request: asked, limits: BookWorker.perFamily) {
            case .success: break
            case .failure(.busy(let count)): throw Problem(status: .conflict, detail: BookWord.bookBusy.text(Language(request), "\(count)"))
            case .failure(.full(let count)): throw Problem(status: .conflict, detail: BookWord.bookFull.text(Language(request), "\(count)"))
            }
            worker.enqueue()
            return PageNotice(text: BookWord.bookAsked.text(Language(request))).attached(to: AccountPages.redirect("/books"), request: request)
        }
        pages.get("books/:id/file", .editor, statements: 10) { request, context in
            let family = try context.member().familyID
            let job = try await BooksAPI.job(store, family: family, context: context)
            return try await BooksAPI.download(
                job, names: try await BookNaming(children: stores.children, family: family), storage: stores.photos.storage, request: request)
        }
        pages.post("books/:id/delete", .editor) { _, context in
            let family = try context.member().familyID
            let job = try await BooksAPI.job(store, family: family, context: context)
            _ = try await BooksAPI.delete(job, store: store, storage: stores.photos.storage)
            return AccountPages.redirect("/books")
        }
    }

    private func page(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let language = Language(request)
        let words = Words.table(language)
        let family = try context.member().familyID
        let children = try await stores.children.byID(family: family).values.sorted {
            ($0.profile.birthDate.solarDate?.julianDayNumber ?? .max, $0.profile.name) < ($1.profile.birthDate.solarDate?.julianDayNumber ?? .max, $1.profile.name)
        }
        let asked = request.uri.queryParameters["child"].map(String.init)
        let names = BookNaming(names: children.reduce(into: [:]) { $0[$1.id] = $1.profile.nickname ?? $1.profile.name })
        let jobs = try await store.list(family: family)
        let items = jobs.map { job -> Item in
            let request = job.request
            let period = request.year.map { language == .korean ? "\($0)년" : "\($0)" }
                ?? "\(language.longDate(request.first)) – \(language.longDate(request.last))"
            let format = words[request.format == .pdf ? BookWord.bookFormatPDF : .bookFormatHTML]
            let status: String = switch job.status {
            case .queued: words[.bookQueued]
            case .running: BookWord.bookRunning.text(language, "\(job.progress)")
            case .ready:
                BookWord.bookReady.text(language, "\(job.pages ?? 0)", ByteCountFormatter.string(fromByteCount: Int64(job.byteCount ?? 0), countStyle: .file))
            case .failed: BookWord.bookFailed.text(language, job.error ?? "")
            }
            return Item(
                id: job.id.description, title: "\(names.who(request)) · \(period) · \(format)", state: job.status.rawValue, status: status,
                progress: job.status == .running || job.status == .queued ? job.progress : nil,
                download: job.status == .ready ? "/books/\(job.id)/file" : nil, fileName: names.fileName(request),
                kept: job.expiresAt.map { BookWord.bookKeptUntil.text(language, ReactionPages.when($0, language)) })
        }
        let who = children.map { child in
            Option(value: child.id.description, name: child.profile.nickname ?? child.profile.name, selected: asked == child.id.description)
        } + [Option(value: "family", name: words[.bookWholeFamily], selected: asked == "family")]
        return WebPage(
            "books", title: words[.books], tab: .more,
            model: BooksModel(
                who: who, year: stores.today.date().year,
                formats: [Option(value: "pdf", name: words[.bookFormatPDF], selected: true), Option(value: "html", name: words[.bookFormatHTML], selected: false)],
                sizes: [
                    Option(value: "a5", name: words[.bookSizeA5], selected: true), Option(value: "a4", name: words[.bookSizeA4], selected: false),
                    Option(value: "square", name: words[.bookSizeSquare], selected: false),
                ],
                languages: [Option(value: "ko", name: "한국어", selected: language == .korean), Option(value: "en", name: "English", selected: language == .english)],
                items: items, empty: items.isEmpty, working: jobs.contains { $0.status == .queued || $0.status == .running })
        ).response(request, context: context)
    }
}
