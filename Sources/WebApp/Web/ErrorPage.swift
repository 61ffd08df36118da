import Hummingbird
import Services

/// An error shown to a person: the status in their language, and what went wrong.
enum ErrorPage {
    static func response(_ problem: Problem, request: Request, context: AppRequestContext) -> Response {
        let language = Language(request)
        let title: Word =
            switch problem.status.code {
            case 404: .errorNotFound
            case 403: .errorForbidden
            case 429: .tooManyAttempts
            case 400, 409, 413, 415, 422: .errorInput
            case 507: .errorDiskFull
            default: .errorServer
            }
        if problem.status.code >= 500 {
            context.logger.error("page \(request.method.rawValue) failed: \(problem.detail)")
        }
        // A server error says no more than its title; the others say what was wrong.
        let model = Model(detail: problem.status.code >= 500 ? nil : problem.detail)
        var response = WebPage("error", title: title.text(language), model: model, status: problem.status, bare: true)
            .response(request, context: context)
        for field in problem.headers where field.name != .contentType { response.headers.append(field) }
        return response
    }

    /// What `error.mustache` shows besides its title.
    struct Model: PageModel {
        let detail: String?
    }
}
