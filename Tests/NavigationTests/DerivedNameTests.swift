import Navigation
import Testing

/// A screen's wire name and a coordinator's stored name come from their types unless declared.
@Suite struct DerivedNameTests {
    enum SearchScreen: ScreenType {}
    enum SignUpEmailScreen: ScreenType {}
    enum URLPreviewScreen: ScreenType {}
    enum Screen: ScreenType {}
    enum Declared: ScreenType { static let name = "kept" }

    struct CheckoutCoordinator: Coordinator {
        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        mutating func open(_ link: Link, _ context: inout Context) throws -> Handling { .unhandled }
    }

    struct Wizard: Coordinator {
        static let typeName = "wizard-v1"
        mutating func start(_ context: inout Context) throws {}
        mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling { .unhandled }
        mutating func open(_ link: Link, _ context: inout Context) throws -> Handling { .unhandled }
    }

    @Test func screenNamesAreTheTypesWithoutTheirSuffixInLowerCamelCase() {
        #expect(SearchScreen.name == "search")
        #expect(SignUpEmailScreen.name == "signUpEmail")
        #expect(URLPreviewScreen.name == "urlPreview")
        #expect(Screen.name == "screen", "a type named only the suffix keeps it")
        #expect(Declared.name == "kept", "a declared name wins: the wire name outlives a rename")
    }

    @Test func coordinatorNamesAreTheTypesWithoutTheirSuffix() {
        #expect(CheckoutCoordinator.typeName == "Checkout")
        #expect(Wizard.typeName == "wizard-v1")
    }
}
