import Foundation
import TestSupport
import Testing

/// The OpenAPI documents parse, validate as OpenAPI 3.1, and name exactly the routes the router
/// serves: the generic contract (`api/openapi.yaml`) and the app's document the server serves
/// (`coordinatord openapi`), which types each screen, its props and its events.
@Suite struct OpenAPITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let document = repository.appendingPathComponent("api/openapi.yaml").path

    /// Runs a program to its end (killed past `ChildProcess`'s deadline), waiting off Swift's pool,
    /// and returns its status and output.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await TestHTTP.offPool { try ChildProcess.run(executable, arguments) }
    }

    /// The sample app's document, as `coordinatord openapi` prints it, in a file.
    static func appDocument() async throws -> (path: String, text: String) {
        let printed = try await run(ServerProcess.binaryPath, ["openapi"])
        #expect(printed.status == 0, "\(printed.output)")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).yaml").path
        try printed.output.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, printed.output)
    }

    @Test(arguments: ["generic", "app"]) func documentValidatesAndNamesEveryRoute(which: String) async throws {
        var path = Self.document
        if which == "app" { path = try await Self.appDocument().path }
        let script = """
            import sys, yaml
            from openapi_spec_validator import validate
            document = yaml.safe_load(open(sys.argv[1]))
            validate(document)
            for path, item in document["paths"].items():
                for method in item:
                    if method in ("get", "post", "put", "patch", "delete"):
                        print(method.upper(), path)
                # HEAD is answered wherever GET is, and listed there.
                assert ("get" in item) == ("head" in item), path
            """
        let validated = try await Self.run("/usr/bin/env", ["python3", "-c", script, path])
        #expect(validated.status == 0, "\(validated.output)")
        let documented = Set(validated.output.split(separator: "\n").map(String.init))

        let routes = try await Self.run(ServerProcess.binaryPath, ["routes"])
        #expect(routes.status == 0)
        var served = Set(routes.output.split(separator: "\n").map(String.init))
        #expect(served.count >= 9)
        // The app's link pages (`/posts/{id}`) are the app's: only its own document lists them.
        let linkPages = ["GET /posts/{id}", "GET /users/{id}", "GET /users/{id}/settings", "GET /settings", "GET /signup"]
        #expect(served.isSuperset(of: linkPages))
        if which == "generic" { served.subtract(linkPages) }
        #expect(documented == served)
    }

    /// `/openapi.yaml` serves the app's document, the one `coordinatord openapi` prints, and it is
    /// the generic contract with the app's schemas: not the generic contract itself.
    @Test func theServerServesTheAppDocument() async throws {
        let server = try await ServerProcess.start()
        let response = try await TestHTTP.request(port: server.port, "GET", "/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/yaml")
        let printed = try await Self.appDocument()
        #expect(response.text == printed.text)
        #expect(response.body != Array(try Data(contentsOf: URL(fileURLWithPath: Self.document))))
        #expect(printed.text.contains("    TimelineScreen:\n"))
        // A link's parameters typed as the app reads them: a post's id is a whole number from 1.
        #expect(
            printed.text.contains(
                "  /posts/{id}:\n    get:\n      tags: [web]\n      operationId: linkPostsId\n"),
            "\(printed.text.prefix(2000))")
        #expect(printed.text.contains("- { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }"))
        #expect(!printed.text.contains("name: id, in: path, required: true, schema: { type: string }"))
        // An answer that dropped a kept link says so, typed.
        #expect(printed.text.contains("    LinkDropped:\n"))
        // The app's own version and a description of this document, not the generic one's.
        #expect(printed.text.contains("\n  version: \"0."), "\(printed.text.prefix(600))")
        #expect(!printed.text.contains("unversioned"))
        #expect(!printed.text.contains("free-form here"))
        #expect(!printed.text.contains("committed to SQLite"))
        #expect(printed.text.contains("This is the document of the app sample"))
    }

    /// The shape of the app's document, as issue 21 asked for it: each screen its own schema, the
    /// State's screens a `oneOf` by `name`, each sharing `ScreenBase`, each event request typed with
    /// its payload (one request per screen where screens send different payloads), `user` a
    /// nullable named `User`, `EventAnswer` a `State` and its extras, no anonymous inline objects,
    /// a `default` response everywhere, `ETag` on 409/412, `X-Request-Id`, and a relative server.
    @Test func theAppDocumentTypesScreensAndEvents() async throws {
        let server = try await ServerProcess.start()
        let catalog = try await TestHTTP.request(port: server.port, "GET", "/v1/screens")
        let catalogPath = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).json").path
        try catalog.text.write(toFile: catalogPath, atomically: true, encoding: .utf8)
        let script = #"""
            import json, re, sys, yaml
            document = yaml.safe_load(open(sys.argv[1]))
            catalog = json.load(open(sys.argv[2]))
            schemas = document["components"]["schemas"]
            def pascal(name):
                return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)
            def target(node):
                return node["$ref"].split("/")[-1]
            # Each screen its own schema; the union by `name` maps every screen to it.
            union = schemas["Screen"]
            assert union["discriminator"]["propertyName"] == "name", union
            mapping = union["discriminator"]["mapping"]
            assert sorted(mapping) == sorted(s["name"] for s in catalog["screens"]), mapping
            for screen in catalog["screens"]:
                # Every screen is the base every screen shares (id, name) and its own content.
                whole = schemas[pascal(screen["name"]) + "Screen"]
                assert mapping[screen["name"]].endswith("/" + pascal(screen["name"]) + "Screen")
                assert [target(part) for part in whole["allOf"]] == ["ScreenBase", pascal(screen["name"]) + "ScreenContent"], whole
                schema = schemas[target(whole["allOf"][1])]
                assert schema["properties"]["name"]["enum"] == [screen["name"]]
                assert "id" not in schema["properties"]
                props = schemas[target(schema["properties"]["props"])]
                assert [p["name"] for p in screen["props"]] == list(props.get("properties", {})), (screen["name"], props)
                required = [p["name"] for p in screen["props"] if not p["optional"]]
                assert props.get("required", []) == required, (screen["name"], props)
                for field in screen["props"]:
                    declared = props["properties"][field["name"]]
                    if field["optional"]:
                        nullable = declared == {} or "null" in declared.get("type", [])
                        nullable = nullable or "null" in schemas.get(declared.get("$ref", "/").split("/")[-1], {}).get("type", [])
                        assert nullable, (screen["name"], field, declared)
            # The timeline's posts are a list of a named item schema, its author a named object.
            assert schemas["ScreenBase"]["required"] == ["id", "name"], schemas["ScreenBase"]
            timeline = schemas[target(schemas["TimelineScreenContent"]["properties"]["props"])]
            posts = timeline["properties"]["posts"]
            assert posts["type"] == "array", posts
            post = schemas[target(posts["items"])]
            assert post["properties"]["text"] == {"type": "string"}, post
            assert "author" in post["required"] and target(post["properties"]["author"]) in schemas
            # Every event of every screen is a request typed by `event`, with its payload's schema.
            events = schemas["Event"]["discriminator"]["mapping"]
            declared = {e["name"] for s in catalog["screens"] for e in s["events"]} | {e["name"] for e in catalog["systemEvents"]}
            assert set(events) == declared, (sorted(events), sorted(declared))
            # An event whose payload differs by screen is one request schema per screen: `submit`
            # on login takes credentials only, on compose a post's text only.
            submit = schemas[events["submit"].split("/")[-1]]
            assert sorted(target(m) for m in submit["oneOf"]) == ["ComposeSubmitEvent", "LoginSubmitEvent", "SignUpFormSubmitEvent"], submit
            login_submit = schemas["LoginSubmitEvent"]
            assert login_submit["description"].endswith("screen login."), login_submit
            credentials = schemas[target(login_submit["properties"]["payload"])]
            assert set(credentials["properties"]) == {"email", "password"} and credentials["additionalProperties"] is False, credentials
            assert target(schemas["ComposeSubmitEvent"]["properties"]["payload"]) == "PostText"
            # One payload on every screen that sends the event: one request schema, no union.
            assert "oneOf" not in schemas[events["back"].split("/")[-1]]
            for name, schema in schemas.items():
                if "oneOf" in schema and name not in ("Screen", "Event", "Layer", "StreamFrame"):
                    assert all(target(m).endswith("Event") for m in schema["oneOf"]), name
            # The defects of issue 21.
            assert schemas["State"]["properties"]["user"] == {"$ref": "#/components/schemas/User"}
            assert schemas["User"]["type"] == ["object", "null"] and schemas["User"]["required"] == ["id", "displayName"]
            # The answer is the State and what the event gave besides (no member of State repeated).
            assert [target(part) for part in schemas["EventAnswer"]["allOf"]] == ["State", "EventAnswerExtras"]
            assert set(schemas["EventAnswerExtras"]["properties"]) == {"token", "deviceToken", "linkDropped"}
            assert "ScreenContent" not in schemas
            assert [target(m) for m in schemas["Layer"]["oneOf"]] == ["StackLayer", "TabsLayer"]
            assert document["servers"][0]["url"] == "/"
            responses = document["components"]["responses"]
            assert "ETag" in responses["Conflict"]["headers"] and "ETag" in responses["PreconditionFailed"]["headers"]
            assert "Allow" in responses["MethodNotAllowed"]["headers"]
            for path, item in document["paths"].items():
                for method, operation in item.items():
                    if method == "parameters": continue
                    assert "default" in operation["responses"] and "405" in operation["responses"], (path, method)
                    for status, response in operation["responses"].items():
                        if status.startswith("2"):
                            assert "X-Request-Id" in response.get("headers", {}), (path, method, status)
            # No anonymous inline object: every object schema with properties is a named component.
            def inline_objects(node, where, top):
                found = []
                if isinstance(node, dict):
                    if not top and "properties" in node:
                        found.append(where)
                    for key, value in node.items():
                        found += inline_objects(value, where + "/" + str(key), False)
                elif isinstance(node, list):
                    for index, value in enumerate(node):
                        found += inline_objects(value, where + "/" + str(index), False)
                return found
            anonymous = [w for name, s in schemas.items() for w in inline_objects(s, name, True)]
            anonymous += inline_objects(document["paths"], "paths", False)
            assert not anonymous, anonymous
            # Enums as generators read them: `type: string` with an `enum`, never a `oneOf` of
            # bare `const`s (openapi-python-client checks the first const only and raises on the
            # rest; swift-openapi-generator decodes such a oneOf as an untyped container).
            problem_type = schemas["Problem"]["properties"]["type"]
            assert problem_type["type"] == "string" and "oneOf" not in problem_type, problem_type
            assert len(problem_type["enum"]) >= 30 and all(t.startswith("urn:coordinatord:problem:") for t in problem_type["enum"])
            def consts(node, where):
                found = []
                if isinstance(node, dict):
                    for member in node.get("oneOf", []):
                        if isinstance(member, dict) and set(member) <= {"const", "description"}:
                            found.append(where)
                    for key, value in node.items():
                        found += consts(value, where + "/" + str(key))
                elif isinstance(node, list):
                    for index, value in enumerate(node):
                        found += consts(value, where + "/" + str(index))
                return found
            assert not consts(document, ""), consts(document, "")
            print("ok")
            """#
        let document = try await Self.appDocument().path
        let checked = try await Self.run("/usr/bin/env", ["python3", "-c", script, document, catalogPath])
        #expect(checked.status == 0 && checked.output.contains("ok"), "\(checked.output)")
    }

    /// The stream's frames are typed in the app's document (`StreamFrame`): a real stream's State
    /// frames and its last frame validate against it, and a frame of another shape does not.
    @Test func streamFramesValidateAgainstTheirSchemas() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        let stream = try await LiveStreamTests.open(client)
        var frames: [[String: Any]] = []
        func keep(_ frame: SSEFrame?) {
            guard let frame else { return }
            var kept: [String: Any] = ["event": frame.event ?? "message", "data": frame.json]
            if let id = frame.id { kept["id"] = id }
            frames.append(kept)
        }
        keep(try await LiveStreamTests.next(stream))
        try Journey.expect200(try await client.send("logIn"))
        keep(try await LiveStreamTests.next(stream))
        let deleted = try await TestHTTP.request(
            port: server.port, "DELETE", "/v1/sessions/\(client.id)", headers: ["Authorization": "Bearer \(client.token)"])
        #expect(deleted.status == 204)
        keep(try await LiveStreamTests.next(stream))
        #expect(frames.map { $0["event"] as? String ?? "" } == ["message", "message", "ended"])
        let framesPath = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(UUID().uuidString).json").path
        try SessionClient.json(frames).write(toFile: framesPath, atomically: true, encoding: .utf8)
        let script = #"""
            import json, sys, yaml, jsonschema
            document = yaml.safe_load(open(sys.argv[1]))
            schema = dict(document, **{"$ref": "#/components/schemas/StreamFrame"})
            validator = jsonschema.Draft202012Validator(schema)
            for frame in json.load(open(sys.argv[2])):
                validator.validate(frame)
            wrong = {"event": "ended", "data": {"reason": "because"}}
            assert not validator.is_valid(wrong), "an unknown reason must not validate"
            print("ok")
            """#
        let document = try await Self.appDocument().path
        let checked = try await Self.run("/usr/bin/env", ["python3", "-c", script, document, framesPath])
        #expect(checked.status == 0 && checked.output.contains("ok"), "\(checked.output)")
    }

    /// A `409` (stale tap) and a `412` (If-Match of another version) carry the current State and
    /// its version as `ETag`, as a `200` does, so a client adopts both at once.
    @Test func conflictsCarryTheVersionOfTheirStateAsETag() async throws {
        let server = try await ServerProcess.start()
        var client = try await SessionClient.create(port: server.port)
        let first = client.top
        #expect(try await client.send("logIn").status == 200)
        let stale = try await client.send("signUp", screen: first)
        #expect(stale.status == 409)
        #expect(stale.headers["etag"] == "\"\(client.version)\"")
        #expect((stale.json["state"] as? [String: Any])?["version"] as? Int == client.version)
        let mismatch = try await client.send("signUp", headers: ["If-Match": "\"1\""])
        #expect(mismatch.status == 412)
        #expect(mismatch.headers["etag"] == "\"\(client.version)\"")
    }
}
