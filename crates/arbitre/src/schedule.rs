//! Turn scheduling from the game's `[schedule]` table (issue 2 item 5).
//!
//! A deadline rule is either a fixed interval ("7d") or a weekly slot
//! (weekday + local time in a named IANA time zone). Weekly slots are
//! computed in the zone with chrono-tz, so "friday 20:00 Europe/Paris" stays
//! 20:00 local across the DST change: a local time that does not exist (the
//! spring gap) moves one hour later, an ambiguous one (autumn) takes the
//! earlier instant. An interval of whole days may also name the time of
//! day its deadlines fall at (`interval = "7d"`, `time = "20:00"`, issue 19
//! item 5): the days are counted on the zone's calendar, so the deadline
//! stays at 20:00 local across DST too.

use crate::timespec::{self, parse_instant};
use chrono::{DateTime, Datelike, Duration, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleToml {
    /// "7d", "48h", "1d12h", "90m".
    pub interval: Option<String>,
    /// "mon" .. "sun" (or full English names).
    pub weekday: Option<String>,
    /// "20:00", local to `timezone`: with `weekday`, or with an interval of
    /// whole days.
    pub time: Option<String>,
    /// IANA name, "Europe/Paris". Also used to show deadlines. Default UTC.
    pub timezone: Option<String>,
    /// Resolve as soon as every active player has sent ready orders. Default true.
    pub early: Option<bool>,
    /// Reminder offsets before the deadline, e.g. ["24h", "2h"].
    #[serde(default)]
    pub reminders: Vec<String>,
    /// RFC 3339 start of the game: the reference for the first deadline.
    pub start: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DeadlineRule {
    Interval(Duration),
    /// Every `days` days, at `time` local (issue 19 item 5).
    DaysAt {
        days: i64,
        time: NaiveTime,
    },
    Weekly {
        weekday: Weekday,
        time: NaiveTime,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    pub rule: DeadlineRule,
    pub tz: Tz,
    pub early: bool,
    /// (label as written, offset before the deadline), longest first.
    pub reminders: Vec<(String, Duration)>,
    pub start: Option<DateTime<Utc>>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error("bad duration '{0}' (examples: 7d, 48h, 1d12h, 90m)")]
    Duration(String),
    #[error("unknown weekday '{0}' (mon, tue, wed, thu, fri, sat, sun)")]
    Weekday(String),
    #[error("bad time '{0}' (expected HH:MM)")]
    Time(String),
    #[error("unknown time zone '{0}' (expected an IANA name such as Europe/Paris)")]
    Zone(String),
    #[error("bad start '{0}' (expected RFC 3339, e.g. 2026-12-01T20:00:00+01:00)")]
    Start(String),
    #[error("give either interval (with an optional time) or weekday + time, not both")]
    Both,
    #[error("weekday needs a time, and time needs a weekday or an interval")]
    Half,
    #[error("interval '{0}' with a time must be whole days (e.g. 7d with time = \"20:00\")")]
    TimeNeedsDays(String),
}

/// A duration of the schedule, in the one grammar of [`crate::timespec`].
fn duration(s: &str) -> Result<Duration, ScheduleError> {
    timespec::parse_duration(s).map_err(|_| ScheduleError::Duration(s.to_string()))
}

pub fn parse_zone(s: &str) -> Result<Tz, ScheduleError> {
    s.parse::<Tz>()
        .map_err(|_| ScheduleError::Zone(s.to_string()))
}

impl Schedule {
    pub fn from_toml(t: &ScheduleToml) -> Result<Schedule, ScheduleError> {
        let tz = match &t.timezone {
            Some(z) => parse_zone(z)?,
            None => Tz::UTC,
        };
        let rule = match (&t.interval, &t.weekday, &t.time) {
            (Some(_), Some(_), _) => return Err(ScheduleError::Both),
            (Some(i), None, None) => DeadlineRule::Interval(duration(i)?),
            (Some(i), None, Some(tm)) => {
                let d = duration(i)?;
                if d.num_seconds() % 86_400 != 0 {
                    return Err(ScheduleError::TimeNeedsDays(i.clone()));
                }
                DeadlineRule::DaysAt {
                    days: d.num_days(),
                    time: timespec::parse_time_of_day(tm)
                        .map_err(|_| ScheduleError::Time(tm.to_string()))?,
                }
            }
            (None, Some(w), Some(tm)) => DeadlineRule::Weekly {
                weekday: timespec::parse_weekday(w)
                    .map_err(|_| ScheduleError::Weekday(w.to_string()))?,
                time: timespec::parse_time_of_day(tm)
                    .map_err(|_| ScheduleError::Time(tm.to_string()))?,
            },
            (None, None, None) => DeadlineRule::Interval(Duration::days(7)),
            _ => return Err(ScheduleError::Half),
        };
        let mut reminders = t
            .reminders
            .iter()
            .map(|r| duration(r).map(|d| (r.trim().to_string(), d)))
            .collect::<Result<Vec<_>, _>>()?;
        reminders.sort_by_key(|r| std::cmp::Reverse(r.1));
        let start = match &t.start {
            Some(s) => Some(parse_instant(s).ok_or_else(|| ScheduleError::Start(s.clone()))?),
            None => None,
        };
        Ok(Schedule {
            rule,
            tz,
            early: t.early.unwrap_or(true),
            reminders,
            start,
        })
    }

    /// The first deadline strictly after `t`.
    pub fn next_after(&self, t: DateTime<Utc>) -> DateTime<Utc> {
        match &self.rule {
            DeadlineRule::Interval(d) => t + *d,
            DeadlineRule::DaysAt { days, time } => {
                let local = t.with_timezone(&self.tz).date_naive();
                // `days` later on the calendar, at `time`; a day further if
                // that is not after `t` (never, for days >= 1, but cheap).
                (0..=1)
                    .filter_map(|extra| self.at_local(local + Duration::days(days + extra), *time))
                    .find(|at| *at > t)
                    .unwrap_or(t + Duration::days(*days))
            }
            DeadlineRule::Weekly { weekday, time } => {
                let local = t.with_timezone(&self.tz).date_naive();
                for days in 0..=8 {
                    let date = local + Duration::days(days);
                    if date.weekday() != *weekday {
                        continue;
                    }
                    let naive = date.and_time(*time);
                    let at = match self.tz.from_local_datetime(&naive).earliest() {
                        Some(x) => x,
                        // Spring-forward gap: the wall clock skips this time.
                        None => match self
                            .tz
                            .from_local_datetime(&(naive + Duration::hours(1)))
                            .earliest()
                        {
                            Some(x) => x,
                            None => continue,
                        },
                    };
                    let at = at.with_timezone(&Utc);
                    if at > t {
                        return at;
                    }
                }
                // Unreachable for real zones; keep the daemon alive anyway.
                t + Duration::days(7)
            }
        }
    }

    /// `time` on `date` in the zone: in the spring-forward gap, one hour
    /// later; when ambiguous (autumn), the earlier instant.
    fn at_local(&self, date: chrono::NaiveDate, time: NaiveTime) -> Option<DateTime<Utc>> {
        let naive = date.and_time(time);
        self.tz
            .from_local_datetime(&naive)
            .earliest()
            .or_else(|| {
                self.tz
                    .from_local_datetime(&(naive + Duration::hours(1)))
                    .earliest()
            })
            .map(|x| x.with_timezone(&Utc))
    }

    /// The next deadline after a resolution at `resolved_at` of a turn whose
    /// deadline was `deadline`: keeps a regular rhythm when the turn resolved
    /// on time, and never schedules a deadline in the past after downtime.
    pub fn following(
        &self,
        deadline: Option<DateTime<Utc>>,
        resolved_at: DateTime<Utc>,
    ) -> DateTime<Utc> {
        let reference = match deadline {
            Some(d) if d <= resolved_at => d,
            _ => resolved_at,
        };
        let next = self.next_after(reference);
        if next <= resolved_at {
            self.next_after(resolved_at)
        } else {
            next
        }
    }

    /// A deadline as players read it: local time and zone name.
    pub fn show(&self, t: DateTime<Utc>) -> String {
        format!(
            "{} ({})",
            t.with_timezone(&self.tz).format("%Y-%m-%d %H:%M"),
            self.tz.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weekly(day: &str, time: &str, tz: &str) -> Schedule {
        Schedule::from_toml(&ScheduleToml {
            weekday: Some(day.into()),
            time: Some(time.into()),
            timezone: Some(tz.into()),
            ..Default::default()
        })
        .unwrap()
    }

    #[test]
    fn weekly_deadline_keeps_local_time_across_dst() {
        let s = weekly("fri", "20:00", "Europe/Paris");
        // Thursday 2026-10-22 (CEST, UTC+2) -> Friday 23rd 20:00 CEST = 18:00 UTC.
        let t = parse_instant("2026-10-22T12:00:00Z").unwrap();
        let d1 = s.next_after(t);
        assert_eq!(d1, parse_instant("2026-10-23T18:00:00Z").unwrap());
        // DST ends on 25 October: Friday 30th 20:00 CET = 19:00 UTC.
        let d2 = s.next_after(d1);
        assert_eq!(d2, parse_instant("2026-10-30T19:00:00Z").unwrap());
        assert_eq!(s.show(d2), "2026-10-30 20:00 (Europe/Paris)");
    }

    #[test]
    fn weekly_slot_in_the_spring_gap_moves_one_hour_later() {
        let s = weekly("sun", "02:30", "Europe/Paris");
        // 29 March 2026 02:30 does not exist in Paris; 03:30 CEST = 01:30 UTC.
        let d = s.next_after(parse_instant("2026-03-28T00:00:00Z").unwrap());
        assert_eq!(d, parse_instant("2026-03-29T01:30:00Z").unwrap());
    }

    #[test]
    fn following_keeps_rhythm_and_skips_the_past() {
        let s = Schedule::from_toml(&ScheduleToml {
            interval: Some("1d".into()),
            ..Default::default()
        })
        .unwrap();
        let d = parse_instant("2026-01-02T00:00:00Z").unwrap();
        // On time (a cycle 5 minutes late): next = deadline + 1d.
        assert_eq!(
            s.following(Some(d), d + Duration::minutes(5)),
            d + Duration::days(1)
        );
        // Early resolution 6 hours before: next = resolution + 1d.
        let early = d - Duration::hours(6);
        assert_eq!(s.following(Some(d), early), early + Duration::days(1));
        // Three days of downtime: never a deadline in the past.
        let late = d + Duration::days(3);
        assert!(s.following(Some(d), late) > late);
    }

    /// Issue 19 item 5: `interval = "7d"` with `time = "20:00"` puts every
    /// deadline at 20:00 in the game's zone, not at the minute of creation,
    /// and keeps it there across the change to winter time.
    #[test]
    fn interval_with_a_time_of_day() {
        let s = Schedule::from_toml(&ScheduleToml {
            interval: Some("7d".into()),
            time: Some("20:00".into()),
            timezone: Some("Europe/Paris".into()),
            ..Default::default()
        })
        .unwrap();
        // Created Tuesday 20 October 2026 at 14:37 CEST.
        let created = parse_instant("2026-10-20T14:37:00+02:00").unwrap();
        let d1 = s.next_after(created);
        assert_eq!(s.show(d1), "2026-10-27 20:00 (Europe/Paris)");
        // DST ended on the 25th: 20:00 CET is 19:00 UTC.
        assert_eq!(d1, parse_instant("2026-10-27T19:00:00Z").unwrap());
        let d2 = s.next_after(d1);
        assert_eq!(s.show(d2), "2026-11-03 20:00 (Europe/Paris)");
        let hours = ScheduleToml {
            interval: Some("36h".into()),
            time: Some("20:00".into()),
            ..Default::default()
        };
        assert_eq!(
            Schedule::from_toml(&hours),
            Err(ScheduleError::TimeNeedsDays("36h".into()))
        );
        let alone = ScheduleToml {
            time: Some("20:00".into()),
            ..Default::default()
        };
        assert_eq!(Schedule::from_toml(&alone), Err(ScheduleError::Half));
    }

    #[test]
    fn schedule_errors_are_clear() {
        let both = ScheduleToml {
            interval: Some("7d".into()),
            weekday: Some("fri".into()),
            ..Default::default()
        };
        assert_eq!(Schedule::from_toml(&both), Err(ScheduleError::Both));
        let tz = ScheduleToml {
            timezone: Some("Mars/Olympus".into()),
            ..Default::default()
        };
        assert_eq!(
            Schedule::from_toml(&tz),
            Err(ScheduleError::Zone("Mars/Olympus".into()))
        );
        let s = Schedule::from_toml(&ScheduleToml {
            reminders: vec!["2h".into(), "24h".into()],
            ..Default::default()
        })
        .unwrap();
        assert_eq!(s.reminders[0].0, "24h");
        assert!(s.early);
    }
}
