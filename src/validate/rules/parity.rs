//! `locale-parity`: every locale of a game against its default locale.

// A fast, seeded hasher for the maps of short strings built for every document.
use foldhash::{HashMap, HashMapExt as _};

use crate::diagnostics::Code;
use crate::diagnostics::Severity::Warning;
use crate::i18n::{Arg, Msg, msg};
use crate::json::Node;
use crate::validate::Reporter;

/// `locale-parity`: `other` must agree with the default locale's document on
/// the version, its window and the set of activity time windows. One warning
/// per pair of files, naming every difference, at the first one.
pub fn locale_parity(
    default: &Node<'_>,
    default_path: &str,
    other: &Node<'_>,
    report: &mut Reporter<'_>,
) {
    let mut differences = Vec::new();
    let mut at: Option<String> = None;
    for field in ["version", "startTime", "endTime"] {
        let (Some(a), Some(b)) = (
            default.get(field).and_then(Node::as_str),
            other.get(field).and_then(Node::as_str),
        ) else {
            continue;
        };
        if a != b {
            differences.push(msg!("parity-field", field = field, here = b, there = a));
            at.get_or_insert_with(|| format!("/{field}"));
        }
    }
    /// Each activity's time window, with its name and index.
    fn windows<'d>(doc: &'d Node<'_>) -> Vec<((&'d str, &'d str), &'d str, usize)> {
        doc.get("activities")
            .and_then(Node::as_array)
            .map(|a| {
                a.iter()
                    .enumerate()
                    .filter_map(|(i, x)| {
                        let window = (x.get("startTime")?.as_str()?, x.get("endTime")?.as_str()?);
                        Some((
                            window,
                            x.get("name").and_then(Node::as_str).unwrap_or(""),
                            i,
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
    let ours = windows(other);
    let theirs = windows(default);
    // Match windows as multisets: each of ours takes one of theirs.
    let mut remaining: HashMap<(&str, &str), Vec<usize>> = HashMap::with_capacity(theirs.len());
    for (k, (window, _, _)) in theirs.iter().enumerate() {
        remaining.entry(*window).or_default().push(k);
    }
    let mut only_here = Vec::new();
    for (window, name, i) in &ours {
        match remaining.get_mut(window).and_then(Vec::pop) {
            Some(_) => {}
            None => only_here.push((*window, *name, *i)),
        }
    }
    let mut only_there: Vec<_> = remaining
        .into_values()
        .flatten()
        .map(|k| theirs[k])
        .collect();
    only_there.sort_by_key(|(_, _, k)| *k);
    let named = |list: &[((&str, &str), &str, usize)]| {
        const SHOWN: usize = 5;
        let mut names: Vec<Msg> = list
            .iter()
            .take(SHOWN)
            .map(|((start, end), name, _)| {
                msg!("parity-window", name = *name, start = *start, end = *end)
            })
            .collect();
        if list.len() > SHOWN {
            names.push(msg!("parity-more", count = list.len() - SHOWN));
        }
        Arg::List(names, "list-comma")
    };
    if !only_here.is_empty() {
        differences.push(msg!(
            "parity-only-here",
            count = only_here.len(),
            names = named(&only_here)
        ));
        at.get_or_insert_with(|| format!("/activities/{}", only_here[0].2));
    }
    if !only_there.is_empty() {
        differences.push(msg!(
            "parity-only-there",
            count = only_there.len(),
            names = named(&only_there)
        ));
        at.get_or_insert_with(|| "/activities".to_string());
    }
    if let Some(at) = at {
        report.value(
            &at,
            Code::LocaleParity,
            Warning,
            msg!(
                "parity",
                path = default_path,
                differences = Arg::List(differences, "list-semicolon")
            ),
            Some(msg!("parity-help")),
        );
    }
}
