import Navigation

/// Checkout, presented modally: the address step, a confirm alert, the order placed.
/// Finishes with `placed` (the order is stored) or `cancelled` (nothing is).
struct CheckoutCoordinator: InputMapping {
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
        case cancel
        case confirm
        case keepEditing
        case done
    }

    static func mapIO(_ event: ScreenEvent) throws -> Input? {
        switch try event.output(AddressScreen.self) {
        case .next(let address): return .address(address, screen: event.screen.id)
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

    /// The payment service answered: the order records it, and the screen still showing it says so.
    mutating func effectFinished(_ result: EffectResult, _ context: inout Context) throws -> Handling {
        guard let (orderId, payment) = try context.shop.recordPayment(result) else { return .unhandled }
        for screen in context.ownScreens where screen.name == OrderPlacedScreen.name {
            try context.update(screen.id, as: OrderPlacedScreen.self) { if $0.orderId == orderId { $0.payment = payment } }
        }
        return .handled
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
