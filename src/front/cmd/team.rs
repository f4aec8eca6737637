//! `autofix merge-driver`, `resolve` and `doctor`: the team commands. The driver reports on
//! stderr (git shows it) and exits with git's statuses, 255 for anything unexpected.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::io::git::{Git, Scope};
use crate::merge::Labels;
use crate::merge::doctor;
use crate::merge::driver::{self, Environment, Request};
use crate::merge::exported;
use crate::merge::resolve;
use crate::render::Render as _;
use anyhow::Context as _;

use crate::front::cli::{DiagnosticsFormat, DoctorArgs, MergeDriverArgs, ResolveArgs, TextOrJson};
use crate::front::context::{Context, eprint, print, status};
use crate::io::merge_setup;

pub(crate) fn merge_driver(context: &Context, args: MergeDriverArgs) -> anyhow::Result<ExitCode> {
    if args.install || args.uninstall {
        return setup(context, &args);
    }
    let (Some(base), Some(ours), Some(theirs)) = (args.base, args.ours, args.theirs) else {
        anyhow::bail!("BASE, OURS and THEIRS are required");
    };
    if args.exported {
        let labels = [args.ours_label, args.base_label, args.theirs_label];
        return Ok(merge_exported(
            [base, ours, theirs],
            labels,
            args.marker_size,
            args.path,
        ));
    }
    let request = Request {
        base,
        ours,
        theirs,
        path: args.path,
        labels: Labels {
            base: driver::label(args.base_label),
            ours: driver::label(args.ours_label),
            theirs: driver::label(args.theirs_label),
        },
        marker_size: args.marker_size,
        accept_one_sided_edits: args.accept_one_sided_edits,
    };
    let git = Git::new(
        context
            .cwd()
            .map_or_else(|_| PathBuf::from("."), std::path::Path::to_path_buf),
    );
    let env = Environment::from_process(&git, &request.labels);
    let outcome = driver::run(&request, &env);
    eprint(&format!("autofix merge-driver: {}", outcome.report));
    Ok(ExitCode::from(outcome.status.exit_code()))
}

/// The driver for exported copies: git's statuses (0 merged, 1 conflict in the people's
/// text, 255 could not merge).
fn merge_exported(
    [base, ours, theirs]: [PathBuf; 3],
    labels: [Option<String>; 3],
    marker_size: usize,
    path: Option<String>,
) -> ExitCode {
    let shown = path.unwrap_or_else(|| ours.display().to_string());
    let result = (|| -> anyhow::Result<exported::Merged> {
        let read = |path: &PathBuf| {
            crate::io::limits::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))
        };
        let texts = [read(&base)?, read(&ours)?, read(&theirs)?];
        let labels = [0, 1, 2].map(|i| {
            driver::label(labels[i].clone()).unwrap_or_else(|| ["ours", "base", "theirs"][i].into())
        });
        let dir = ours.parent().filter(|p| !p.as_os_str().is_empty());
        let merged = exported::merge(
            dir.unwrap_or(std::path::Path::new(".")),
            [&texts[0], &texts[1], &texts[2]],
            [&labels[0], &labels[1], &labels[2]],
            marker_size,
        )?;
        crate::io::atomic::resolve(&ours)?.write(merged.text.as_bytes())?;
        Ok(merged)
    })();
    match result {
        Ok(merged) if merged.conflicts == 0 => {
            eprint(&format!(
                "autofix merge-driver: {shown}: merged; run `autofix export` to regenerate its rules\n"
            ));
            ExitCode::SUCCESS
        }
        Ok(merged) => {
            eprint(&format!(
                "autofix merge-driver: {shown}: {} in the text around the rules (the rules \
                 themselves never conflict); resolve it, then run `autofix export`\n",
                crate::report::text::counted(merged.conflicts, "conflict")
            ));
            ExitCode::from(1)
        }
        Err(error) => {
            eprint(&format!(
                "autofix merge-driver: {shown}: cannot merge: {}\n",
                crate::front::context::describe(&error)
            ));
            ExitCode::from(255)
        }
    }
}

fn setup(context: &Context, args: &MergeDriverArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let cwd = context.cwd()?;
    let scope = if args.global {
        Scope::Global
    } else {
        Scope::Local
    };
    let exported = crate::export::default_paths(&workspace.root);
    let (done, verb) = if args.install {
        (
            merge_setup::install(cwd, &workspace.rules_file, &exported, scope),
            "Installed",
        )
    } else {
        (
            merge_setup::uninstall(cwd, &workspace.rules_file, &exported, scope),
            "Uninstalled",
        )
    };
    // The files it names (`.gitattributes`, the config) relative to where the user is.
    let done = done.map_err(|error| error.relative_to(&[cwd.to_path_buf()]));
    let setup = done.context(if args.install {
        "cannot install the merge driver"
    } else {
        "cannot uninstall the merge driver"
    })?;
    let mut out = if setup.changed() {
        format!(
            "{verb} the autofix merge driver ({} config) for {}:\n",
            scope.name(),
            workspace.shown
        )
    } else {
        format!(
            "Nothing to do: the autofix merge driver is already {} ({} config).\n",
            if args.install {
                "installed"
            } else {
                "uninstalled"
            },
            scope.name()
        )
    };
    for step in &setup.steps {
        out.push_str(&format!("  {}\n", step.message));
    }
    print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn resolve(context: &Context, args: ResolveArgs) -> anyhow::Result<ExitCode> {
    // Relative to the current directory when below it, so messages name it as the user does
    // (and the file is read from that same directory).
    let path = match args.path {
        Some(path) => PathBuf::from(context.shown(&path)),
        None => PathBuf::from(context.workspace()?.shown),
    };
    let request = resolve::Request {
        path,
        marker_size: args.marker_size,
        accept_one_sided_edits: args.accept_one_sided_edits,
        drop_work_tree_rules: args.drop_work_tree_rules,
    };
    let outcome = resolve::resolve(&request)?;
    print(&match args.format {
        TextOrJson::Text => outcome.to_text(context.stdout_painter()),
        TextOrJson::Json => outcome.to_json(),
    })?;
    Ok(status(!outcome.merged.is_clean()))
}

pub(crate) fn doctor(context: &Context, args: DoctorArgs) -> anyhow::Result<ExitCode> {
    let workspace = context.workspace()?;
    let report = doctor::doctor(&doctor::Request {
        workspace: &workspace,
        path_var: crate::io::settings::get().path.clone(),
        home: crate::io::settings::get().home.clone(),
        ci: crate::io::settings::get().ci,
    });
    print(&match args.format {
        DiagnosticsFormat::Text => report.to_text(context.stdout_painter()),
        DiagnosticsFormat::Json => report.to_json(),
        DiagnosticsFormat::Github => crate::report::diagnostics::github_of(&report.diagnostics()),
        DiagnosticsFormat::Sarif => crate::report::sarif::render(
            &report.diagnostics(),
            "autofix-doctor/",
            &workspace.repository_root(),
            &workspace.rules_file,
        ),
    })?;
    Ok(status(!report.ok()))
}
