//! `ledger --html FILE`: the ledger as one page for people, as `cargo build --timings`
//! writes one. Self-contained: inline CSS and inline SVG, no script, no font or image
//! from elsewhere, so it opens from disk, offline, in any browser, and prints. The charts
//! carry their numbers in `<title>` tooltips and the tables beside them, so nothing needs
//! JavaScript.

use std::fmt::Write as _;

/// What the page shows: the ledger's figures, its timeline and its rules.
pub(crate) struct Ledger<'a> {
    /// The rules file, as the ledger names it.
    pub path: &'a str,
    pub since: Option<&'a str>,
    /// When the page was written (UTC).
    pub written: &'a str,
    pub corrections: usize,
    pub repeats: usize,
    pub repeat_rate: f64,
    pub catches: usize,
    pub caught_first: Option<f64>,
    /// The prompt hook's notes given and answered by the agent.
    pub notes_given: usize,
    pub notes_answered: usize,
    /// Of the repeats, those the agent judged answering a note.
    pub repeats_by_agent: usize,
    /// `day` or `week`.
    pub unit: &'a str,
    pub periods: Vec<Period<'a>>,
    /// The events older than the first period, not charted; `start` is that period's.
    pub earlier: Option<Period<'a>>,
    /// In the ledger's order (most repeated first, then most caught).
    pub rules: Vec<Rule<'a>>,
}

pub(crate) struct Period<'a> {
    /// `YYYY-MM-DD`.
    pub start: &'a str,
    pub corrections: usize,
    pub repeats: usize,
    pub catches: usize,
}

pub(crate) struct Rule<'a> {
    /// `12`, or `org:12` for an imported rule.
    pub id: String,
    pub category: &'a str,
    pub instruction: &'a str,
    pub active: bool,
    pub repeats: usize,
    pub catches: usize,
    /// Restated twice with no check, or restated although it has one.
    pub needs_check: bool,
    pub check_misses: bool,
}

/// The colours of the two kinds of break, the rate, and the page.
const CAUGHT: &str = "#1b7f4b";
const REPEATED: &str = "#c4431d";
const RATE: &str = "#2459a8";

