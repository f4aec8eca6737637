//! Dates as the ledger's text has them (ISO 8601, UTC): now, and days counted from
//! 1970-01-01 to bucket times by day or week (the civil-calendar arithmetic of Howard
//! Hinnant's `days_from_civil`, <https://howardhinnant.github.io/date_algorithms.html>).

/// The time now, UTC, to the second: `2026-12-01T21:47:32Z`.
pub(crate) fn now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_secs());
    let days = i64::try_from(seconds / 86_400).unwrap_or_default();
    let rest = seconds % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        date(days),
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The day number (days since 1970-01-01) of a time or date that starts `YYYY-MM-DD`.
pub(crate) fn day(time: &str) -> Option<i64> {
    let part = |range: std::ops::Range<usize>| time.get(range)?.parse::<i64>().ok();
    if time.get(4..5) != Some("-") || time.get(7..8) != Some("-") {
        return None;
    }
    let (year, month, day) = (part(0..4)?, part(5..7)?, part(8..10)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let of_era = year - era * 400;
    let shifted = (month + 9) % 12;
    let of_year = (153 * shifted + 2) / 5 + day - 1;
    let of_era_days = of_era * 365 + of_era / 4 - of_era / 100 + of_year;
    Some(era * 146_097 + of_era_days - 719_468)
}

/// The date `YYYY-MM-DD` of a day number.
pub(crate) fn date(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let of_era = z - era * 146_097;
    let year_of_era = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
    let of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted = (5 * of_year + 2) / 153;
    let day_of_month = of_year - (153 * shifted + 2) / 5 + 1;
    let month = if shifted < 10 {
        shifted + 3
    } else {
        shifted - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day_of_month:02}")
}

/// The Monday that starts the (ISO) week of a day number.
pub(crate) fn monday_of(day: i64) -> i64 {
    // 1970-01-01 was a Thursday.
    day - (day + 3).rem_euclid(7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_dates_round_trip() {
        assert_eq!(day("1970-01-01"), Some(0));
        assert_eq!(day("2026-12-01T21:47:32Z"), Some(20_788));
        assert_eq!(date(20_788), "2026-12-01");
        assert_eq!(date(day("2024-02-29").unwrap()), "2024-02-29");
        assert_eq!(date(day("2000-03-01").unwrap() - 1), "2000-02-29");
        assert_eq!(date(monday_of(20_788)), "2026-11-30");
        assert_eq!(day("2026-13-01"), None);
        assert_eq!(day("26-1-1"), None);
        assert!(now().ends_with('Z') && now().len() == 20);
    }
}
