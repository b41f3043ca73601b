import Foundation

// Every field and event has a name assistive technology can say: a visible label, an
// accessibility label, or one derived from its name. A label declared empty (a value that speaks
// for itself on screen) needs an accessibility label; the catalog carries the resolved one.

extension ScreenDefinition {
    /// What a screen reader says for the field `name`: its accessibility label, its label, or
    /// one derived from its name, whichever is first not blank.
    func accessibilityLabel(ofField name: String) -> String {
        let look = presentation.fields[name]
        return [look?.accessibilityLabel, look?.label].compactMap { $0 }.first(where: Self.isSaid) ?? Self.derivedLabel(name)
    }

    /// What a screen reader says for the event `name`'s button.
    func accessibilityLabel(ofEvent name: String) -> String {
        let look = presentation.events[name]
        return [look?.accessibilityLabel, look?.label].compactMap { $0 }.first(where: Self.isSaid) ?? Self.derivedLabel(name)
    }

    /// A label from a wire name, as the web client derives it: `signUp.email` → "Sign up email".
    static func derivedLabel(_ name: String) -> String {
        var words = ""
        var previous: Character?
        for character in name {
            if character == "." || character == "_" {
                words.append(" ")
            } else {
                if character.isUppercase, let previous, previous.isLowercase { words.append(" ") }
                words.append(contentsOf: character.lowercased())
            }
            previous = character
        }
        guard let first = words.first else { return "" }
        return first.uppercased() + words.dropFirst()
    }

    /// True when `label` says something (not empty, not only spaces).
    static func isSaid(_ label: String) -> Bool { !label.allSatisfy(\.isWhitespace) }

    /// Fields or events assistive technology could not name, and length or pattern rules that
    /// cannot hold: each would leave a client with a silent control or a rule no value meets.
    func labelProblems(screen: String) -> [String] {
        var problems: [String] = []
        for (name, look) in presentation.fields.sorted(by: { $0.key < $1.key }) {
            if let label = look.accessibilityLabel, !Self.isSaid(label) {
                problems.append("\(screen): field \"\(name)\" has an empty accessibility label")
            } else if let label = look.label, !Self.isSaid(label), look.accessibilityLabel == nil {
                problems.append(
                    "\(screen): field \"\(name)\" has an empty label and no accessibility label; "
                        + "declare it .unlabeled(\"…\") so that a screen reader can name it")
            }
            if let min = look.minLength, min < 0 {
                problems.append("\(screen): field \"\(name)\" has a negative minLength")
            }
            if let min = look.minLength, let max = look.maxLength, min > max {
                problems.append("\(screen): field \"\(name)\" has minLength \(min) above maxLength \(max)")
            }
            if let pattern = look.pattern, (try? NSRegularExpression(pattern: pattern)) == nil {
                problems.append("\(screen): field \"\(name)\" has a pattern that is no regular expression: \(pattern)")
            }
        }
        for (name, look) in presentation.events.sorted(by: { $0.key < $1.key }) {
            if let label = look.label, !Self.isSaid(label) {
                problems.append("\(screen): event \"\(name)\" has an empty label; its button would say nothing")
            }
            if let label = look.accessibilityLabel, !Self.isSaid(label) {
                problems.append("\(screen): event \"\(name)\" has an empty accessibility label")
            }
        }
        // Names nothing is declared for are said as derived from the name: that must say something.
        let fieldNames = (props + events.flatMap(\.fields)).flatMap(\.namesWithin)
        for name in Set(fieldNames).sorted() where !Self.isSaid(accessibilityLabel(ofField: name)) {
            problems.append("\(screen): field \"\(name)\" derives no label from its name; declare a label for it")
        }
        for event in events where !Self.isSaid(accessibilityLabel(ofEvent: event.name)) {
            problems.append("\(screen): event \"\(event.name)\" derives no label from its name; declare a label for it")
        }
        return problems
    }
}

extension FieldDeclaration {
    /// Its name (unless it is a list's item) and the names of its members and items, at any depth.
    var namesWithin: [String] {
        (name.isEmpty ? [] : [name]) + (members ?? []).flatMap(\.namesWithin) + (items?.namesWithin ?? [])
    }
}
