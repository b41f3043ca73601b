import HTTPServer

extension Application {
    /// The operator's inspector page, beside the web client (it asks for the operator key itself).
    static func serveInspector(in router: inout Router) throws {
        try serveFile("web/inspector.html", at: "/inspector", type: "text/html; charset=utf-8", in: &router)
        try serveFile("web/inspector.js", at: "/inspector.js", type: "text/javascript; charset=utf-8", in: &router)
        try serveFile("web/inspector.css", at: "/inspector.css", type: "text/css; charset=utf-8", in: &router)
    }
}
