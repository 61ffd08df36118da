import Diary
import Hummingbird

/// `POST /api/v1/calculator`: one key press of the pocket calculator. Stateless: the client sends back the state
/// the last answer returned (or null to start).
struct CalculatorAPI {
    struct Press: Decodable {
        let state: Calculator?
        let key: String
    }

    struct Answer: Encodable {
        let state: Calculator
        let display: String
    }

    func register(on api: SecureRoutes) {
        api.post("calculator", .viewer) { request, context in
            let press = try await request.decode(as: Press.self, context: context)
            guard let key = Calculator.Key(press.key) else {
                throw ValidationError(field: "key", "'\(press.key)' is not a key: 0–9, ., +, -, *, ×, /, ÷, = or C")
            }
            var calculator = press.state ?? Calculator()
            calculator.press(key)
            return try JSONBody.response(Answer(state: calculator, display: calculator.display))
        }
    }
}
