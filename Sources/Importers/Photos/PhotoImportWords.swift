import Foundation
import Photos

/// What an import of photos says in its report, in the language of whoever reads it: English on the command line (as
/// every importer's report is), the page's language on 가져오기.
struct PhotoImportWords: Sendable {
    let language: PhotoImport.Language

    private var korean: Bool { language == .korean }

    /// A file refused, with why.
    func refused(_ label: String, _ error: any Error) -> String {
        korean ? "\(label): \(reason(error)) — 가져오지 않았습니다" : "\(label): \(error); left out"
    }

    func undated(_ label: String) -> String {
        korean ? "\(label): 언제 찍었는지 알 수 없어 가져오지 않았습니다" : "\(label): says nowhere when it was taken; left out"
    }

    func edited(_ count: Int) -> String {
        korean
            ? "편집한 사본 \(count)개는 원본 곁에 두고 가져오지 않았습니다 (--with-edited로 가져옵니다)"
            : "\(count) edited cop\(count == 1 ? "y" : "ies") left out beside the original (--with-edited brings them)"
    }

    func notMedia(_ count: Int, kinds: String) -> String {
        korean
            ? "이름으로 보아 사진이나 동영상이 아닌 파일 \(count)개는 가져오지 않았습니다 (\(kinds))"
            : "\(count) file(s) left out that are no photo or clip by their name (\(kinds))"
    }

    func copies(_ count: Int) -> String {
        korean ? "가져온 파일 중 \(count)개는 다른 파일과 같아 한 번만 가져왔습니다" : "\(count) file(s) the same as another of the import: each taken once"
    }

    /// Days before the children were born (a camera's clock not set?), the first few named.
    func beforeBirth(_ days: [String]) -> String {
        let named = days.prefix(5).joined(separator: ", ") + (days.count > 5 ? ", …" : "")
        return korean
            ? "아이가 태어나기 전 날짜가 \(days.count)일 있습니다 (카메라 시계가 맞지 않았을까요?): \(named)"
            : "\(days.count) day(s) before the children were born (a camera's clock not set?): \(named)"
    }

    /// Why a file was refused, in Korean.
    private func reason(_ error: any Error) -> String {
        switch error as? PhotoError {
        case .unsupported?: "받는 사진·동영상 형식이 아닙니다 (JPEG, PNG, WebP, HEIC; MP4, MOV, WebM)"
        case .tooLarge(let why)?: "너무 큽니다 (\(why))"
        case .corrupt?: "사진이 손상되었거나 잘려서 읽을 수 없습니다"
        case .corruptVideo(let why)?: "동영상을 읽을 수 없습니다 (\(why))"
        case .noVideoTools?: "이 서버에는 ffmpeg가 없어 동영상을 받을 수 없습니다"
        case .internal(let why)?, .unavailable(let why)?: "서버에서 처리하지 못했습니다 (\(why))"
        case nil: "읽을 수 없습니다 (\(error))"
        }
    }
}
