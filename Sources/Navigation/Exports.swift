// The JSON value every screen's props and event's payload is: apps see it through `Navigation`.
@_exported import CoordinatorJSON
