//! `publish`: make sure the built site is current, then hand it to
//! [`crate::publish`]: read the store, plan, print or run the plan with a
//! progress bar on a terminal.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use crate::cli::{PlanFormat, PublishArgs};
use crate::diagnostics::Format;
use crate::layout::{self, INDEX_PATH};
use crate::publish::plan::{self, LocalFile, Plan};
use crate::publish::store::{Connection, Store, Target};
use crate::publish::{self, Execution};
use crate::site;
use crate::validate;

/// Test-only fault injection: exit after this many uploads (see [`Execution`]).
const EXIT_AFTER_VAR: &str = "ACTIVITY_SITE_PUBLISH_EXIT_AFTER";

pub fn run(args: PublishArgs) -> anyhow::Result<ExitCode> {
    let target = Target::parse(&args.to)?;
    let out = args.common.out_dir(args.out.as_ref());
    let local = publish::read_site(&out, args.precompressed)?;
    ensure_current(&args, &out, &local)?;

    let store = Store::open(
        &target,
        &Connection {
            endpoint: args.endpoint.clone(),
            region: args.region.clone(),
            addressing: args.addressing,
            profile: args.profile.clone(),
        },
    )?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let options = plan::Options {
        precompressed: args.precompressed,
        delete: args.delete,
        adopt: args.adopt,
        verify: args.verify,
    };
    let remote = runtime.block_on(publish::survey(&store, &local, &options))?;
    let plan = Plan::new(&local, &remote, &options);
    let shown = target.to_string();
    if args.dry_run {
        print_plan(&plan, &shown, true, args.format)?;
    }
    if !plan.foreign.is_empty() && !args.adopt {
        let list: Vec<String> = plan.foreign.iter().map(|p| format!("  {p}")).collect();
        anyhow::bail!(
            "{} object{} under {shown} {} not created by activity-site and would be overwritten:\n{}\nhelp: publish to an empty prefix, remove them, or pass --adopt to overwrite them and manage them from now on",
            plan.foreign.len(),
            if plan.foreign.len() == 1 { "" } else { "s" },
            if plan.foreign.len() == 1 { "is" } else { "are" },
            list.join("\n")
        );
    }
    if args.dry_run {
        return Ok(ExitCode::SUCCESS);
    }

    let total = plan.uploads().count() + plan.removals().count();
    let bar = super::progress_bar(total as u64, "{bar:30} {pos}/{len} {wide_msg}");
    let exit_after = std::env::var(EXIT_AFTER_VAR)
        .ok()
        .and_then(|v| v.parse().ok());
    let execution = Execution {
        site: out.clone(),
        jobs: usize::from(args.jobs),
        exit_after,
    };
    let result = runtime.block_on(publish::execute(
        &store,
        &plan,
        remote.manifest.as_ref(),
        &execution,
        &|step| {
            bar.set_message(step.path.clone());
            bar.inc(1);
        },
    ));
    bar.finish_and_clear();
    if let Err(err) = result {
        return Err(err.context(format!(
            "the publish to {shown} stopped before it finished; objects already there are consistent\nhelp: run the same command again: it uploads only what is still missing"
        )));
    }
    print_plan(&plan, &shown, false, args.format)?;
    Ok(ExitCode::SUCCESS)
}

fn print_plan(plan: &Plan, target: &str, dry_run: bool, format: PlanFormat) -> std::io::Result<()> {
    match format {
        PlanFormat::Text => super::print_out(&plan.to_text(target, dry_run)),
        PlanFormat::Json => super::print_out(&plan.to_json(target, dry_run)),
    }
}

/// Refuses a site with errors in its data, or one older than its data: the
/// activity documents of a fresh build must be the site's, byte for byte,
/// and the site's index must name exactly those files with their sha256.
fn ensure_current(args: &PublishArgs, out: &Path, local: &[LocalFile]) -> anyhow::Result<()> {
    let options = validate::Options {
        now: args.common.now,
    };
    let root = &args.common.root;
    let checked = site::check(root, &options, true)?;
    if checked.has_errors() {
        super::check::report(root, &checked.diagnostics, Format::Human)?;
        anyhow::bail!(
            "the data has errors; nothing was published\nhelp: fix them, run `activity-site build`, then publish"
        );
    }
    let rebuild = || {
        format!(
            "help: run `activity-site build --out {}`, then publish",
            out.display()
        )
    };
    let on_disk: BTreeMap<&str, &LocalFile> = local.iter().map(|f| (f.path.as_str(), f)).collect();
    let fresh = site::api_files(&site::outputs(&checked));
    for file in &fresh {
        let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&file.bytes));
        match on_disk.get(file.path.as_str()) {
            Some(f) if f.sha256 == sha => {}
            Some(_) => anyhow::bail!(
                "the site in `{}` is older than the data: {} differs from a fresh build\n{}",
                out.display(),
                file.path,
                rebuild()
            ),
            None => anyhow::bail!(
                "the site in `{}` is older than the data: it has no {}\n{}",
                out.display(),
                file.path,
                rebuild()
            ),
        }
    }
    for path in on_disk.keys() {
        if layout::is_activity_document(path) && !fresh.iter().any(|f| f.path == *path) {
            anyhow::bail!(
                "the site in `{}` is older than the data: {path} is no longer built\n{}",
                out.display(),
                rebuild()
            );
        }
    }
    check_index(out, &on_disk).map_err(|err| anyhow::anyhow!("{err}\n{}", rebuild()))
}

/// The site's index must name files of the site with their current sha256.
fn check_index(out: &Path, on_disk: &BTreeMap<&str, &LocalFile>) -> anyhow::Result<()> {
    let text = std::fs::read(out.join(INDEX_PATH)).map_err(|err| {
        anyhow::anyhow!(
            "the site in `{}` has no readable {INDEX_PATH}: {err}",
            out.display()
        )
    })?;
    let index = layout::Index::parse(&text)
        .map_err(|err| anyhow::anyhow!("the site's {INDEX_PATH} does not parse: {err}"))?;
    for file in index.files() {
        let path = file.relative_path();
        match on_disk.get(path) {
            Some(f) if f.sha256 == file.sha256 => {}
            _ => anyhow::bail!(
                "the site's {INDEX_PATH} does not match its files: {path} is missing or differs"
            ),
        }
    }
    Ok(())
}
