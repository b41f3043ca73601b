import Foundation

/// The process environment, read once.
enum ProcessEnvironment {
    static var current: [String: String] { ProcessInfo.processInfo.environment }
}
