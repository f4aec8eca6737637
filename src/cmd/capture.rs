//! `autofix hook user-prompt` and `autofix reflect`: the commands that catch corrections.
//! Each converts its arguments, calls the library, prints.

use std::process::ExitCode;

use crate::capture::{prompt, reflect};
use crate::hook::Agent;
use crate::rules::{self, listing};
use anyhow::Context as _;

use crate::cli::{HookCommand, PromptAgent, ReflectArgs, TextOrJson};
use crate::cmd::{Context, print};

fn agent(agent: PromptAgent) -> Agent {
    match agent {
        PromptAgent::Claude => Agent::Claude,
        PromptAgent::Codex => Agent::Codex,
        PromptAgent::Gemini => Agent::Gemini,
    }
}

/// A hook never blocks the prompt: whatever happens, exit 0; unreadable input is no
/// correction.
pub(crate) fn hook(command: HookCommand) -> ExitCode {
    match command {
        HookCommand::UserPrompt(args) => {
            let cap = crate::limits::DEFAULT_MAX_FILE_BYTES;
            if let Ok(input) = crate::limits::read_capped(std::io::stdin().lock(), cap)
                && let Some(output) = prompt::respond(agent(args.agent), &input)
            {
                let _ = print(&output);
            }
            ExitCode::SUCCESS
        }
    }
}

pub(crate) fn reflect(context: &Context, args: ReflectArgs) -> anyhow::Result<ExitCode> {
    let home = std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .context("HOME is not set: it locates the agents' transcripts")?;
    let workspace = context.workspace()?;
    let source = rules::read(&workspace.rules_file)?;
    let document = match &source {
        Some(source) => Some(rules::parse_tolerant(&workspace.rules_file, source)?),
        None => None,
    };
    let query = listing::Query::default();
    let listing = listing::build(String::new(), document.as_ref(), &query);
    let mut agents: Vec<Agent> = Vec::new();
    for named in args.agents.into_iter().map(agent) {
        if !agents.contains(&named) {
            agents.push(named);
        }
    }
    if agents.is_empty() {
        agents = vec![Agent::Claude, Agent::Codex, Agent::Gemini];
    }
    let request = reflect::Request {
        home: home.into(),
        root: workspace.root,
        agents,
        since: args.since,
        learned: listing
            .rules
            .iter()
            .map(|rule| rule.instruction.to_string())
            .collect(),
    };
    let report = reflect::run(&request);
    print(&match args.format {
        TextOrJson::Text => report.to_text(),
        TextOrJson::Json => report.to_json(),
    })?;
    Ok(ExitCode::SUCCESS)
}
