import CVipsShims
import Foundation

/// The thin, safe layer over libvips: every C pointer is owned by a Swift value and released exactly once, and
/// every failure becomes a `PhotoError` carrying libvips' message.
enum Vips {
    /// Starts libvips (once per process).
    static func start() throws(PhotoError) {
        guard saessak_vips_start() == 0 else { throw .internal("libvips did not start: \(takeError())") }
    }

    static func takeError() -> String {
        guard let message = saessak_vips_take_error() else { return "" }
        defer { saessak_vips_free(message) }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The libvips version, and which of `operations` it lacks (`saessak doctor`).
    static func capabilities(_ operations: [String]) throws(PhotoError) -> (version: String, missing: [String]) {
        try start()
        return (String(cString: saessak_vips_version()), operations.filter { saessak_vips_has_operation($0) == 0 })
    }

    /// Whether libvips runs vector code compiled at run time (ORC): off from the start (the shim says why).
    static var runsCompiledVectorCode: Bool {
        (try? start()) != nil && saessak_vips_vectors_enabled() == 1
    }

    /// Whether `format`'s libvips loader takes the file (only that loader looks at it).
    static func takes(_ format: MediaFormat, path: String) -> Bool {
        guard (try? start()) != nil, let loader = format.loader else { return false }
        return saessak_vips_is_a(loader, path) == 1
    }

    /// The image format of a file by its first bytes: the loader every opening of it is pinned to. A file of any
    /// other kind (a clip, text) is refused here, before libvips sees it.
    static func format(of path: String) throws(PhotoError) -> (format: MediaFormat, loader: String) {
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            head = try handle.read(upToCount: MediaFormat.sniffLength) ?? Data()
        } catch {
            throw .internal("cannot read \((path as NSString).lastPathComponent): \(error)")
        }
        let format = try MediaFormat.sniff(head).get()
        guard let loader = format.loader else { throw .internal("a \(format.rawValue) video is not a photo") }
        return (format, loader)
    }

    /// The factor a JPEG of `width`×`height` is shrunk by as it is decoded for a thumbnail fitting `box` (1, 2, 4 or
    /// 8: the largest that leaves 1.5× to the final resize; the shim's rule, exposed for its test).
    static func jpegShrink(width: Int, height: Int, box: (width: Int, height: Int)) -> Int {
        func clamped(_ value: Int) -> Int32 { Int32(clamping: value) }
        return Int(saessak_vips_jpeg_shrink(clamped(width), clamped(height), clamped(box.width), clamped(box.height)))
    }

    /// An image opened from a file; pixels are read only when an operation needs them.
    final class Image {
        let pointer: OpaquePointer

        /// The file opened by `format`'s loader and no other.
        init(path: String, format: MediaFormat, failOnTruncated: Bool) throws(PhotoError) {
            try Vips.start()
            guard let loader = format.loader else { throw .internal("a \(format.rawValue) video is not a photo") }
            guard let pointer = saessak_vips_open(path, loader, failOnTruncated ? 1 : 0) else { throw .corrupt(Vips.takeError()) }
            self.pointer = pointer
        }

        /// A thumbnail of the file, whose format is read from its first bytes (`Vips.format(of:)`).
        init(thumbnailOf path: String, width: Int, height: Int, attentionCrop: Bool) throws(PhotoError) {
            try Vips.start()
            let loader = try Vips.format(of: path).loader
            guard let pointer = saessak_vips_thumbnail(path, loader, Int32(clamping: width), Int32(clamping: height), attentionCrop ? 1 : 0)
            else {
                throw .corrupt(Vips.takeError())
            }
            self.pointer = pointer
        }

        deinit { saessak_vips_release(pointer) }

        var width: Int { Int(saessak_vips_width(pointer)) }
        var height: Int { Int(saessak_vips_height(pointer)) }

        /// A metadata field as libvips prints it, or nil when absent.
        func field(_ name: String) -> String? {
            guard let text = saessak_vips_field(pointer, name) else { return nil }
            defer { saessak_vips_free(text) }
            return String(cString: text)
        }

        func intField(_ name: String) -> Int? {
            var value: Int32 = 0
            return saessak_vips_int_field(pointer, name, &value) == 0 ? Int(value) : nil
        }

        func encoded(as format: ThumbnailFormat, quality: Int, forPrint: Bool = false) throws(PhotoError) -> Data {
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            let status = switch format {
            case .jpeg where forPrint: saessak_vips_save_print_jpeg(pointer, Int32(quality), &buffer, &length)
            case .jpeg: saessak_vips_save_jpeg(pointer, Int32(quality), &buffer, &length)
            case .webp: saessak_vips_save_webp(pointer, Int32(quality), &buffer, &length)
            }
            // Pixels are decoded while encoding: a failure here is damaged input.
            guard status == 0, let buffer else { throw .corrupt(Vips.takeError()) }
            defer { saessak_vips_free(buffer) }
            return Data(bytes: buffer, count: length)
        }
    }
}
