//! The tower layer that puts every request under its client's policy: it names the client
//! (its key, or its address), refuses a wrong key or a missing one where the route needs one
//! (401), counts the request against the client's requests a second (429 beyond), hands the
//! client to the handlers (heavy work is shared out by it), and writes the client's limits and
//! standing into the answer (`RateLimit-Policy`, `RateLimit`).
//!
//! A tower service of its own rather than an axum `from_fn` middleware, as the metrics' layer
//! is, so that a request pays no boxing for it.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::http::{HeaderName, HeaderValue, Method, Request, header};
use axum::response::{IntoResponse, Response};

use super::client::{self, Client, ClientId};
use super::{Reason, Refusal, Share, keys};
use crate::http::metrics::Metrics;

tokio::task_local! {
    /// The address of the connection a request came on: the server answers each connection's
    /// requests in a task of its own, which it starts with this set. (A request extension
    /// would do as well, but costs each request an allocation of the extensions' map, and the
    /// growth of that map for the one extension every request needs, its client.)
    pub static PEER: IpAddr;
}

pub static RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
pub static RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");

#[derive(Clone, Debug)]
pub struct ShareLayer {
    share: Arc<Share>,
    metrics: Arc<Metrics>,
    routes: Arc<[&'static str]>,
    /// The `RateLimit-Policy` field of anonymous clients, then of each key's.
    policy_fields: Arc<[Option<HeaderValue>]>,
}

impl ShareLayer {
    pub fn new(share: Arc<Share>, metrics: Arc<Metrics>, routes: &[&'static str]) -> ShareLayer {
        let policy = share.policy();
        let policy_fields = std::iter::once(policy.anonymous.policy_field())
            .chain(policy.keys.iter().map(|key| key.limits.policy_field()))
            .collect();
        ShareLayer {
            share,
            metrics,
            routes: routes.into(),
            policy_fields,
        }
    }

    /// The client of `request`, or the refusal of its key.
    fn client<B>(&self, request: &Request<B>, route: &'static str) -> Result<Client, Refusal> {
        let policy = self.share.policy();
        if !policy.keys.is_empty() {
            if let Some(value) = request.headers().get(header::AUTHORIZATION) {
                let index = keys::bearer(value.as_bytes())
                    .and_then(|token| policy.keys.find(token))
                    .ok_or_else(|| {
                        unauthorized("the API key given (Authorization: Bearer ...) is not one this service knows")
                    })?;
                let key = policy.keys.get(index).expect("found");
                return Ok(Client {
                    id: ClientId::Key(index),
                    limits: key.limits,
                    fingerprint: Some(key.fingerprint),
                });
            }
            if !policy.allows_anonymous(route, request.method() == Method::POST) {
                return Err(unauthorized(&format!(
                    "{route} needs an API key (Authorization: Bearer KEY); GET /limits lists the routes open without one"
                )));
            }
        }
        let id = match PEER.try_with(|peer| *peer) {
            Ok(peer) => ClientId::Address(client::client_address(client::request_address(
                peer,
                request.headers(),
                &policy.trusted_proxies,
            ))),
            // Called in process, as the service's own tests do.
            Err(_) => ClientId::Local,
        };
        Ok(Client {
            id,
            limits: policy.anonymous,
            fingerprint: None,
        })
    }

    fn policy_field(&self, client: &Client) -> Option<HeaderValue> {
        let index = match client.id {
            ClientId::Key(index) => index as usize + 1,
            _ => 0,
        };
        self.policy_fields.get(index).cloned().flatten()
    }
}

fn unauthorized(detail: &str) -> Refusal {
    Refusal {
        status: 401,
        reason: Reason::Unauthorized,
        retry_after: std::time::Duration::ZERO,
        detail: detail.to_owned(),
    }
}

impl<S> tower::Layer<S> for ShareLayer {
    type Service = Shared<S>;

    fn layer(&self, inner: S) -> Shared<S> {
        Shared {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service of [`ShareLayer`].
#[derive(Clone, Debug)]
pub struct Shared<S> {
    inner: S,
    layer: ShareLayer,
}

impl<S, B> tower::Service<Request<B>> for Shared<S>
where
    S: tower::Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Limited<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        let path = request.uri().path();
        let route = self
            .layer
            .routes
            .iter()
            .find(|route| **route == path)
            .map_or("unmatched", |route| route);
        let client = match self.layer.client(&request, route) {
            Ok(client) => client,
            Err(refusal) => {
                self.layer.metrics.refused(route, refusal.reason);
                let mut response = Refusal::problem(&refusal).into_response();
                // A missing or wrong key is not a matter of time: no Retry-After, but the
                // scheme to authenticate with (RFC 9110, section 11.6.1).
                response.headers_mut().remove(header::RETRY_AFTER);
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"sente\""),
                );
                return Limited::Ready {
                    response: Some(response),
                };
            }
        };
        tracing::Span::current().record("client", tracing::field::display(&client));
        let policy = self.layer.policy_field(&client);
        match self.layer.share.count_request(&client) {
            Ok(standing) => {
                request.extensions_mut().insert(client);
                Limited::Inner {
                    response: self.inner.call(request),
                    fields: policy.map(|policy| (policy, standing.field())),
                }
            }
            Err((refusal, standing)) => {
                self.layer.metrics.refused(route, refusal.reason);
                let mut response = refusal.problem().into_response();
                add_fields(
                    &mut response,
                    policy.map(|policy| (policy, standing.field())),
                );
                Limited::Ready {
                    response: Some(response),
                }
            }
        }
    }
}

/// Writes the client's `RateLimit-Policy` and `RateLimit` into `response`.
fn add_fields(response: &mut Response, fields: Option<(HeaderValue, Option<HeaderValue>)>) {
    let Some((policy, standing)) = fields else {
        return;
    };
    let headers = response.headers_mut();
    headers.insert(RATELIMIT_POLICY.clone(), policy);
    if let Some(standing) = standing {
        headers.insert(RATELIMIT.clone(), standing);
    }
}

pin_project_lite::pin_project! {
    /// The answer of [`Shared`]: the handler's, with the client's fields, or a refusal.
    #[project = LimitedProjection]
    pub enum Limited<F> {
        Inner {
            #[pin]
            response: F,
            fields: Option<(HeaderValue, Option<HeaderValue>)>,
        },
        Ready {
            response: Option<Response>,
        },
    }
}

impl<F, E> Future for Limited<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            LimitedProjection::Inner { response, fields } => {
                let mut response = std::task::ready!(response.poll(cx))?;
                add_fields(&mut response, fields.take());
                Poll::Ready(Ok(response))
            }
            LimitedProjection::Ready { response } => {
                Poll::Ready(Ok(response.take().expect("polled once after ready")))
            }
        }
    }
}
