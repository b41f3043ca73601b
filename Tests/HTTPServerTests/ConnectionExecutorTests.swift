import Foundation
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Handlers of a server without a `handlerExecutor` run on the worker thread that read their
/// request (`ConnectionExecutor`): before they first wait, and again after whoever ended the wait
/// only queued their next step. Waits ended from other threads, before or after the handler
/// suspends, and child tasks, all reach the answer.
@Suite struct ConnectionExecutorTests {
    /// The name of the thread running now (libmicrohttpd names its workers `MHD-worker`).
    static func threadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until a thread of its own, named `resumer`, resumes it.
    static func waitForAnotherThread() async -> String {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                // Named through the kernel's file: once, the name set with Foundation's
                // `Thread.current.name` had not reached the kernel when the read below ran, which
                // then saw the name the thread inherited from the worker.
                if let comm = fopen("/proc/thread-self/comm", "w") {
                    fputs("resumer", comm)
                    fclose(comm)
                }
                continuation.resume(returning: threadName())
            }
            thread.start()
        }
    }

    /// `value`, after giving way once: a child task of two steps.
    static func later(_ value: Int) async -> Int {
        await Task.yield()
        return value
    }

    static func router() -> Router {
        var router = Router()
        router.get("/where") { _ in
            let before = threadName()
            let resumer = await waitForAnotherThread()
            let after = threadName()
            return .json(["before": before, "resumer": resumer, "after": after])
        }
        router.get("/waits/{n}") { request in
            let n = Int(request.pathParameters["n"] ?? "") ?? 0
            // Resumed before it suspends: no wait at all.
            let first = await withCheckedContinuation { $0.resume(returning: n) }
            // Resumed by a dispatch queue, at once or a moment later.
            let second = await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(n % 3)) {
                    continuation.resume(returning: first + 1)
                }
            }
            // A child task: its jobs run where the handler's do.
            async let third = later(second + 1)
            _ = await waitForAnotherThread()
            return .json(["n": "\(await third)", "on": threadName()])
        }
        return router
    }

    @Test func aHandlerRunsOnItsWorkerBeforeAndAfterAnotherThreadEndsItsWait() async throws {
        let server = try HTTPServer(configuration: ServerConfiguration(port: 0), responder: Self.router())
        let response = try await TestHTTP.request(port: server.port, "GET", "/where")
        #expect(response.status == 200)
        #expect((response.json["before"] as? String)?.hasPrefix("MHD-worker") == true, "\(response.json)")
        #expect(response.json["resumer"] as? String == "resumer")
        #expect((response.json["after"] as? String)?.hasPrefix("MHD-worker") == true, "\(response.json)")
        #expect(await server.shutdown())
    }

    @Test func everyRequestIsAnsweredWhateverThreadEndsItsWaitsAndWhen() async throws {
        let server = try HTTPServer(configuration: ServerConfiguration(port: 0), responder: Self.router())
        let answers = try await withThrowingTaskGroup(of: (Int, TestResponse).self) { group in
            for n in 0..<64 {
                group.addTask { (n, try await TestHTTP.request(port: server.port, "GET", "/waits/\(n)")) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 64)
        for (n, response) in answers {
            #expect(response.status == 200)
            #expect(response.json["n"] as? String == "\(n + 2)")
            #expect((response.json["on"] as? String)?.hasPrefix("MHD-worker") == true, "\(response.json)")
        }
        #expect(await server.shutdown())
    }
}
