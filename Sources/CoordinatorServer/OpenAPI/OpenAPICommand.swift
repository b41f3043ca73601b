import ArgumentParser

/// `openapi`: prints the app's OpenAPI document, the one `GET /openapi.yaml` serves.
struct OpenAPICommand: AppCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the app's OpenAPI document (its screens, props and events typed), as GET /openapi.yaml serves it.")

    func run(_ app: ServedApp) async throws {
        print(try AppDocument.yaml(for: app), terminator: "")
    }
}
