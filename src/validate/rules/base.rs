//! Where a document rule reports: the pointer of the document or of one of
//! its activities, shared by the families of rules ([`super::document`](mod@super::document),
//! [`super::text`]) so that neither imports the other.

/// The pointer of the document (`None`) or of one activity, written out only
/// when there is something to report.
pub(super) struct Base(pub(super) Option<usize>);

impl std::fmt::Display for Base {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(i) => write!(f, "/activities/{i}"),
            None => Ok(()),
        }
    }
}
