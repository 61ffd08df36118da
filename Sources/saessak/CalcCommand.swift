import ArgumentParser
import Diary
import Foundation

/// `saessak calc`: the pocket calculator at a prompt.
struct CalcCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calc",
        abstract: "A pocket calculator: type keys (0-9 . + - * / = C) and Enter; an empty line or 'q' quits.",
        discussion: "Left to right like a pocket calculator (2+3*4= is 20); = again repeats the last operation.")

    func run() throws {
        let interactive = isatty(STDIN_FILENO) == 1
        var calculator = Calculator()
        while true {
            if interactive {
                print("\(calculator.display)\n> ", terminator: "")
                fflush(nil)  // all output streams: the prompt has no newline
            }
            guard let line = readLine(), !line.isEmpty, line != "q" else { break }
            if !calculator.press(keys: line) {
                let bad = line.first { !$0.isWhitespace && Calculator.Key(String($0)) == nil }.map(String.init) ?? line
                FileHandle.standardError.write(Data("'\(bad)' is not a key: 0-9 . + - * / = C\n".utf8))
                continue
            }
            if !interactive { print(calculator.display) }
        }
    }
}
