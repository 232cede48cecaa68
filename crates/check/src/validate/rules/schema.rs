//! The tree's mirror of the built-in activity schema ([`schema_valid`]) and
//! the keys a document and an activity may have.

use crate::json::Node;

/// The keys an activity document may have (`schema/activity.schema.json`):
/// what [`schema_valid`] allows and what unknown-key hints suggest.
pub const DOCUMENT_KEYS: &[&str] = &[
    "$schema",
    "version",
    "versionName",
    "startTime",
    "endTime",
    "cover",
    "activities",
];

/// The keys an activity may have.
pub const ACTIVITY_KEYS: &[&str] = &[
    "id",
    "name",
    "kind",
    "description",
    "startTime",
    "endTime",
    "cover",
];

/// Whether the built-in activity schema accepts the document, decided on
/// the tree: the same types, required and allowed keys, non-empty strings and
/// time pattern as `schema/activity.schema.json`. Only the verdict: the
/// diagnostics come from the schema itself.
pub fn schema_valid(doc: &Node<'_>) -> bool {
    fn object_ok(
        node: &Node<'_>,
        allowed: &[&str],
        required: &[&str],
        field_ok: impl Fn(&str, &Node<'_>) -> bool,
    ) -> bool {
        let Some(members) = node.as_object() else {
            return false;
        };
        required.iter().all(|r| members.iter().any(|m| m.key == *r))
            && members
                .iter()
                .all(|m| allowed.contains(&m.key.as_ref()) && field_ok(&m.key, &m.value))
    }
    fn non_empty(node: &Node<'_>) -> bool {
        node.as_str().is_some_and(|s| !s.is_empty())
    }
    fn time(node: &Node<'_>) -> bool {
        node.as_str()
            .is_some_and(|s| super::dates::has_time_shape(s.as_bytes()))
    }
    let activity_ok = |activity: &Node<'_>| {
        object_ok(
            activity,
            ACTIVITY_KEYS,
            &["name", "description", "startTime", "endTime"],
            |key, value| match key {
                "name" => non_empty(value),
                "id" => value
                    .as_str()
                    .is_some_and(crate::model::ids::is_activity_id),
                "startTime" | "endTime" => time(value),
                _ => value.as_str().is_some(),
            },
        )
    };
    object_ok(
        doc,
        DOCUMENT_KEYS,
        &[
            "version",
            "versionName",
            "startTime",
            "endTime",
            "activities",
        ],
        |key, value| match key {
            "version" | "versionName" => non_empty(value),
            "startTime" | "endTime" => time(value),
            "activities" => value.as_array().is_some_and(|a| a.iter().all(activity_ok)),
            _ => value.as_str().is_some(),
        },
    )
}
