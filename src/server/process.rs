//! The process around a server: its logs on stderr, the URL it tells a
//! person to open, and the signals that end it.

use std::net::SocketAddr;

use tracing_subscriber::EnvFilter;

use crate::i18n::msg;

/// The URL to open: an unspecified address (`0.0.0.0`) is reachable on loopback.
pub fn browsable_url(addr: SocketAddr) -> String {
    let mut addr = addr;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    format!("http://{addr}/")
}

/// Logs go to stderr, coloured when `color`; `RUST_LOG` picks the level,
/// `info` by default.
pub fn init_logging(color: bool) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(color)
        .try_init();
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            let error = err.to_string();
            tracing::error!("{}", msg!("serve-signal", signal = "Ctrl-C", error = error));
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                let error = err.to_string();
                tracing::error!(
                    "{}",
                    msg!("serve-signal", signal = "SIGTERM", error = error)
                );
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
