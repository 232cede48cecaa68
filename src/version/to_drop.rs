//! What `version new --drop` (the agents' `new_version` `drop`) names: the
//! places, in every locale, of the activities to leave behind.
//!
//! A value names activities by id or by name:
//! - an activity's **id** (`sr-4.6-03`) names it in every locale that holds
//!   that id, wherever it stands in each file: the id is the same in every
//!   locale, so nothing is guessed (refused when a locale without the id
//!   lists an activity without id at its times: its twin, still to be given
//!   the id by `check --fix`, would stay);
//! - otherwise a **name** in any locale names that activity, and its
//!   counterpart in each other locale is the activity at the same place with
//!   the same times (refused, naming it, when a locale has none: the files'
//!   orders differ, and the id is the way to say which).
//!
//! A value that is the id of one activity and the name of another is
//! refused rather than read one way: ids are lowercase and URL-safe and
//! names seldom are, but a name may be written that way (`limited-warp`),
//! and guessing wrong would drop a running activity from every locale. The
//! refusal says how to name each one without doubt (the first by one of its
//! names, the other by its id). A value that is the id and also a name of
//! the same activity names that activity.

use std::collections::BTreeSet;

use indexmap::IndexMap;

use crate::i18n::{self, Arg, msg};
use crate::model::{Activity, ActivityDocument};

use super::{NewVersion, Refusal};

/// Each locale's current document, in the registry's order.
pub(super) type Currents<'d> = [(&'d String, &'d ActivityDocument)];

/// Where an activity stands: its locale's index in [`Currents`], and its
/// index among that locale's activities.
type Place = (usize, usize);

impl NewVersion<'_> {
    /// The places (indexes into each locale's activities, in the order of
    /// `currents`) of the activities the `drop` values name, each value as
    /// the module says; refuses a value that names nothing, names two
    /// activities (an id and a name), is an id a locale's twin still lacks,
    /// or names by name an activity whose counterpart in another locale
    /// cannot be told.
    pub(super) fn to_drop(&self, currents: &Currents<'_>) -> Result<Vec<BTreeSet<usize>>, Refusal> {
        let mut places = vec![BTreeSet::new(); currents.len()];
        for value in &self.next.drop {
            for (locale, index) in self.named(currents, value)? {
                places[locale].insert(index);
            }
        }
        Ok(places)
    }

    /// The places of the activity one `value` names.
    fn named(&self, currents: &Currents<'_>, value: &str) -> Result<Vec<Place>, Refusal> {
        let by_id = places_where(currents, |a| a.id.as_deref() == Some(value));
        // A name of the activity whose id it is names the same activity.
        let another_name = |a: &Activity| a.name == value && a.id.as_deref() != Some(value);
        if !by_id.is_empty() && !places_where(currents, another_name).is_empty() {
            let (locale, index) = by_id[0];
            return Err(Refusal::Request(msg!(
                "version-drop-both",
                value = value,
                name = currents[locale].1.activities[index].name.as_str(),
                others = listed(currents, another_name).1
            )));
        }
        if !by_id.is_empty() {
            return match id_missing(currents, value, &by_id) {
                Some(refusal) => Err(refusal),
                None => Ok(by_id),
            };
        }
        let by_name = places_where(currents, |a| a.name == value);
        if by_name.is_empty() {
            let (count, candidates) = listed(currents, |a| *a.end_time > self.now);
            return Err(Refusal::Request(msg!(
                "version-drop-unknown",
                name = value,
                game = self.game.id.as_str(),
                count = count,
                candidates = candidates
            )));
        }
        with_counterparts(currents, value, &by_name)
    }
}

/// Why the activity with the id `id` (at `by_id`) cannot be dropped by
/// it: a locale that does not hold the id lists an activity without id at
/// its times (its twin, waiting for `check --fix`), which would be carried
/// while the others are left behind.
fn id_missing(currents: &Currents<'_>, id: &str, by_id: &[Place]) -> Option<Refusal> {
    let (locale, index) = by_id[0];
    let a = &currents[locale].1.activities[index];
    let twin = places_where(currents, |b| {
        b.id.is_none() && b.start_time == a.start_time && b.end_time == a.end_time
    })
    .into_iter()
    .find(|(other, _)| by_id.iter().all(|(held, _)| held != other))?;
    let (other, index) = twin;
    Some(Refusal::Request(msg!(
        "version-drop-id-missing",
        id = id,
        locale = currents[other].0.as_str(),
        name = currents[other].1.activities[index].name.as_str()
    )))
}

/// The places of the activities of `currents` that `is` holds.
fn places_where(currents: &Currents<'_>, is: impl Fn(&Activity) -> bool) -> Vec<Place> {
    let mut places = Vec::new();
    for (locale, (_, doc)) in currents.iter().enumerate() {
        for (index, a) in doc.activities.iter().enumerate() {
            if is(a) {
                places.push((locale, index));
            }
        }
    }
    places
}

/// The places `name` names (`by_name`), each with its counterpart in every
/// locale: the activity at the same place with the same times. Refuses one
/// without, naming it and, when it has an id, the id that names it
/// everywhere.
fn with_counterparts(
    currents: &Currents<'_>,
    name: &str,
    by_name: &[Place],
) -> Result<Vec<Place>, Refusal> {
    let mut places = Vec::new();
    for &(locale, index) in by_name {
        let a = &currents[locale].1.activities[index];
        for (other, (other_locale, doc)) in currents.iter().enumerate() {
            match doc.activities.get(index) {
                Some(b) if b.start_time == a.start_time && b.end_time == a.end_time => {
                    places.push((other, index));
                }
                _ => {
                    return Err(Refusal::Request(msg!(
                        "version-drop-no-counterpart",
                        name = name,
                        locale = currents[locale].0.as_str(),
                        other = other_locale.as_str(),
                        has_id = if a.id.is_some() { "yes" } else { "no" },
                        id = a.id.as_deref().unwrap_or_default()
                    )));
                }
            }
        }
    }
    Ok(places)
}

/// The activities of `currents` that `is` holds, once each, and how many:
/// one with an id as the id and its names in every locale (`` `sr-4.6-03`
/// (Sparkle Warp, 花火跃迁) ``), one without by its name, saying how it gets
/// one.
fn listed(currents: &Currents<'_>, is: impl Fn(&Activity) -> bool) -> (usize, Arg) {
    let mut with_id: IndexMap<&str, Vec<&str>> = IndexMap::new();
    let mut without_id: Vec<&str> = Vec::new();
    for (_, doc) in currents {
        for a in doc.activities.iter().filter(|a| is(a)) {
            match a.id.as_deref() {
                Some(id) => {
                    let names = with_id.entry(id).or_default();
                    if !names.contains(&a.name.as_str()) {
                        names.push(&a.name);
                    }
                }
                None => without_id.push(&a.name),
            }
        }
    }
    let items: Vec<_> = with_id
        .iter()
        .map(|(id, names)| {
            msg!(
                "version-drop-candidate",
                id = *id,
                names = i18n::list(names)
            )
        })
        .chain(
            without_id
                .iter()
                .map(|name| msg!("version-drop-candidate-no-id", name = *name)),
        )
        .collect();
    (items.len(), Arg::List(items, "list-semicolon"))
}
