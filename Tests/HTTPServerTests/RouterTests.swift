import HTTPServer
import Testing

/// How a path is cut into segments and matched, without a server.
@Suite struct RouterTests {
    private static let router: Router = {
        var router = Router()
        router.get("/v1/items/{id}") { request in .json(["id": request.pathParameters["id"] ?? ""]) }
        router.post("/v1/items/{id}/events") { _ in .json(["posted": true]) }
        router.get("/v1/items/{id}/tree") { request in .json(["tree": request.pathParameters["id"] ?? ""]) }
        router.get("/v1/{kind}/{id}/history") { request in
            .json(["history": (request.pathParameters["kind"] ?? "") + "/" + (request.pathParameters["id"] ?? "")])
        }
        return router
    }()

    private func body(_ method: String, _ path: String) async -> String {
        let response = await Self.router.resolve(method: method, path: path)
            .respond(to: HTTPRequest(method: method, path: path))
        return "\(response.status) " + String(decoding: response.body, as: UTF8.self)
    }

    @Test func emptySegmentsAreSkippedAndParametersKeepEveryByte() async {
        #expect(await body("GET", "/v1/items/42") == #"200 {"id":"42"}"#)
        #expect(await body("GET", "//v1///items/42/") == #"200 {"id":"42"}"#)
        // A parameter holds any text but a slash, combining marks and all.
        #expect(await body("GET", "/v1/items/e\u{301}x") == "200 {\"id\":\"e\u{301}x\"}")
        #expect(await body("GET", "/v1/items/\u{301}") == "200 {\"id\":\"\u{301}\"}")
        #expect(await body("POST", "/v1/items/7/events") == #"200 {"posted":true}"#)
    }

    @Test func routesThatDifferAfterAParameterEachGetTheirOwnParameters() async {
        #expect(await body("GET", "/v1/items/5/tree") == #"200 {"tree":"5"}"#)
        #expect(await body("GET", "/v1/items/5/history") == #"200 {"history":"items/5"}"#)
        #expect(await body("POST", "/v1/items/5/events") == #"200 {"posted":true}"#)
        #expect(await body("GET", "/v1/items/5/other").hasPrefix("404 "))
    }

    @Test func unknownPathsAndMethodsAreRefused() async {
        #expect(Self.router.resolve(method: "GET", path: "/v1/items").route == nil)
        #expect(await body("GET", "/v1/items/1/2").hasPrefix("404 "))
        #expect(await body("DELETE", "/v1/items/1").hasPrefix("405 "))
        #expect(await body("HEAD", "/v1/items/1").hasPrefix("200 "))
        // Literals match their exact bytes: another case, or a longer or shorter segment, is no route.
        #expect(await body("GET", "/V1/items/1").hasPrefix("404 "))
        #expect(await body("GET", "/v1/item/1").hasPrefix("404 "))
        #expect(await body("GET", "/v1/itemss/1").hasPrefix("404 "))
    }
}
