import Foundation

/// Creates the folder that will hold the database file.
enum DataFolder {
    static func create(for databasePath: String) throws {
        let folder = URL(fileURLWithPath: databasePath).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
}
