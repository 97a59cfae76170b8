//! The connection: request heads and bodies, pipelining, slow and stalled clients, shutdown, CORS, caching.

use super::*;

/// Sends a request as raw bytes, a piece at a time with a pause between, and returns the
/// status code and body of the answer (the request asks the server to close after it).
async fn raw_exchange(url: &str, pieces: &[Vec<u8>]) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    for piece in pieces {
        // A server that refuses the request may answer and close before all of it is sent.
        if stream.write_all(piece).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").unwrap().1.to_owned();
    (status, body)
}

/// Requests that hyper refuses before the service sees them, answering itself (no body, since
/// hyper has no hook for one) and closing the connection: a head over `MAX_HEAD_BYTES` or with
/// more than 100 headers is a 431, and bytes that are not an HTTP/1 request a 400.
#[tokio::test]
async fn oversized_or_garbled_request_heads_are_refused() {
    let url = start().await;
    let head = |fill: usize| {
        format!(
            "GET /healthz HTTP/1.1\r\nhost: sente\r\nconnection: close\r\nx-fill: {}\r\n\r\n",
            "a".repeat(fill)
        )
    };
    let fill_to_limit = MAX_HEAD_BYTES - head(0).len();
    let at_limit = head(fill_to_limit);
    assert_eq!(at_limit.len(), MAX_HEAD_BYTES);
    let (status, body) = raw_exchange(&url, &[at_limit.into_bytes()]).await;
    assert_eq!((status, body.as_str()), (200, r#"{"status":"ok"}"#));
    let over = head(fill_to_limit + 1);
    assert_eq!(
        raw_exchange(&url, &[over.into_bytes()]).await,
        (431, String::new())
    );

    let many: String = (0..100).map(|i| format!("x-{i}: 1\r\n")).collect();
    let request = format!("GET /healthz HTTP/1.1\r\nhost: sente\r\n{many}\r\n");
    assert_eq!(
        raw_exchange(&url, &[request.into_bytes()]).await,
        (431, String::new())
    );

    let garbled = b"HELLO SENTE\r\n\r\n".to_vec();
    assert_eq!(raw_exchange(&url, &[garbled]).await, (400, String::new()));
}

/// A chunked request, its head and then each chunk sent apart, so that the server reads the
/// body in several frames.
fn chunked_move(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut pieces = vec![
        b"POST /move HTTP/1.1\r\nhost: sente\r\nconnection: close\r\n\
          content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
            .to_vec(),
    ];
    for chunk in chunks {
        let mut piece = format!("{:x}\r\n", chunk.len()).into_bytes();
        piece.extend_from_slice(chunk);
        piece.extend_from_slice(b"\r\n");
        pieces.push(piece);
    }
    pieces.push(b"0\r\n\r\n".to_vec());
    pieces
}

#[tokio::test]
async fn a_body_in_several_pieces_is_read_whole_and_within_the_limit() {
    let url = start().await;
    let (status, body) = raw_exchange(
        &url,
        &chunked_move(&[
            br#"{"board":"XX."#,
            br#"OO....","#,
            br#""algorithm":"alphabeta"}"#,
        ]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["move"], 2);

    // No declared length: the limit is found while reading.
    let filler = vec![b' '; 40 * 1024];
    let (status, body) = raw_exchange(&url, &chunked_move(&[b"{", &filler, &filler, b"}"])).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than 65536 bytes"), "{body}");

    // A declared length over the limit is refused before the body is sent.
    let head = "POST /move HTTP/1.1\r\nhost: sente\r\nconnection: close\r\n\
                content-type: application/json\r\ncontent-length: 70000\r\n\r\n";
    let (status, body) = raw_exchange(&url, &[head.as_bytes().to_vec()]).await;
    assert_eq!(status, 413, "{body}");
}

/// Pipelined requests are all answered, in order, and without waiting for the client's delayed
/// acknowledgement. With Nagle's algorithm on (the socket's default), each answer after the first
/// waited for the acknowledgement of the one before, which the client, having nothing to send,
/// delays: every round below took at least 40 ms, Linux's shortest delay, a kernel timer that no
/// slowness of the machine can shorten. Without it, a round takes well under a millisecond.
#[tokio::test]
async fn pipelined_requests_are_answered_in_order_without_delay() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = start().await;
    let mut stream = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    // Four positions with a different winning move each, so that the order of answers shows.
    let wins = [
        ("XX.OO....", 2),
        ("X.XOO....", 1),
        (".XXOO....", 0),
        ("XO.XO....", 6),
    ];
    let mut requests = Vec::new();
    for (board, _) in wins {
        let body = json!({"board": board, "algorithm": "alphabeta"}).to_string();
        requests.extend_from_slice(
            format!(
                "POST /move HTTP/1.1\r\nhost: sente\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        );
    }
    let mut rounds = Vec::new();
    let mut buffer = Vec::new();
    for _ in 0..9 {
        let started = std::time::Instant::now();
        stream.write_all(&requests).await.unwrap();
        let mut answers = Vec::new();
        while answers.len() < wins.len() {
            match split_answer(&buffer) {
                Some((answer, length)) => {
                    answers.push(answer);
                    buffer.drain(..length);
                }
                None => {
                    let mut chunk = [0; 4096];
                    let read = stream.read(&mut chunk).await.unwrap();
                    assert!(read > 0, "the server closed the connection");
                    buffer.extend_from_slice(&chunk[..read]);
                }
            }
        }
        rounds.push(started.elapsed());
        let moves: Vec<_> = answers
            .iter()
            .map(|answer| answer["move"].clone())
            .collect();
        assert_eq!(moves, wins.map(|(_, win)| json!(win)), "{answers:?}");
    }
    rounds.sort();
    assert!(
        rounds[rounds.len() / 2] < Duration::from_millis(20),
        "pipelined answers waited for the client's acknowledgements: rounds took {rounds:?}"
    );
}

#[tokio::test]
async fn the_page_and_the_spec_are_answered_304_when_the_client_holds_them() {
    let url = start().await;
    let client = Client::new();
    for (path, cache_control) in [("/", Some("no-cache")), ("/openapi.yaml", None)] {
        let get = |if_none_match: &str| {
            client
                .get(format!("{url}{path}"))
                .header("if-none-match", if_none_match)
                .send()
        };
        // An empty list holds no tag.
        let first = get("").await.unwrap();
        assert_eq!(first.status(), 200, "{path}");
        let etag = first.headers()["etag"].to_str().unwrap().to_owned();
        assert!(etag.starts_with('"'), "{path}: {etag}");
        let again = get(&etag).await.unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], etag, "{path}");
        assert_eq!(
            again
                .headers()
                .get("cache-control")
                .map(|v| v.to_str().unwrap()),
            cache_control,
            "{path}"
        );
        assert_eq!(again.bytes().await.unwrap().len(), 0, "{path}");
        // Another tag (an older build's) gets the document whole.
        let stale = get("\"0000000000000000\"").await.unwrap();
        assert_eq!(stale.status(), 200, "{path}");
        assert!(!stale.bytes().await.unwrap().is_empty(), "{path}");
    }
}

#[tokio::test]
async fn cors_lets_browsers_call_from_any_origin() {
    let url = start().await;
    let client = Client::new();
    let response = client
        .request(reqwest::Method::OPTIONS, format!("{url}/move"))
        .header("origin", "https://example.org")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success());
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    let methods = header_text(&response, "access-control-allow-methods");
    assert!(
        methods.contains("GET") && methods.contains("POST"),
        "{methods}"
    );
    // Kept for two hours, not the browsers' default of 5 s: one preflight per game, not per move.
    assert_eq!(response.headers()["access-control-max-age"], "7200");
    let response = client
        .get(format!("{url}/healthz"))
        .header("origin", "https://example.org")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    // A front end can read Retry-After of a 429 or 503, its limits (RateLimit-Policy,
    // RateLimit), the scheme of a 401 (WWW-Authenticate), Allow of a 405, Accept-Encoding of a
    // 415 and the file name of a record; header names are case-insensitive.
    let exposed = header_text(&response, "access-control-expose-headers").to_ascii_lowercase();
    let exposed: Vec<&str> = exposed.split(',').map(str::trim).collect();
    for name in [
        "retry-after",
        "allow",
        "accept-encoding",
        "content-disposition",
        "ratelimit-policy",
        "ratelimit",
        "www-authenticate",
    ] {
        assert!(exposed.contains(&name), "{name} is not in {exposed:?}");
    }
}

#[tokio::test]
async fn shutdown_lets_in_flight_requests_finish() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, AppState::default(), async {
        stopped.await.ok();
    }));
    let in_flight = tokio::spawn({
        let url = url.clone();
        async move {
            post(&url, "/tournament", json!({"players": [{"algorithm": "mcts", "simulations": 2000}, {}], "games": 300, "seed": 3})).await.status()
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    stop.send(()).unwrap();
    assert_eq!(
        in_flight.await.unwrap(),
        StatusCode::OK,
        "the in-flight request finished"
    );
    server.await.unwrap();
}

/// A state whose time limits are short, so that tests can wait them out.
fn short_limits() -> AppState {
    let mut state = AppState {
        tournament_time_limit: Duration::from_millis(200),
        read_timeout: Duration::from_millis(200),
        ..AppState::default()
    };
    state.search_limits.max_search_time = Duration::from_millis(200);
    state
}

/// Starts a server, sends it `request` over a bare TCP connection (what no HTTP client would
/// send), and reads until the server closes the connection; returns what it answered and when.
async fn send_and_read_to_close(state: AppState, request: &[u8]) -> (String, Duration) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = start_with(state).await;
    let mut client = tokio::net::TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .unwrap();
    let started = std::time::Instant::now();
    client.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), client.read_to_end(&mut answer))
        .await
        .expect("the server closes the connection")
        .ok();
    (
        String::from_utf8_lossy(&answer).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test]
