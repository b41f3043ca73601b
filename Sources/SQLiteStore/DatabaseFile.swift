import Foundation
import Store
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The database file as opened: its identity (device and inode), to notice it being deleted or
/// replaced while the server runs, and an exclusive lock that keeps a second server off it.
///
/// SQLite keeps writing to a deleted file through its open descriptors, and the next start opens
/// another file: whatever was committed meanwhile is lost. So the writer checks the identity
/// before and after each commit and the readers after each read: writes are refused rather than
/// acknowledged into a file nobody will open again, and reads refused rather than served from it.
package final class DatabaseFile: Sendable {
    package let path: String
    private let device: UInt64
    private let inode: UInt64
    /// The descriptor holding the `flock`; closed (releasing the lock) by `release()` when the
    /// store closes, or in `deinit`; -1 once closed.
    private let lockDescriptor: Mutex<Int32>

    /// Locks `path` (which must exist) for this process; throws `DatabaseInUse` if another holds it.
    package init(lockingExisting path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SQLiteError(code: 14, message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        // flock is independent of the POSIX record locks SQLite takes, so the two never interfere.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw DatabaseInUse(path: path)
        }
        var status = stat()
        fstat(descriptor, &status)
        self.path = path
        self.device = UInt64(status.st_dev)
        self.inode = UInt64(status.st_ino)
        self.lockDescriptor = Mutex(descriptor)
    }

    deinit {
        release()
    }

    /// Lets another server (in this process or another) open the file: the store closed.
    package func release() {
        lockDescriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    /// True while `path` still names the file that was opened.
    package var isStillInPlace: Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// Throws `DatabaseFileReplaced` unless `path` still names the file that was opened.
    package func checkStillInPlace() throws(DatabaseFileReplaced) {
        guard isStillInPlace else { throw DatabaseFileReplaced(path: path) }
    }

    /// True when the file system holding the database is mounted read-only or has no space left.
    package var fileSystemRefusesWrites: Bool {
        var status = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard statvfs(folder, &status) == 0 else { return true }
        return status.f_flag & UInt(ST_RDONLY) != 0 || status.f_bavail == 0
    }
}

/// Another process serves this database file.
package struct DatabaseInUse: Error, CustomStringConvertible, Sendable {
    package let path: String
    package var description: String {
        "another coordinatord process is serving \(path); stop it first, or give this one another --database"
    }
}

/// The database file was deleted or replaced while the server ran: writes are refused, because
/// they would go to a file that the next start does not open.
package struct DatabaseFileReplaced: DatabaseError {
    package let path: String
    package var description: String { "the database file \(path) was deleted or replaced while the server ran" }
    package var message: String { description }
    package var isUniqueViolation: Bool { false }
    package var isStorageFailure: Bool { true }
}
