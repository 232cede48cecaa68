//! What the agents' tools tell of an announcements board they wrote: its
//! part of the agents' tools (`data_mcp::per_locale`).

use activity_site_check::i18n::{Msg, msg};

use super::model::Announcements;

/// What a write of an announcements board changed, in one sentence, and
/// whether the content changed under the same `id` (the one mistake
/// clients cannot survive: they never show the new text).
pub fn written(before: Option<&[u8]>, canonical: &str) -> Msg {
    let after: Option<Announcements> = serde_json::from_str(canonical).ok();
    let before: Option<Announcements> = before.and_then(|b| serde_json::from_slice(b).ok());
    match (before, after) {
        (_, None) => msg!("agent-written"),
        (None, Some(after)) => msg!(
            "agent-board-new",
            id = after.id,
            count = after.announcements.len()
        ),
        (Some(before), Some(after)) if before.announcements == after.announcements => msg!(
            "agent-board-unchanged",
            before = before.id,
            after = after.id
        ),
        (Some(before), Some(after)) if after.id <= before.id => msg!(
            "agent-board-same-id",
            before = before.id,
            after = after.id,
            next = before.id + 1
        ),
        (Some(before), Some(after)) => {
            msg!("agent-board-raised", before = before.id, after = after.id)
        }
    }
}
