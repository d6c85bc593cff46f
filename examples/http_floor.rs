//! The HTTP floor for `scripts/load --http`: a minimal server on the same
//! stack as `hookrun serve --http` (axum on hyper, one current-thread Tokio
//! runtime) that reads each POST body and answers `200` with `{}`. No
//! config, no event parsing, no hooks: what serving a request costs at all,
//! measured with the same load generator as hookrun to give the ratio.
//!
//!     cargo build --release --example http_floor
//!     target/release/examples/http_floor 127.0.0.1:0

use axum::Router;
use axum::body::Bytes;
use axum::http::header::CONTENT_TYPE;
use axum::routing::post;

fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&addr).await?;
        // The line `serve --http` prints when it is ready, so one reader serves both.
        eprintln!("listening on http://{}", listener.local_addr()?);
        let answer = post(|_body: Bytes| async { ([(CONTENT_TYPE, "application/json")], "{}") });
        axum::serve(listener, Router::new().fallback(answer)).await
    })
}
