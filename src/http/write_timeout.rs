//! A connection whose client stops taking its answer is closed.
//!
//! A client that sends a request and then never reads holds its answer in the server: hyper
//! writes what the socket's buffers take and waits for the rest, for as long as the connection
//! stays open, and with it whatever the answer holds (a tournament's records, the heavy slot
//! they were played in). [`WriteTimeout`] wraps the connection's stream: a write that makes no
//! progress for the timeout fails, hyper closes the connection, and the answer is dropped.
//!
//! Only a write that waits counts: an idle connection between requests, or one that is reading
//! a request, is the read timeout's business ([`AppState::read_timeout`](super::AppState)).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// `S`, whose writes fail once one has waited `timeout` without the client taking a byte.
pub struct WriteTimeout<S> {
    stream: S,
    timeout: Duration,
    /// Armed while a write waits; disarmed by any progress. Boxed, so that the stream stays
    /// `Unpin` as hyper wants it; the box is made only when a write has to wait.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> WriteTimeout<S> {
    pub fn new(stream: S, timeout: Duration) -> Self {
        WriteTimeout {
            stream,
            timeout,
            stalled: None,
        }
    }
}

impl<S: AsyncWrite + Unpin> WriteTimeout<S> {
    /// Polls a write (or flush) with `write`; fails once writing has waited the timeout.
    fn poll_progress<T>(
        &mut self,
        cx: &mut Context<'_>,
        write: impl FnOnce(Pin<&mut S>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match write(Pin::new(&mut self.stream), cx) {
            Poll::Ready(result) => {
                self.stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let timeout = self.timeout;
                let stalled = self.stalled.get_or_insert_with(|| {
                    Box::pin(tokio::time::sleep_until(Instant::now() + timeout))
                });
                ready!(stalled.as_mut().poll(cx));
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client took none of its answer within the write timeout",
                )))
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteTimeout<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut()
            .poll_progress(cx, |stream, cx| stream.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut()
            .poll_progress(cx, |stream, cx| stream.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut()
            .poll_progress(cx, |stream, cx| stream.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut()
            .poll_progress(cx, |stream, cx| stream.poll_shutdown(cx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn a_write_the_reader_never_takes_fails_after_the_timeout_and_one_taken_does_not() {
        let timeout = Duration::from_millis(300);
        let (writer, mut reader) = tokio::io::duplex(16);
        let mut writer = WriteTimeout::new(writer, timeout);
        // Taken as it comes, slower than the timeout in all but never stalled that long.
        let reading = tokio::spawn(async move {
            let mut taken = Vec::new();
            let mut buf = [0; 8];
            while taken.len() < 64 {
                tokio::time::sleep(timeout / 3).await;
                let n = tokio::io::AsyncReadExt::read(&mut reader, &mut buf)
                    .await
                    .unwrap();
                taken.extend_from_slice(&buf[..n]);
            }
            (reader, taken)
        });
        writer.write_all(&[1; 64]).await.unwrap();
        let (reader, taken) = reading.await.unwrap();
        assert_eq!(taken.len(), 64);
        // Never taken: the write fails once it has waited the timeout.
        let started = std::time::Instant::now();
        let error = writer.write_all(&[2; 64]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        let waited = started.elapsed();
        assert!(waited >= timeout && waited < timeout * 5, "{waited:?}");
        drop(reader);
    }
}
