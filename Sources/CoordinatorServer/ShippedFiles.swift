import Foundation
import Store

/// The files the server needs at run time (the OpenAPI document, the web client), built into the
/// binary from the repository's `api/` and `web/` by the EmbedFiles plugin: nothing is looked up
/// beside the binary. Its migrations are `CoreMigrations`' (module CoordinatorApp).
enum ShippedFiles {
    /// The bytes of `path` (`api/openapi.yaml`, `web/index.html`, …).
    static func file(_ path: String) throws -> [UInt8] {
        guard let data = EmbeddedFiles.data(path) else {
            throw MigrationError(description: "this build has no \(path)")
        }
        return Array(data)
    }
}
