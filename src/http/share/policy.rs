//! The operator's policy for every client: the anonymous clients' limits and each API key's,
//! which routes an anonymous client may use, which proxies' forwarding headers count.

use super::client::Network;
use super::keys::ApiKeys;
use super::limits::ClientLimits;

/// The operator's policy for every client; by default the default limits, no keys, no proxy.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    /// The limits of a client without a key.
    pub anonymous: ClientLimits,
    /// The API keys; none leaves the service open, every client anonymous.
    pub keys: ApiKeys,
    /// The POST routes a client without a key may use, where keys are configured; `None`
    /// allows every route. GET routes (the page, the catalogue, health and metrics) are open
    /// to all.
    pub anonymous_routes: Option<Vec<&'static str>>,
    /// Proxies whose `Forwarded` and `X-Forwarded-For` name the client.
    pub trusted_proxies: Vec<Network>,
}

impl Policy {
    /// Reads `--anonymous-routes`: route paths separated by commas, or `none`; each must be a
    /// POST route of the service.
    pub fn parse_routes(text: &str) -> Result<Vec<&'static str>, String> {
        let posts: Vec<&'static str> = crate::http::routes()
            .into_iter()
            .filter(|(_, method, _)| method == axum::http::Method::POST)
            .map(|(path, ..)| path)
            .collect();
        if text.trim() == "none" {
            return Ok(Vec::new());
        }
        text.split(',')
            .map(str::trim)
            .filter(|route| !route.is_empty())
            .map(|route| {
                posts
                    .iter()
                    .copied()
                    .find(|&post| post == route)
                    .ok_or_else(|| {
                        format!(
                            "{route:?} is not a POST route of the service; they are {}",
                            posts.join(", ")
                        )
                    })
            })
            .collect()
    }

    /// Whether a client without a key may use `route` (a route's path).
    pub fn allows_anonymous(&self, route: &str, is_post: bool) -> bool {
        if self.keys.is_empty() || !is_post {
            return true;
        }
        self.anonymous_routes
            .as_ref()
            .is_none_or(|routes| routes.contains(&route))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_routes_are_post_routes() {
        assert_eq!(
            Policy::parse_routes("/move, /position").unwrap(),
            vec!["/move", "/position"]
        );
        assert_eq!(Policy::parse_routes("none").unwrap(), Vec::<&str>::new());
        assert!(Policy::parse_routes("/games").is_err());
        assert!(Policy::parse_routes("/mvoe").is_err());
    }
}
