import Diary
import Files
import Foundation
import Hummingbird
import Multipart
import NIOCore
import Photos
import Services

/// A multipart/form-data body: every file part streamed to its own file as it arrives, and the (small) text fields.
struct MultipartForm {
    var uploads: [UploadWriter]
    /// The field each upload came in, in the same order.
    var uploadFields: [String]
    /// The file name the browser gave each upload (only its last component), in the same order.
    var uploadNames: [String]
    /// Text fields by name, each with its values in order.
    var fields: [String: [String]]

    /// All the text of a form's fields together (the longest entry body fits).
    static let maxFieldBytes = 1024 * 1024
    /// Parts of one form, files and text together: the largest page form has a few dozen fields.
    static let maxParts = 500

    func field(_ name: String) -> String? { fields[name]?.first }

    static func read(_ request: Request, service: PhotoService) async throws -> MultipartForm {
        try await read(request, storage: service.storage, limits: service.limits, maxFiles: PhotoService.maxFilesPerRequest)
    }

    /// A form with at most `maxFiles` files of at most `limits.maxBytes` each, streamed to the photo storage's
    /// staging area. A body that is not well-formed multipart is a 400 naming what is wrong; nothing of it stays on disk.
    static func read(_ request: Request, storage: any PhotoStorage, limits: PhotoLimits, maxFiles: Int) async throws -> MultipartForm {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("multipart/form-data") else {
            throw Problem(status: .unsupportedMediaType, detail: "send the form as multipart/form-data")
        }
        guard let boundary = MultipartHeader(name: "Content-Type", value: contentType).parameter("boundary") else {
            throw Problem(status: .unsupportedMediaType, detail: "send the form as multipart/form-data with a boundary parameter")
        }
        // Refused before anything is stored when the disk would be left without its margin (issue 66).
        let incoming = storage.scratchFile(extension: "part").deletingLastPathComponent()
        if let space = DiskSpace.at(incoming), !space.fits(Int64(request.headers[.contentLength].flatMap { Int($0) } ?? 0)) {
            throw StorageFull("the upload")
        }
        let state = UploadState(storage: storage, limits: limits)
        do {
            var parser = try MultipartParser(boundary: boundary, maxParts: maxParts)
            for try await chunk in request.body {
                try chunk.withUnsafeReadableBytes { bytes in try parser.feed(bytes) { event in state.handle(event) } }
                if let failure = state.failure { throw failure }
                guard state.uploads.count <= maxFiles else {
                    throw Problem(status: .contentTooLarge, detail: "at most \(maxFiles) files at once")
                }
            }
            try parser.finish()
        } catch let error as MultipartError {
            state.abandon()
            throw Problem(status: error.isTooLarge ? .contentTooLarge : .badRequest, detail: error.description)
        } catch let error as PhotoError {
            state.abandon()
            throw error
        } catch let error as Problem {
            state.abandon()
            throw error
        } catch where error is StorageFull || Problem.isOutOfSpace(error) {
            state.abandon()
            throw StorageFull("the upload")
        } catch {
            state.abandon()
            throw Problem(status: .badRequest, detail: "the multipart body could not be read")
        }
        return MultipartForm(uploads: state.uploads, uploadFields: state.uploadFields, uploadNames: state.uploadNames, fields: state.fields)
    }
}

extension MultipartError {
    var isTooLarge: Bool {
        switch self {
        case .tooManyParts, .headersTooLong: true
        default: false
        }
    }
}

/// The parts of one multipart upload as they stream in (events of MultipartParser, on the request's task).
private final class UploadState {
    let storage: any PhotoStorage
    let limits: PhotoLimits
    var uploads: [UploadWriter] = []
    var uploadFields: [String] = []
    var uploadNames: [String] = []
    var fields: [String: [String]] = [:]
    var failure: (any Error)?
    private var partIsFile = false
    private var partName: String?
    private var partFileName: String?
    private var text: [UInt8] = []
    private var textBytes = 0
    private var current: UploadWriter?

    init(storage: any PhotoStorage, limits: PhotoLimits) {
        self.storage = storage
        self.limits = limits
    }

    func handle(_ event: MultipartParser.Event) {
        switch event {
        case .part(let headers): begin(headers)
        case .body(let bytes): body(bytes)
        case .partEnd: partComplete()
        }
    }

    private func begin(_ headers: [MultipartHeader]) {
        guard let disposition = headers.first(where: { $0.name.lowercased() == "content-disposition" }) else { return }
        let fileName = disposition.parameter("filename")
        partIsFile = fileName != nil
        partName = disposition.parameter("name")
        partFileName = fileName.map { ($0 as NSString).lastPathComponent }
    }

    private func body(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        guard partIsFile else {
            textBytes += bytes.count
            if textBytes > MultipartForm.maxFieldBytes {
                failure = Problem(status: .contentTooLarge, detail: "the form's text is longer than \(MultipartForm.maxFieldBytes) bytes")
            } else if partName != nil {
                text += bytes
            }
            return
        }
        // A file input left empty still sends a part, with no bytes.
        guard !bytes.isEmpty || current != nil else { return }
        do {
            let writer: UploadWriter
            if let current {
                writer = current
            } else {
                writer = try storage.stage(limits: limits)
                uploads.append(writer)
                uploadFields.append(partName ?? "")
                uploadNames.append(partFileName ?? "")
                current = writer
            }
            try writer.write(bytes)
        } catch {
            failure = error
        }
    }

    private func partComplete() {
        if !partIsFile, let partName {
            fields[partName, default: []].append(String(decoding: text, as: UTF8.self))
        }
        current = nil
        partIsFile = false
        partName = nil
        partFileName = nil
        text = []
    }

    func abandon() { uploads.forEach { $0.abandon() } }
}
