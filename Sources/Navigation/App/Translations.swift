/// An app's texts in other languages: the catalog's titles, labels and summaries, and what its
/// flows write for people (`Context.localized`), chosen per request by `Accept-Language`.
///
/// Texts are written in the app's code in one language (`source`); a table per language gives
/// each text as written its translation. A text with no translation is shown as written, so a
/// table may be partial. The same tables can reword a kit's texts in the source language (a
/// table for `en` whose entries replace the sign-in kit's wording).
public struct Translations: Sendable, Hashable {
    /// The language the app's texts are written in (a BCP 47 tag: `en`).
    public let source: String
    /// Per language tag (`de`, `pt-BR`), each text as written → as shown.
    public let tables: [String: [String: String]]
    /// The languages a client can get, the source first (made once: each request picks among them).
    public let languages: [String]

    /// - Parameters:
    ///   - source: the language the app's texts are written in.
    ///   - tables: per language tag, each text as written and its translation.
    public init(source: String = "en", _ tables: [String: [String: String]] = [:]) {
        self.source = source
        self.tables = tables
        self.languages = [source] + tables.keys.filter { $0.lowercased() != source.lowercased() }.sorted()
    }

    /// The language to answer `acceptLanguage` (an `Accept-Language` header) in: the
    /// client's most preferred (by `q`, then order) that the app has, a tag matching as itself
    /// or by its prefix (`de-CH` → `de`, RFC 4647's lookup); the source when none matches.
    public func language(for acceptLanguage: String?) -> String {
        guard let acceptLanguage, !acceptLanguage.isEmpty else { return source }
        let ranges = acceptLanguage.split(separator: ",").prefix(32).enumerated().compactMap {
            index, item -> (tag: String, quality: Double, index: Int)? in
            let parts = item.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let tag = parts.first, !tag.isEmpty, tag.count <= 35 else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            return quality > 0 ? (tag, quality, index) : nil
        }
        let preferred = ranges.sorted { ($0.quality, -$0.index) > ($1.quality, -$1.index) }
        let known = languages
        for range in preferred {
            var tag = range.tag.lowercased()
            while true {
                if let match = known.first(where: { $0.lowercased() == tag }) { return match }
                guard let dash = tag.lastIndex(of: "-") else { break }
                tag = String(tag[..<dash])
            }
        }
        return source
    }

    /// These tables and `other`'s: where both translate a text, these win (an app's wording over
    /// a kit's).
    public func merging(_ other: Translations) -> Translations {
        var tables = other.tables
        for (language, table) in self.tables { tables[language, default: [:]].merge(table) { own, _ in own } }
        return Translations(source: source, tables)
    }

    /// `text` as shown in `language`: its translation there, or itself.
    public func text(_ text: String, in language: String) -> String {
        tables[language]?[text] ?? text
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// The language of the client that sent an event, among the app's (the server puts it in the
/// event's environment; `Context.language` reads it).
public struct EventLanguage: Sendable {
    public let tag: String

    public init(_ tag: String) { self.tag = tag }
}
