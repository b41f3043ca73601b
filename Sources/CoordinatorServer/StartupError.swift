import ArgumentParser
import CoordinatorApp
import Foundation
import HTTPServer
import SQLiteStore
import Store

extension StartupError {
    /// Runs `body`, turning the failures an operator can fix into one clear line.
    static func explain<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseInUse {
            throw StartupError(description: error.description)
        } catch let error as SQLiteError {
            throw StartupError(
                description: "cannot use the database: \(error.message); check that the --database path is writable "
                    + "and is a coordinatord SQLite file")
        } catch let error as any DatabaseError {
            throw StartupError(
                description: "cannot use the database: \(error.message); check the --database URL and that "
                    + "PostgreSQL is running and lets this user in")
        } catch let error as MigrationError {
            throw StartupError(description: "cannot migrate the database: \(error.description)")
        } catch let error as HTTPServerError {
            throw StartupError(description: "\(error.description); choose another --host or --port")
        } catch let error as CocoaError {
            let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? "the database folder"
            throw StartupError(
                description: "cannot create \(path): \(error.underlyingReason); choose a writable --database path")
        }
    }
}

extension CocoaError {
    /// The operating system's reason, without Foundation's domain and code.
    var underlyingReason: String {
        if let underlying = userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return code == .fileWriteNoPermission ? "permission denied" : "it cannot be written"
    }
}
