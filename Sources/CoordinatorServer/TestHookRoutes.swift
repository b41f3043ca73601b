#if DEBUG
import HTTPServer
import Navigation
import PostgresStore
import Secrets
import Sessions

/// Routes that let tests drive time, only with the hidden `--test-hooks` flag of a debug build
/// (a release build compiles neither): the service's clock stands still until `POST /test/clock` moves it, the sweep
/// runs on `POST /test/sweep`, due effects on `POST /test/effects`, and the password pool holds its queue between
/// `POST /test/password-pool/pause` and `.../resume`, and on PostgreSQL the group commit holds the
/// events that arrive between `POST /test/group-commits/hold` and `.../release` (`GET
/// /test/group-commits` counts them), which then go as one group. So no test waits for the wall clock.
struct TestHookRoutes {
    let sessions: SessionService
    let passwords: PasswordHashPool
    let clock: ServiceClock
    let groupCommits: PostgresDatabase?

    func register(in router: inout Router) {
        let (sessions, passwords, clock) = (self.sessions, self.passwords, self.clock)
        router.post("/test/clock") { request in
            guard let body = try? JSONValue.parse(request.body), let seconds = body["advanceSeconds"]?.intValue else {
                throw Problem(.invalidBody, detail: #"Send {"advanceSeconds": N}."#)
            }
            clock.advance(seconds: Int64(seconds))
            return .json(["now": clock.now()])
        }
        router.post("/test/sweep") { _ in
            await sessions.sweep()
            return HTTPResponse(status: 204)
        }
        router.post("/test/effects") { _ in
            let runs = await sessions.runDueEffects()
            return .json(["runs": runs, "pending": try await sessions.pendingEffects()])
        }
        router.post("/test/password-pool/pause") { _ in
            passwords.pause()
            return HTTPResponse(status: 204)
        }
        router.post("/test/password-pool/resume") { _ in
            passwords.resume()
            return HTTPResponse(status: 204)
        }
        guard let groupCommits else { return }
        router.post("/test/group-commits/hold") { _ in
            groupCommits.holdGroupCommits()
            return HTTPResponse(status: 204)
        }
        router.post("/test/group-commits/release") { _ in
            groupCommits.releaseGroupCommits()
            return HTTPResponse(status: 204)
        }
        router.get("/test/group-commits") { _ in .json(["waiting": groupCommits.writesWaitingForGroup]) }
    }
}
#endif
