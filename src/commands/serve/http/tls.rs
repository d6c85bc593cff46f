//! `serve --http --tls-cert PEM --tls-key PEM`: the certificate chain and
//! its key read into a rustls server configuration (the ring provider,
//! rustls' safe default protocol versions, HTTP/1.1 by ALPN). Whatever is
//! wrong with either file ends the server before it listens, naming the
//! file.

use std::path::Path;
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

use crate::error::Error;

/// The TLS side of every connection, from the two PEM files.
///
/// # Errors
/// A file cannot be read, holds no certificate or key, or the key does not
/// belong to the certificate.
pub(super) fn acceptor(cert: &Path, key: &Path) -> Result<TlsAcceptor, Error> {
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(Iterator::collect::<Result<Vec<_>, _>>)
        .map_err(|e| unusable("--tls-cert", cert, &e))?;
    if chain.is_empty() {
        return Err(Error::Usage(format!(
            "--tls-cert `{}` holds no PEM certificate (`-----BEGIN CERTIFICATE-----`)",
            cert.display()
        )));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| unusable("--tls-key", key, &e))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::Internal(format!("TLS cannot be set up: {e}")))?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            Error::Usage(format!(
                "--tls-key `{}` cannot serve --tls-cert `{}`: {e}",
                key.display(),
                cert.display()
            ))
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

fn unusable(flag: &str, path: &Path, e: &rustls_pki_types::pem::Error) -> Error {
    let why = match e {
        rustls_pki_types::pem::Error::Io(io) => io.to_string(),
        rustls_pki_types::pem::Error::NoItemsFound => "no PEM item of that kind in it".to_owned(),
        other => other.to_string(),
    };
    Error::Usage(format!("{flag} `{}` cannot be used: {why}", path.display()))
}
