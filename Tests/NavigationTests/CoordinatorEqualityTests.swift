@testable import Navigation
import Testing

/// `isEqual(to:)` tells whether a handler changed its coordinator (an unchanged one keeps its
/// encoded state): equal only for the same type with equal fields.
@Suite struct CoordinatorEqualityTests {
    @Test func equalOnlyForTheSameTypeWithEqualFields() {
        var changed = Wizard()
        changed.draftName = "Ada"
        #expect(Wizard().isEqual(to: Wizard()))
        #expect(changed.isEqual(to: changed))
        #expect(!Wizard().isEqual(to: changed))
        #expect(!changed.isEqual(to: Wizard()))
        #expect(!Wizard().isEqual(to: TabletWizard()))
        #expect(!TabletWizard().isEqual(to: Wizard()))
    }
}
