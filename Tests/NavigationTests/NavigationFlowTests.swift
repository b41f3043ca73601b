import Navigation
import Testing

@Suite struct NavigationFlowTests {
    @Test func startShowsTheRootFlow() throws {
        let driver = try Driver()
        #expect(driver.state == state(layer("root", screen("s1", "home", ["note": nil], events: homeEvents)), top: "s1"))
    }

    @Test func signedInStartKeepsTheUser() throws {
        let driver = try Driver(user: SessionUser(id: 7, displayName: "Ada"))
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "home", ["note": "hello Ada"], events: homeEvents)), top: "s1",
                    user: ["id": 7, "displayName": "Ada"]))
    }

    @Test func pushBackPopToRootAndPopTo() throws {
        var driver = try Driver()
        try driver.send("openDetail", ["item": 3])
        try driver.send("next")
        #expect(
            driver.state
                == state(
                    layer(
                        "root", screen("s1", "home", ["note": nil]), screen("s2", "detail", ["item": 3]),
                        screen("s3", "detail", ["item": 4], events: ["next", "popToRoot", "popToFirstDetail", "back"])),
                    top: "s3"))
        try driver.send("back")
        #expect(
            driver.state
                == state(
                    layer(
                        "root", screen("s1", "home", ["note": nil]),
                        screen("s2", "detail", ["item": 3], events: ["next", "popToRoot", "popToFirstDetail", "back"])),
                    top: "s2"))
        try driver.send("next")
        try driver.send("next")
        try driver.send("popToFirstDetail")
        #expect(
            driver.state
                == state(
                    layer(
                        "root", screen("s1", "home", ["note": nil]),
                        screen("s2", "detail", ["item": 3], events: ["next", "popToRoot", "popToFirstDetail", "back"])),
                    top: "s2"))
        try driver.send("next")
        try driver.send("popToRoot")
        // Ids are never reused: s4 and s5 were popped, the next screen is s6.
        #expect(driver.state == state(layer("root", screen("s1", "home", ["note": nil], events: homeEvents)), top: "s1"))
        try driver.send("openDetail", ["item": 1])
        #expect(driver.tree.top?.id == "s7")
    }

    @Test func wizardKeepsItsDraftAcrossBackAndFinishesIntoTheParent() throws {
        var driver = try Driver()
        try driver.send("startWizard")
        try driver.send("next", ["name": ""])
        #expect(
            driver.state
                == state(
                    layer(
                        "root", screen("s1", "home", ["note": nil]),
                        screen("s2", "wizard.name", ["name": "", "error": "A name is required."], events: ["next", "back"])),
                    top: "s2"))
        try driver.send("next", ["name": "Ada"])
        try driver.send("back")
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "home", ["note": nil]), screen("s2", "wizard.name", ["name": "Ada", "error": nil], events: ["next", "back"])),
                    top: "s2"))
        try driver.send("next", ["name": "Ada"])
        let outcome = try driver.send("finish", ["age": 36])
        #expect(outcome.credentialsRotated)
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "home", ["note": "welcome Ada"], events: homeEvents)), top: "s1",
                    user: ["id": 1, "displayName": "Ada"]))
        #expect(driver.app.inspect(driver.tree)["root"]?["children"] == [])
    }

    @Test func childIsRemovedWhenTheUserPopsItsLastScreen() throws {
        var driver = try Driver()
        try driver.send("startWizard")
        #expect(driver.tree.coordinatorCount == 2)
        let outcome = try driver.send("back")
        #expect(!outcome.credentialsRotated)
        #expect(driver.tree.coordinatorCount == 1)
        #expect(driver.state == state(layer("root", screen("s1", "home", ["note": "wizard cancelled"], events: homeEvents)), top: "s1"))
    }

    @Test func tabletSwapsTheWizardForOneForm() throws {
        var driver = try Driver(platform: .tablet)
        try driver.send("startWizard")
        #expect(
            driver.state
                == state(layer("root", screen("s1", "home", ["note": nil]), screen("s2", "wizard.form", events: ["submit", "back"])), top: "s2"))
        try driver.send("submit", ["name": "Grace", "age": 50])
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "home", ["note": "welcome Grace"], events: homeEvents)), top: "s1",
                    user: ["id": 1, "displayName": "Grace"]))
        #expect(driver.app.inspect(driver.tree)["platform"] == "tablet")
    }

    @Test func modalChildFinishesWithItsOutputAndDismissCancelsIt() throws {
        var driver = try Driver()
        try driver.send("compose")
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "home", ["note": nil])),
                    layer("modal", screen("s2", "sheet", ["text": ""], events: ["save", "close", "cancel", "dismiss"])), top: "s2"))
        try driver.send("save", ["text": "hi"])
        #expect(driver.state == state(layer("root", screen("s1", "home", ["note": "hi"], events: homeEvents)), top: "s1"))

        try driver.send("compose")
        try driver.send("dismiss")
        #expect(
            driver.state == state(layer("root", screen("s1", "home", ["note": "sheet cancelled"], events: homeEvents)), top: "s1"))
        #expect(driver.tree.coordinatorCount == 1)
    }

    @Test func aChildsOwnCancelledCaseIsToldApartFromTheRuntimesCancellation() throws {
        var driver = try Driver()
        try driver.send("compose")
        try driver.send("cancel")
        #expect(
            driver.state
                == state(layer("root", screen("s1", "home", ["note": "sheet cancelled by the flow"], events: homeEvents)), top: "s1"))
        try driver.send("compose")
        try driver.send("dismiss")
        #expect(
            driver.state == state(layer("root", screen("s1", "home", ["note": "sheet cancelled"], events: homeEvents)), top: "s1"))
    }

    @Test func childOutputIsReadOnlyAsTheTypeOfTheChildThatFinished() {
        let output = ChildOutput(finishedBy: SheetFlow.self, .saved(text: "hi"))
        #expect(output.as(SheetFlow.self) == .saved(text: "hi"))
        #expect(output.as(Wizard.self) == nil)
        #expect(output.coordinatorType == "SheetFlow")
        #expect(!output.isCancelled)
        #expect(ChildOutput.cancelled.as(SheetFlow.self) == nil)
        #expect(ChildOutput.cancelled.isCancelled)
    }

    @Test func alertLayerIsPresentedAndDismissedByItsCoordinator() throws {
        var driver = try Driver()
        try driver.send("alert")
        #expect(
            driver.state
                == state(
                    layer("root", screen("s1", "home", ["note": nil])),
                    layer("alert", screen("s2", "confirm", ["message": "Sure?"], events: ["yes", "no", "dismiss"])), top: "s2"))
        try driver.send("yes")
        #expect(driver.state == state(layer("root", screen("s1", "home", ["note": "confirmed"], events: homeEvents)), top: "s1"))
    }

    @Test func tabsSelectPushBackAndReplaceRoot() throws {
        var driver = try Driver()
        try driver.send("showTabs")
        let pageEvents = ["deeper", "leave", "selectTab"]
        #expect(
            driver.state
                == state(
                    tabsLayer(
                        selected: "a", ("a", "A", [screen("s2", "tabs.page", ["tab": "a", "depth": 1], events: pageEvents)]),
                        ("b", "B", [screen("s3", "tabs.page", ["tab": "b", "depth": 1])])), top: "s2"))
        try driver.send("selectTab", ["tab": "b"])
        try driver.send("deeper")
        #expect(
            driver.state
                == state(
                    tabsLayer(
                        selected: "b", ("a", "A", [screen("s2", "tabs.page", ["tab": "a", "depth": 1])]),
                        ("b", "B", [
                            screen("s3", "tabs.page", ["tab": "b", "depth": 1]),
                            screen("s4", "tabs.page", ["tab": "b", "depth": 2], events: ["deeper", "leave", "back", "selectTab"]),
                        ])), top: "s4"))
        try driver.send("back")
        #expect(driver.tree.top?.id == "s3")
        #expect(throws: EventRejection.invalidPayload([FieldError(field: "tab", message: "must be one of: a, b")])) {
            try driver.send("selectTab", ["tab": "c"])
        }
        // `leave` is not handled by the tab flow: it travels up to the root, which replaces the tabs.
        try driver.send("leave")
        #expect(driver.state == state(layer("root", screen("s5", "home", ["note": nil], events: homeEvents)), top: "s5"))
        #expect(driver.tree.coordinatorCount == 1)
    }
}