const STYLE: &str = "
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #dfe3ea; --panel: #f6f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1000px; margin: 0 auto; padding: 28px 24px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 36px 0 4px; }
p.sub, p.note { color: var(--muted); margin: 0 0 8px; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--panel); padding: 1px 5px; border-radius: 4px; }
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; margin: 20px 0 4px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; }
.card .value { font-size: 28px; font-weight: 650; line-height: 1.2; }
.card .label { color: var(--muted); font-size: 13px; }
.legend { display: flex; gap: 18px; color: var(--muted); font-size: 13px; margin: 6px 0 0; }
.legend i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 6px; vertical-align: -1px; }
svg.chart { display: block; width: 100%; height: auto; margin-top: 8px; }
svg.chart text { font: 11px system-ui, sans-serif; fill: var(--muted); }
svg.chart .grid { stroke: var(--line); stroke-width: 1; }
.rankings { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; }
table { width: 100%; border-collapse: collapse; margin-top: 8px; font-size: 14px; }
th { text-align: left; color: var(--muted); font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; border-bottom: 2px solid var(--line); padding: 6px 8px; }
td { border-bottom: 1px solid var(--line); padding: 7px 8px; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; width: 1%; }
td.rank { color: var(--muted); width: 1%; }
td .id { font-weight: 650; margin-right: 6px; }
td .cat { color: var(--muted); font-size: 12px; margin-right: 6px; }
td .old { color: var(--muted); font-size: 12px; }
td .act { color: #c4431d; font-size: 12px; font-weight: 600; }
.bar { display: block; height: 6px; border-radius: 3px; margin-top: 5px; }
.empty { color: var(--muted); font-style: italic; padding: 10px 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
@media (max-width: 760px) { .cards { grid-template-columns: 1fr 1fr; } .rankings { grid-template-columns: 1fr; } }
";

/// The page, whole.
pub(crate) fn render(ledger: &Ledger<'_>) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>autofix ledger: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(ledger.path)
    );
    header(&mut out, ledger);
    cards(&mut out, ledger);
    breaks_chart(&mut out, ledger);
    rate_chart(&mut out, ledger);
    rankings(&mut out, ledger);
    let _ = write!(
        out,
        "<footer>Written by <code>autofix ledger --html</code> on {}. Everything here was read on this machine: the rules file's git history, the agents' local transcripts and the receipts in <code>.git/autofix/</code>.</footer>\n</main>\n</body>\n</html>\n",
        escape(ledger.written)
    );
    out
}

fn header(out: &mut String, ledger: &Ledger<'_>) {
    let _ = write!(
        out,
        "<h1>Do the rules hold?</h1>\n<p class=\"sub\">Ledger of <code>{}</code>",
        escape(ledger.path)
    );
    // The span shown: the first period to the last (corrections and catches alike).
    let span = ledger.periods.first().zip(ledger.periods.last());
    match span {
        Some((first, last)) => {
            let end = if ledger.unit == "week" {
                format!("the week of {}", last.start)
            } else {
                last.start.to_string()
            };
            let _ = write!(
                out,
                ", {} to {}: {} corrections read, {} rule breaks caught first",
                escape(first.start),
                escape(&end),
                ledger.corrections,
                ledger.catches
            );
        }
        None => out.push_str(": no corrections and no catches found"),
    }
    if let Some(since) = ledger.since {
        let _ = write!(out, " (since {})", escape(since));
    }
    if let Some(earlier) = &ledger.earlier {
        let catches = match earlier.catches {
            1 => "1 catch".to_string(),
            n => format!("{n} catches"),
        };
        let _ = write!(
            out,
            "; {} and {catches} before {}, counted but not charted",
            crate::report::text::counted(earlier.corrections, "correction"),
            escape(earlier.start)
        );
    }
    out.push_str(".</p>\n");
}

fn cards(out: &mut String, ledger: &Ledger<'_>) {
    let caught_first = ledger.caught_first.map_or_else(|| "–".to_string(), percent);
    let cards = [
        (
            "corrections",
            ledger.corrections.to_string(),
            "corrections the user typed".to_string(),
        ),
        (
            "repeat-rate",
            if ledger.corrections == 0 {
                "–".to_string()
            } else {
                percent(ledger.repeat_rate)
            },
            format!(
                "repeat rate: {} of them a rule already said",
                ledger.repeats
            ),
        ),
        (
            "catches",
            ledger.catches.to_string(),
            "breaks a check caught before the user saw them".to_string(),
        ),
        (
            "caught-first",
            caught_first,
            "of the rule breaks caught first".to_string(),
        ),
        (
            "notes-answered",
            if ledger.notes_given == 0 {
                "–".to_string()
            } else {
                percent(ledger.notes_answered as f64 / ledger.notes_given as f64)
            },
            format!(
                "of the {} notes answered by the agent ({} of the repeats its verdict)",
                ledger.notes_given, ledger.repeats_by_agent
            ),
        ),
    ];
    out.push_str("<section class=\"cards\">\n");
    for (id, value, label) in cards {
        let _ = writeln!(
            out,
            "<div class=\"card\" id=\"{id}\"><div class=\"value\">{}</div><div class=\"label\">{}</div></div>",
            escape(&value),
            escape(&label)
        );
    }
    out.push_str("</section>\n");
}

/// The plot's size in the SVG's own units (it scales to the page's width).
const WIDTH: f64 = 952.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 34.0;

/// Per period, the breaks caught first beside those the user had to correct again.
fn breaks_chart(out: &mut String, ledger: &Ledger<'_>) {
    let _ = write!(
        out,
        "<h2>Rule breaks per {}</h2>\n<p class=\"note\">Each period's breaks of a rule: caught by a check before the user saw them, or corrected by the user again.</p>\n<div class=\"legend\"><span><i style=\"background:{CAUGHT}\"></i>caught first</span><span><i style=\"background:{REPEATED}\"></i>repeated by the user</span></div>\n",
        ledger.unit
    );
    if ledger.periods.is_empty() {
        out.push_str("<p class=\"empty\">Nothing recorded yet.</p>\n");
        return;
    }
    let height = 260.0;
    let most = ledger
        .periods
        .iter()
        .map(|p| p.catches.max(p.repeats))
        .max()
        .unwrap_or(0);
    let (top, step) = axis(most);
    let scale = |value: f64| height - BOTTOM - value / top * (height - TOP - BOTTOM);
    svg_open(
        out,
        "breaks-chart",
        height,
        "Rule breaks caught first and repeated, per period",
    );
    for k in 0..=(top / step) as usize {
        let value = k as f64 * step;
        gridline(out, scale(value), &format!("{value}"));
    }
    let band = (WIDTH - LEFT - RIGHT) / ledger.periods.len() as f64;
    let bar = (band * 0.8 / 2.0).min(28.0);
    for (k, period) in ledger.periods.iter().enumerate() {
        let middle = LEFT + band * (k as f64 + 0.5);
        let _ = write!(
            out,
            "<g class=\"period\" data-start=\"{}\" data-catches=\"{}\" data-repeats=\"{}\">",
            escape(period.start),
            period.catches,
            period.repeats
        );
        for (value, x, colour, what) in [
            (period.catches, middle - bar, CAUGHT, "caught first"),
            (period.repeats, middle, REPEATED, "repeated"),
        ] {
            let y = scale(value as f64);
            let _ = write!(
                out,
                "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{bar:.1}\" height=\"{:.1}\" rx=\"2\" fill=\"{colour}\"><title>{}: {value} {what}</title></rect>",
                (height - BOTTOM - y).max(0.0),
                escape(&label_of(period.start, ledger.unit))
            );
        }
        out.push_str("</g>\n");
    }
    x_labels(out, ledger, height, band);
    out.push_str("</svg>\n");
}

/// Per period with corrections, the share of them a rule already stated.
fn rate_chart(out: &mut String, ledger: &Ledger<'_>) {
    let _ = write!(
        out,
        "<h2>Repeat rate per {}</h2>\n<p class=\"note\">The share of the period's corrections that repeated a rule already learned (lower is better).</p>\n",
        ledger.unit
    );
    if ledger.periods.iter().all(|p| p.corrections == 0) {
        out.push_str("<p class=\"empty\">No corrections yet: no rate to show.</p>\n");
        return;
    }
    let height = 200.0;
    let scale = |share: f64| height - BOTTOM - share * (height - TOP - BOTTOM);
    svg_open(out, "rate-chart", height, "Repeat rate per period");
    for k in 0..=4 {
        let share = f64::from(k) / 4.0;
        gridline(out, scale(share), &percent(share));
    }
    let band = (WIDTH - LEFT - RIGHT) / ledger.periods.len() as f64;
    let points: Vec<(usize, f64, f64, &Period<'_>)> = ledger
        .periods
        .iter()
        .enumerate()
        .filter(|(_, p)| p.corrections > 0)
        .map(|(k, p)| {
            let share = p.repeats as f64 / p.corrections as f64;
            (k, LEFT + band * (k as f64 + 0.5), scale(share), p)
        })
        .collect();
    // Solid between neighbouring periods; dashed across periods without a correction,
    // which have no rate.
    for pair in points.windows(2) {
        let ((k, x1, y1, _), (next, x2, y2, _)) = (pair[0], pair[1]);
        let dash = if next == k + 1 {
            ""
        } else {
            " stroke-dasharray=\"3 4\" stroke-opacity=\"0.5\""
        };
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{RATE}\" stroke-width=\"2\"{dash}/>"
        );
    }
    for (_, x, y, period) in points {
        let _ = writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{RATE}\"><title>{}: {} of {} corrections repeated a rule</title></circle>",
            escape(&label_of(period.start, ledger.unit)),
            period.repeats,
            period.corrections
        );
    }
    x_labels(out, ledger, height, band);
    out.push_str("</svg>\n");
}

