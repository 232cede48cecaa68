//! The one digest of several inputs every key, fingerprint and stable id
//! of the builder is made of: SHA-256 over the parts in order, each
//! prefixed by its length (eight bytes, little-endian), so that
//! `("ab", "c")` and `("a", "bc")` differ. Imports nothing of the folder.

use sha2::{Digest as _, Sha256};

/// A digest of parts being put together ([`Parts::put`]).
#[derive(Clone, Default)]
pub struct Parts(Sha256);

impl Parts {
    /// Adds `part`, prefixed by its length.
    pub fn put(&mut self, part: &[u8]) -> &mut Self {
        self.0.update((part.len() as u64).to_le_bytes());
        self.0.update(part);
        self
    }

    /// The digest of the parts put so far.
    pub fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

/// The digest of `parts` ([`Parts`]).
pub fn digest_of<'p>(parts: impl IntoIterator<Item = &'p [u8]>) -> [u8; 32] {
    let mut digest = Parts::default();
    for part in parts {
        digest.put(part);
    }
    digest.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_told_apart_by_their_lengths() {
        assert_ne!(digest_of([&b"ab"[..], b"c"]), digest_of([&b"a"[..], b"bc"]));
        assert_ne!(digest_of([&b""[..]]), digest_of([]));
        let mut put = Parts::default();
        put.put(b"ab").put(b"c");
        assert_eq!(put.finish(), digest_of([&b"ab"[..], b"c"]));
    }
}
