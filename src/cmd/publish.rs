//! `publish`: check the data, have [`crate::publish`] make sure the built
//! site is current, read the store, plan, print or run the plan with a
//! progress bar on a terminal.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::{PlanFormat, PublishArgs};
use crate::diagnostics::Format;
use crate::i18n::msg;
use crate::publish::plan::{self, LocalFile, Plan, Stage};
use crate::publish::store::{Connection, Store, Target};
use crate::publish::{self, Execution};
use crate::root::Workspace;
use crate::site;
use crate::terminal::Bar;

/// Test-only fault injection: exit after this many uploads (see [`Execution`]).
const EXIT_AFTER_VAR: &str = "ACTIVITY_SITE_PUBLISH_EXIT_AFTER";

pub fn run(args: PublishArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let target = Target::parse(&args.to)?;
    let shown = target.to_string();
    let out = ws.out_dir(args.out.as_ref());
    let local = publish::read_site(&out, args.precompressed)?;
    ensure_current(&args, ws, &out, &local)?;
    let store = Store::open(&target, &connection(&args))?;
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
    if args.dry_run {
        print_plan(&plan, &shown, Stage::DryRun, args.format)?;
    }
    refuse_foreign(&plan, &args, &shown)?;
    if args.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    let execution = Execution {
        site: out,
        jobs: usize::from(args.jobs),
        exit_after: std::env::var(EXIT_AFTER_VAR)
            .ok()
            .and_then(|v| v.parse().ok()),
    };
    let total = plan.uploads().count() + plan.removals().count();
    let bar = Bar::new(total as u64, "{bar:30} {pos}/{len} {wide_msg}");
    let on_done = |step: &plan::Step| bar.step_named(&step.path);
    let old = remote.manifest.as_ref();
    let result = runtime.block_on(publish::execute(&store, &plan, old, &execution, &on_done));
    bar.finish();
    result.map_err(|err| err.context(msg!("publish-stopped", target = shown.as_str())))?;
    print_plan(&plan, &shown, Stage::Done, args.format)?;
    Ok(ExitCode::SUCCESS)
}

/// How to reach the store, from the flags.
fn connection(args: &PublishArgs) -> Connection {
    Connection {
        endpoint: args.endpoint.clone(),
        region: args.region.clone(),
        addressing: args.addressing,
        profile: args.profile.clone(),
    }
}

/// Refuses a plan that would take over files the tool did not publish,
/// unless `--adopt`.
fn refuse_foreign(plan: &Plan, args: &PublishArgs, shown: &str) -> anyhow::Result<()> {
    if plan.foreign.is_empty() || args.adopt {
        return Ok(());
    }
    let list: Vec<String> = plan.foreign.iter().map(|p| format!("  {p}")).collect();
    Err(anyhow::Error::new(msg!(
        "publish-foreign",
        count = plan.foreign.len(),
        target = shown,
        list = list.join("\n")
    )))
}

fn print_plan(plan: &Plan, target: &str, stage: Stage, format: PlanFormat) -> std::io::Result<()> {
    match format {
        PlanFormat::Text => super::print_out(&plan.to_text(target, stage)),
        PlanFormat::Json => super::print_out(&plan.to_json(target, stage)),
    }
}

/// Refuses a site with errors in its data, or one older than its data
/// ([`publish::current`]).
fn ensure_current(
    args: &PublishArgs,
    ws: &Workspace,
    out: &Path,
    local: &[LocalFile],
) -> anyhow::Result<()> {
    let options = super::options::check(ws);
    let root = &ws.root;
    let checked = site::check_documents(root, &options)?;
    if checked.has_errors() {
        super::report(root, &checked.diagnostics, Format::Human)?;
        return Err(anyhow::Error::new(msg!("publish-data-errors")));
    }
    publish::current::ensure_current(out, local, &checked)?;
    match &args.site_url {
        Some(url) => publish::current::ensure_site_url(out, url),
        None => Ok(()),
    }
}