fn svg_open(out: &mut String, id: &str, height: f64, title: &str) {
    let _ = writeln!(
        out,
        "<svg class=\"chart\" id=\"{id}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"{title}\" xmlns=\"http://www.w3.org/2000/svg\"><title>{title}</title>"
    );
}

fn gridline(out: &mut String, y: f64, label: &str) {
    let _ = writeln!(
        out,
        "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
        WIDTH - RIGHT,
        LEFT - 6.0,
        y + 4.0,
        escape(label)
    );
}

/// Some dozen labels under the periods, evenly spaced.
fn x_labels(out: &mut String, ledger: &Ledger<'_>, height: f64, band: f64) {
    let every = ledger.periods.len().div_ceil(12).max(1);
    for (k, period) in ledger.periods.iter().enumerate().step_by(every) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            LEFT + band * (k as f64 + 0.5),
            height - BOTTOM + 18.0,
            escape(&short_date(period.start))
        );
    }
}

/// The two rankings: the rules that did not hold, and those whose checks caught breaks.
fn rankings(out: &mut String, ledger: &Ledger<'_>) {
    out.push_str("<h2>Rules ranked</h2>\n<p class=\"note\">By the corrections the user had to repeat, and by the breaks their checks caught first.</p>\n<div class=\"rankings\">\n");
    let mut by_repeats: Vec<&Rule<'_>> = ledger.rules.iter().filter(|r| r.repeats > 0).collect();
    by_repeats.sort_by(|a, b| b.repeats.cmp(&a.repeats).then(b.catches.cmp(&a.catches)));
    let mut by_catches: Vec<&Rule<'_>> = ledger.rules.iter().filter(|r| r.catches > 0).collect();
    by_catches.sort_by(|a, b| b.catches.cmp(&a.catches).then(b.repeats.cmp(&a.repeats)));
    ranking(
        out,
        "by-repeats",
        "Repeated by the user",
        &by_repeats,
        |r| r.repeats,
        REPEATED,
    );
    ranking(
        out,
        "by-catches",
        "Caught before the user saw them",
        &by_catches,
        |r| r.catches,
        CAUGHT,
    );
    out.push_str("</div>\n");
}

