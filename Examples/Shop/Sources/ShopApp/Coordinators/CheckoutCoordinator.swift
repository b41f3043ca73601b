import Navigation
import SignInKit

/// Checkout, presented modally: the address step, a confirm alert, the order placed.
/// Finishes with `placed` (the order is stored) or `cancelled` (nothing is). A shopper may sign
/// in (or register) on the sheet first, with the sign-in kit's flow: the name is filled in.
struct CheckoutCoordinator: Coordinator {
    static let typeName = "Checkout"

    /// `cancelled` is the buyer's own choice on the address step; the runtime's cancellation
    /// (the sheet swiped away) reaches the parent as `ChildOutput.isCancelled` instead.
    enum Output: Equatable {
        case placed, cancelled
    }
    var lines: [CartItem]
    var address: Address?

    /// One line of an address: up to 100 characters, 400 bytes, 4 accents on a letter. It is
    /// stored with the order and shown in the confirmation, so it is bounded in bytes too.
    static let addressLine = TextLimit(characters: 1...100)
    static let lineTooLong = "Keep each line to 100 characters, with at most 4 accents on a letter."

    enum Input: Equatable {
        case address(Address, screen: ScreenID)
        case signIn
        case cancel
        case confirm
        case keepEditing
        case done
    }

    static func input(for event: ScreenEvent) throws -> Input? {
        switch try event.output(AddressScreen.self) {
        case .next(let address): return .address(address, screen: event.screen.id)
        case .signIn: return .signIn
        case .cancel: return .cancel
        case nil: break
        }
        switch try event.output(ConfirmOrderScreen.self) {
        case .confirm: return .confirm
        case .cancel: return .keepEditing
        case nil: break
        }
        return try event.output(OrderPlacedScreen.self).map { _ in .done }
    }

    mutating func start(_ context: inout Context) throws {
        try context.push(AddressScreen.self, .init(name: "", street: "", city: ""))
    }

    /// What the event means here (`input(for:)`), acted on; events it does not know go up to the parent.
    mutating func handle(_ event: ScreenEvent, _ context: inout Context) throws -> Handling {
        guard let input = try Self.input(for: event) else { return .unhandled }
        try handle(input, &context)
        return .handled
    }

    mutating func handle(_ input: Input, _ context: inout Context) throws {
        switch input {
        case .address(let entered, let screen):
            let trimmed = Address(
                name: entered.name.trimmed, street: entered.street.trimmed, city: entered.city.trimmed)
            guard !trimmed.name.isEmpty, !trimmed.street.isEmpty, !trimmed.city.isEmpty else {
                try context.update(screen, as: AddressScreen.self) {
                    $0 = .init(name: trimmed.name, street: trimmed.street, city: trimmed.city, error: "Fill in every line.")
                }
                return
            }
            guard [trimmed.name, trimmed.street, trimmed.city].allSatisfy({ Self.addressLine.violation(in: $0) == nil }) else {
                try context.update(screen, as: AddressScreen.self) {
                    $0 = .init(name: trimmed.name, street: trimmed.street, city: trimmed.city, error: Self.lineTooLong)
                }
                return
            }
            address = trimmed
            try context.update(screen, as: AddressScreen.self) {
                $0 = .init(name: trimmed.name, street: trimmed.street, city: trimmed.city)
            }
            try context.present(
                ConfirmOrderScreen.self, .init(message: "Place the order for \(trimmed.name), \(trimmed.city)?"), as: .alert)
        case .signIn:
            guard context.user == nil, !context.hasChild(.signIn) else { return }
            try context.startChild(.signIn, SignInCoordinator<ShopRoute>())
        case .cancel:
            finish(.cancelled, &context)
        case .keepEditing:
            try context.dismiss()
        case .confirm:
            guard let address else { return }
            let shop = try context.shop
            let order = try shop.placeOrder(lines, to: address)
            // The card is charged after this commit: the order stands whatever the service says.
            if shop.chargesCards { try context.perform(ChargeOrder(orderId: order.id, amountCents: order.totalCents)) }
            try context.dismiss()
            try context.push(
                OrderPlacedScreen.self,
                .init(orderId: order.id, totalCents: order.totalCents, payment: shop.chargesCards ? "Paying…" : "On delivery"))
        case .done:
            finish(.placed, &context)
        }
    }

    /// Signed in (or registered) on the sheet: the address step again, the name filled in
    /// where the shopper had typed none. Backed out of: the address step as it was.
    mutating func childFinished(_ key: ChildKey, output: ChildOutput, _ context: inout Context) throws {
        guard let user = context.user, let address = context.ownScreens.first(where: { $0.name == AddressScreen.name }) else {
            return
        }
        try context.update(address.id, as: AddressScreen.self) { if $0.name.isEmpty { $0.name = user.displayName } }
    }

    /// The payment service answered: the order records it, and the screen still showing it says so.
    mutating func effectFinished(_ result: EffectResult, _ context: inout Context) throws -> Handling {
        guard let (orderId, payment) = try context.shop.recordPayment(result) else { return .unhandled }
        for screen in context.ownScreens where screen.name == OrderPlacedScreen.name {
            try context.update(screen.id, as: OrderPlacedScreen.self) { if $0.orderId == orderId { $0.payment = payment } }
        }
        return .handled
    }
}

extension ChildKey {
    /// The sign-in kit's flow, on the checkout sheet.
    static let signIn = ChildKey("signIn")
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
