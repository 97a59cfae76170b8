//! Dates as game records write them (`2026/11/28 10:00:00`, UTC), without a calendar crate:
//! the records need only today's date and the time of day.

/// Today (UTC) as the records write a date: `2026/11/28`.
pub fn today() -> String {
    let (year, month, day) = civil(seconds_now().div_euclid(86_400));
    format!("{year:04}/{month:02}/{day:02}")
}

/// Now (UTC) as the records write a game's start: `2026/11/28 10:00:00`.
pub fn now() -> String {
    let seconds = seconds_now();
    let time = seconds.rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}:{:02}",
        today(),
        time / 3600,
        time / 60 % 60,
        time % 60
    )
}

fn seconds_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs()) as i64
}

/// The year, month and day of a day counted from 1970-01-01: Howard Hinnant's days-to-civil
/// algorithm (<https://howardhinnant.github.io/date_algorithms.html#civil_from_days>).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_civil() {
        assert_eq!(civil(0), (1970, 1, 1));
        // 2000 was a leap year (divisible by 400), 1900 was not.
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(-25_508), (1900, 3, 1));
        assert_eq!(civil(20_786), (2026, 11, 29));
        let now = now();
        assert_eq!(now.len(), 19, "{now}");
        assert!(now.as_str() >= "2024/01/01", "{now}");
    }
}
