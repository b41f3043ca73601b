/// The store as the service uses it: the schema migrated, one writer, a pool of readers.
public final class Database: Sendable {
    public let path: String
    public let writer: Writer
    public let readers: ReaderPool

    /// Opens `path`, applies `migrations` (refusing a database from a newer build), and
    /// starts the writer and the readers.
    public init(path: String, migrations: [Migration], readerCount: Int = 2, maxPageCount: Int? = nil) throws {
        let connection = try Connection(path: path)
        try Migrator(migrations: migrations).migrate(connection)
        self.path = path
        self.writer = try Writer(path: path, maxPageCount: maxPageCount)
        self.readers = try ReaderPool(path: path, count: readerCount)
    }

    /// Flushes and stops the writer.
    public func close() {
        writer.close()
    }

    /// True when a reader can run a query.
    public func isHealthy() async -> Bool {
        (try? await readers.read { try $0.queryFirst("SELECT 1") { $0.int(0) } }) == 1
    }
}
