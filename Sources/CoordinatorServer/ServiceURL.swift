import Foundation

extension URL {
    /// `text` as the URL of another service an app's effects call (a setting such as
    /// `--payment-service`): nil unless it is an absolute `http` or `https` URL with a host.
    public init?(serviceSetting text: String?) {
        guard let text, let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            return nil
        }
        self = url
    }
}
