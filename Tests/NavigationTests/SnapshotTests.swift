import Navigation
import Testing

@Suite struct SnapshotTests {
    @Test func snapshotDecodesToAnEqualTree() throws {
        var driver = try Driver()
        try driver.send("showTabs")
        try driver.send("deeper")
        let bytes = try driver.app.snapshot(driver.tree)
        let restored = try driver.app.decodeSnapshot(bytes)
        #expect(restored == driver.tree)
        #expect(try driver.app.snapshot(restored) == bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"format\":1"))
    }

    /// The same test app, but the wizard's schema moved on to version 2.
    struct WizardV2: Coordinator {
        static let typeName = "Wizard"
        static let schemaVersion = 2
        var steps: [String] = []
        mutating func start(_ context: inout Context) throws { try context.push(TestScreens.step1, ["name": ""]) }
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
    }

    @Test func undecodableSnapshotFallsBackToAFreshStartKeepingTheUser() throws {
        var driver = try Driver(user: SessionUser(id: 9, displayName: "Lin"))
        try driver.send("startWizard")
        let bytes = try driver.app.snapshot(driver.tree)

        let deployed = NavigationApp(
            screens: TestScreens.all,
            coordinators: [TestRoot.self, WizardV2.self, TabletWizard.self, SheetFlow.self, TabFlow.self],
            root: { _ in TestRoot() })
        #expect(throws: SnapshotError.schemaChanged("Wizard", stored: 1, current: 2)) { try deployed.decodeSnapshot(bytes) }
        let (tree, fallback) = try deployed.restore(bytes, environment: Environment())
        #expect(fallback?.reason == .schemaChanged("Wizard", stored: 1, current: 2))
        #expect(fallback?.description.contains("fresh start") == true)
        // The fresh start continues the stored id counters: the home screen is s3 now (s1 and s2
        // were the old tree's), so a tap on an old screen is a stale tap, never another screen's.
        #expect(
            Driver.render(deployed, tree)
                == state(
                    layer("root", screen("s3", "home", ["note": "hello Lin"], events: homeEvents)), top: "s3",
                    user: ["id": 9, "displayName": "Lin"]))

        let (_, garbage) = try deployed.restore(Array("not json".utf8), environment: Environment())
        #expect(garbage != nil)
    }

    @Test func catalogListsEveryScreenWithItsEventsAndFields() throws {
        let catalog = TestScreens.app.catalog()
        let screens = catalog["screens"]?.arrayValue ?? []
        #expect(screens.compactMap { $0["name"]?.stringValue } == TestScreens.all.map(\.name).sorted())
        let home = screens.first { $0["name"] == "home" }
        #expect(
            home?["events"]?.arrayValue?.first
                == [
                    "name": "openDetail", "accessibilityLabel": "Open detail",
                    "fields": [["name": "item", "type": "integer", "optional": false, "accessibilityLabel": "Item"]],
                ])
        #expect(home?["props"] == [["name": "note", "type": "string", "optional": true, "accessibilityLabel": "Note"]])
        #expect(catalog["systemEvents"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["back", "dismiss", "selectTab"])
    }

    @Test func inspectionShowsTypesKeysScreensAndChildren() throws {
        var driver = try Driver()
        try driver.send("startWizard")
        let expected: JSONValue = [
            "platform": "phone",
            "root": [
                "id": 1, "key": "root", "type": "TestRoot", "schemaVersion": 1,
                "screens": [["id": "s1", "name": "home"]],
                "children": [
                    ["id": 2, "key": "wizard", "type": "Wizard", "schemaVersion": 1, "screens": [["id": "s2", "name": "wizard.name"]], "children": []]
                ],
            ],
        ]
        #expect(driver.app.inspect(driver.tree) == expected)
    }
}

extension Driver {
    static func render(_ app: NavigationApp, _ tree: NavigationTree) -> JSONValue { .object(app.render(tree)) }
}

@Suite struct JSONSerializationTests {
    @Test func stringsWithEscapesAndUnicodeRoundTrip() throws {
        let tricky: JSONValue = [
            "quote\"and\\backslash": "line\nbreak\ttab\r\u{1}\u{1f}",
            "unicode": "é 😀 中文", "empty": "", "numbers": [0, -5, 1.5, 1e3], "nested": ["a": [true, false, nil]],
        ]
        let text = tricky.serializedString
        #expect(text.contains(#"line\nbreak\ttab\r\u0001\u001f"#))
        #expect(try JSONValue.parse(tricky.serialized()) == ["quote\"and\\backslash": "line\nbreak\ttab\r\u{1}\u{1f}",
            "unicode": "é 😀 中文", "empty": "", "numbers": [0, -5, 1.5, 1000], "nested": ["a": [true, false, nil]]])
    }
}

@Suite struct RenderStateTests {
    @Test func serializedStateEqualsTheRenderedValue() throws {
        var driver = try Driver()
        for event in ["showTabs", "deeper"] { try driver.send(event) }
        try driver.send("selectTab", ["tab": "b"])
        var expected = driver.app.render(driver.tree)
        expected["id"] = "x"
        expected["version"] = 4
        let bytes = driver.app.renderState(driver.tree, extra: ["id": "x", "version": 4])
        #expect(try JSONValue.parse(bytes) == .object(expected))
        #expect(bytes == JSONValue.object(expected).serialized())
    }

    /// Extra members sorting before, between and after the State's own are written in key order,
    /// and one named like a member of the State's own does not replace it.
    @Test func extraMembersAreMergedInKeyOrderAndNeverReplaceTheStatesOwn() throws {
        var driver = try Driver()
        try driver.send("showTabs")
        let extra: [String: JSONValue] = [
            "a": 1, "deviceToken": "d", "m": [true], "stack": "not the stack", "t": .null, "token": "k", "top": "not the top",
            "u": "between top and user", "version": 9, "zz": ["k": "v"],
        ]
        var expected = driver.app.render(driver.tree)
        for (key, value) in extra where expected[key] == nil { expected[key] = value }
        let bytes = driver.app.renderState(driver.tree, extra: extra)
        #expect(bytes == JSONValue.object(expected).serialized())
        #expect(expected["top"] != "not the top" && expected["stack"] != "not the stack")
        #expect(driver.app.renderState(driver.tree, extra: ["b": 2]) == JSONValue.object(driver.app.render(driver.tree).merging(["b": 2]) { own, _ in own }).serialized())
    }
}
