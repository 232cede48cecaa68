//! Where a document rule reports: the pointer of the document or of one of
//! its activities, shared by the families of rules ([`super::document`](mod@super::document),
//! [`super::text`]) so that neither imports the other; and the one reading
//! of a document's activities that the rules across files pair by their
//! windows ([`super::parity`], [`super::ids`]).

use crate::json::Node;

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

/// A window as written: `startTime` and `endTime`.
pub(super) type Window<'d> = (&'d str, &'d str);

/// One activity of a document, as the rules across files read it.
pub(super) struct Read<'d> {
    pub(super) index: usize,
    pub(super) node: &'d Node<'d>,
    pub(super) window: Option<Window<'d>>,
    /// `None` when the activity has no `id` member at all (a member that is
    /// no id is the schema's error, not a missing id).
    pub(super) id: Option<Option<&'d str>>,
    pub(super) name: &'d str,
}

/// The activities of the document `root` that are objects, in order.
pub(super) fn activities<'d>(root: &'d Node<'d>) -> Vec<Read<'d>> {
    let Some(activities) = root.get("activities").and_then(Node::as_array) else {
        return Vec::new();
    };
    activities
        .iter()
        .enumerate()
        .filter(|(_, node)| node.as_object().is_some())
        .map(|(index, node)| {
            let text = |key| node.get(key).and_then(Node::as_str);
            Read {
                index,
                node,
                window: text("startTime").zip(text("endTime")),
                id: node.get("id").map(Node::as_str),
                name: text("name").unwrap_or(""),
            }
        })
        .collect()
}
