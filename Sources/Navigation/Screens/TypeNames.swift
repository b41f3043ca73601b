/// Names derived from Swift types: a screen's wire name and a coordinator's stored name when the
/// app does not declare them.
enum TypeNames {
    /// `type`'s own name (not its module's or outer types'), without `suffix` when it has more
    /// before it, with its first word lower-cased when `lowerFirst` (`URLScreen` → `url`).
    static func derived(from type: Any.Type, dropping suffix: String, lowerFirst: Bool) -> String {
        var name = String(describing: type)
        // A generic type's parameters are not part of its name.
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        if name.hasSuffix(suffix), name.count > suffix.count { name.removeLast(suffix.count) }
        guard lowerFirst else { return name }
        // The leading run of capitals is one word (`URLPreview` → `urlPreview`), but for the last
        // capital of a longer run, which starts the next word.
        let characters = Array(name)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        let lowered = upper > 1 && upper < characters.count ? upper - 1 : upper
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }
}
