//! Waiting for the signal to stop: SIGINT (Ctrl-C) or SIGTERM (what container runtimes and
//! Kubernetes send). The server then stops accepting connections, lets in-flight requests
//! finish, and exits 0.

use std::future::Future;

/// Registers the signal handlers now and returns a future that completes on the first signal.
///
/// The handlers must be in place before the server says it is listening: a SIGTERM that
/// arrives before would otherwise still have its default action and kill the process. That is
/// why this is not an `async fn`, whose body (and so the registration) would wait until it is
/// first polled.
#[cfg(unix)]
pub fn on_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => tracing::info!("SIGINT received, shutting down"),
            _ = terminate.recv() => tracing::info!("SIGTERM received, shutting down"),
        }
    })
}

#[cfg(not(unix))]
pub fn on_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    Ok(async {
        if tokio::signal::ctrl_c().await.is_ok() {
            tracing::info!("Ctrl-C received, shutting down");
        }
    })
}