async fn a_body_that_stops_arriving_is_a_408_problem() {
    let (answer, _) = send_and_read_to_close(
        short_limits(),
        b"POST /move HTTP/1.1\r\nHost: sente\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"board\":",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(answer.contains("did not arrive within 0.2 s"), "{answer}");
}

#[tokio::test]
async fn a_request_head_that_stops_arriving_closes_the_connection() {
    let state = short_limits();
    let read_timeout = state.read_timeout;
    let (answer, after) =
        send_and_read_to_close(state, b"POST /move HTTP/1.1\r\nHost: sente\r\n").await;
    assert!(after >= read_timeout, "closed after {after:?}: {answer}");
}

#[tokio::test]
async fn shutdown_does_not_wait_forever_for_a_client_that_does_not_read() {
    use tokio::io::AsyncWriteExt;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = short_limits();
    let grace = state.shutdown_grace();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, state, async {
        stopped.await.ok();
    }));
    // Ask for the spec (tens of kilobytes) a thousand times over and read none of it: the
    // answers fill the socket's buffers, and the server is left in the middle of one.
    let client = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (_unread, mut requests) = client.into_split();
    let asking = tokio::spawn(async move {
        for _ in 0..1000 {
            if requests
                .write_all(b"GET /openapi.yaml HTTP/1.1\r\nHost: sente\r\n\r\n")
                .await
                .is_err()
            {
                break;
            }
        }
        requests
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let asked = std::time::Instant::now();
    stop.send(()).unwrap();
    tokio::time::timeout(grace + Duration::from_secs(5), server)
        .await
        .expect("the server stops once the grace period is over")
        .unwrap();
    assert!(asked.elapsed() >= grace, "it waited the grace period first");
    asking.abort();
}

/// The first whole answer in `buffer`, a 200 with a JSON body, and its length in bytes.
fn split_answer(buffer: &[u8]) -> Option<(Value, usize)> {
    let head_end = buffer.windows(4).position(|window| window == b"\r\n\r\n")? + 4;
    let head = std::str::from_utf8(&buffer[..head_end]).unwrap();
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length: "))
        .expect("a content-length")
        .parse()
        .unwrap();
    let body = buffer.get(head_end..head_end + length)?;
    Some((serde_json::from_slice(body).unwrap(), head_end + length))
}
