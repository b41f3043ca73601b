import Foundation

/// The store as the service uses it: the schema migrated, one writer, a pool of readers.
public final class Database: Sendable {
    public let path: String
    public let writer: Writer
    public let readers: ReaderPool
    /// The inode of the file opened, to notice the file being deleted or replaced.
    private let fileNumber: UInt64?

    /// Opens `path`, applies `migrations` (refusing a database from a newer build), and
    /// starts the writer and the readers.
    public init(path: String, migrations: [Migration], readerCount: Int = 2, maxPageCount: Int? = nil) throws {
        let connection = try Connection(path: path)
        try Migrator(migrations: migrations).migrate(connection)
        self.path = path
        self.writer = try Writer(path: path, maxPageCount: maxPageCount)
        self.readers = try ReaderPool(path: path, count: readerCount)
        self.fileNumber = Self.fileNumber(of: path)
    }

    private static func fileNumber(of path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? UInt64
    }

    /// Flushes and stops the writer.
    public func close() {
        writer.close()
    }

    /// True when a reader can run a query and the file is still where it was opened: a server
    /// whose file was deleted or replaced writes to a file nobody will open again.
    public func isHealthy() async -> Bool {
        guard (try? await readers.read({ try $0.queryFirst("SELECT 1") { $0.int(0) } })) == 1 else { return false }
        guard let fileNumber else { return true }
        return Self.fileNumber(of: path) == fileNumber
    }
}