fn ranking(
    out: &mut String,
    id: &str,
    title: &str,
    rules: &[&Rule<'_>],
    count: fn(&Rule<'_>) -> usize,
    colour: &str,
) {
    let _ = write!(out, "<section id=\"{id}\">\n<h3>{title}</h3>\n");
    if rules.is_empty() {
        out.push_str("<p class=\"empty\">None.</p>\n</section>\n");
        return;
    }
    let most = rules.iter().map(|r| count(r)).max().unwrap_or(1).max(1);
    out.push_str(
        "<table>\n<thead><tr><th>#</th><th>Rule</th><th>Times</th></tr></thead>\n<tbody>\n",
    );
    for (rank, rule) in rules.iter().enumerate() {
        let value = count(rule);
        let width = value as f64 / most as f64 * 100.0;
        let _ = writeln!(
            out,
            "<tr class=\"rule\" data-rule=\"{}\"><td class=\"rank\">{}</td><td><span class=\"id\">{}</span><span class=\"cat\">{}</span>{}{}{}<span class=\"bar\" style=\"width:{width:.0}%;background:{colour}\"></span></td><td class=\"n\">{value}</td></tr>",
            escape(&rule.id),
            rank + 1,
            escape(&rule.id),
            escape(rule.category.trim_matches(['[', ']'])),
            escape(rule.instruction),
            if rule.active {
                ""
            } else {
                " <span class=\"old\">(no longer in force)</span>"
            },
            if rule.needs_check {
                " <span class=\"act\">(needs a check)</span>"
            } else if rule.check_misses {
                " <span class=\"act\">(its check misses)</span>"
            } else {
                ""
            },
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

/// The top of the count axis and its step: 1, 2 or 5 times a power of ten, some five
/// lines.
fn axis(most: usize) -> (f64, f64) {
    let most = most.max(1) as f64;
    let rough = most / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * power)
        .find(|step| *step >= rough)
        .unwrap_or(10.0 * power)
        .max(1.0);
    ((most / step).ceil() * step, step)
}

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `Nov 5` for `2026-11-05`.
fn short_date(date: &str) -> String {
    let month = date
        .get(5..7)
        .and_then(|m| m.parse::<usize>().ok())
        .and_then(|m| MONTHS.get(m.wrapping_sub(1)));
    let day = date.get(8..10).and_then(|d| d.parse::<u32>().ok());
    match (month, day) {
        (Some(month), Some(day)) => format!("{month} {day}"),
        _ => date.to_string(),
    }
}

fn label_of(start: &str, unit: &str) -> String {
    if unit == "week" {
        format!("week of {start}")
    } else {
        start.to_string()
    }
}

/// Text safe in HTML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_ends_on_a_round_number() {
        assert_eq!(axis(0), (1.0, 1.0));
        assert_eq!(axis(3), (3.0, 1.0));
        assert_eq!(axis(7), (8.0, 2.0));
        assert_eq!(axis(23), (25.0, 5.0));
        assert_eq!(axis(140), (150.0, 50.0));
        assert_eq!(short_date("2026-11-05"), "Nov 5");
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
    #[test]
    fn a_span_with_catches_and_no_correction_shows_no_rate() {
        let ledger = Ledger {
            path: ".agents/autofix.json",
            since: None,
            written: "2026-12-01T00:00:00Z",
            corrections: 0,
            repeats: 0,
            repeat_rate: 0.0,
            catches: 1,
            caught_first: Some(1.0),
            notes_given: 0,
            notes_answered: 0,
            repeats_by_agent: 0,
            unit: "day",
            earlier: None,
            periods: vec![Period {
                start: "2026-12-01",
                corrections: 0,
                repeats: 0,
                catches: 1,
            }],
            rules: Vec::new(),
        };
        let mut out = String::new();
        rate_chart(&mut out, &ledger);
        assert_eq!(
            out,
            "<h2>Repeat rate per day</h2>\n<p class=\"note\">The share of the period's corrections \
             that repeated a rule already learned (lower is better).</p>\n\
             <p class=\"empty\">No corrections yet: no rate to show.</p>\n"
        );
    }
}
