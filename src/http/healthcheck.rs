//! `sente healthcheck`: asks a running server for `/healthz`, for container health checks
//! (a `scratch` image has no curl). Speaks HTTP/1.1 through hyper, which the server already
//! depends on.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::Request;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// Succeeds when the server at `addr` answers `GET /healthz` with 200 and `{"status":"ok"}`
/// within `timeout`. A server listening on every interface is asked on loopback.
pub async fn probe(addr: SocketAddr, timeout: Duration) -> Result<(), String> {
    let addr = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port())
        }
        _ => addr,
    };
    tokio::time::timeout(timeout, ask(addr))
        .await
        .map_err(|_| format!("no answer from {addr} within {timeout:?}"))?
}

async fn ask(addr: SocketAddr) -> Result<(), String> {
    let stream = TcpStream::connect(addr)
        .await
        .map_err(|error| format!("cannot connect to {addr}: {error}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|error| format!("{addr}: {error}"))?;
    tokio::spawn(connection);
    let request = Request::get("/healthz")
        .header(hyper::header::HOST, addr.to_string())
        .body(Empty::<Bytes>::new())
        .map_err(|error| error.to_string())?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|error| format!("{addr}: {error}"))?;
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|error| format!("{addr}: {error}"))?
        .to_bytes();
    let healthy =
        serde_json::from_slice::<serde_json::Value>(&body).is_ok_and(|body| body["status"] == "ok");
    if status.is_success() && healthy {
        Ok(())
    } else {
        Err(format!(
            "{addr} answered {status}: {}",
            String::from_utf8_lossy(&body)
        ))
    }
}
