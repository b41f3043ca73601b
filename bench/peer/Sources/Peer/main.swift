import Foundation
import GRDB
import Hummingbird

// usage: Peer seed DATABASE COUNT SESSIONS_FILE | Peer serve PORT DATABASE
let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "seed" where arguments.count == 5:
    let pool = try PeerDatabase.open(arguments[2])
    try PeerDatabase.seed(pool, count: Int(arguments[3]) ?? 1000, sessionsFile: arguments[4])
case "serve" where arguments.count == 4:
    let pool = try PeerDatabase.open(arguments[3])
    let router = Router()
    router.post("/v1/sessions/:id/events") { request, context -> Response in
        let id = try context.parameters.require("id")
        let authorization = request.headers[.authorization] ?? ""
        guard authorization.hasPrefix("Bearer ") else { return problem(.unauthorized) }
        let body = try await request.decode(as: EventBody.self, context: context)
        do {
            let state = try await apply(body, to: id, token: String(authorization.dropFirst(7)), in: pool)
            return json(state, .ok)
        } catch Refusal.stale(let state) {
            return json(Data(#"{"state":"#.utf8) + state + Data("}".utf8), .conflict)
        } catch Refusal.notFound {
            return problem(.notFound)
        } catch Refusal.unauthorized {
            return problem(.unauthorized)
        } catch Refusal.unknownEvent {
            return problem(.unprocessableContent)
        }
    }
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: Int(arguments[2]) ?? 8080)),
        // Hummingbird logs at the level LOG_LEVEL names; the bench sets it to `error`.
        onServerRunning: { _ in FileHandle.standardOutput.write(Data("listening\n".utf8)) })
    try await app.runService()
default:
    FileHandle.standardError.write(Data("usage: Peer seed DATABASE COUNT SESSIONS_FILE | Peer serve PORT DATABASE\n".utf8))
    exit(2)
}

func json(_ data: Data, _ status: HTTPResponse.Status) -> Response {
    Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

func problem(_ status: HTTPResponse.Status) -> Response {
    json(Data(#"{"title":"\#(status.reasonPhrase)","status":\#(status.code)}"#.utf8), status)
}
