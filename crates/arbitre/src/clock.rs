//! Time, injected. The daemon asks a [`Clock`], never the system directly, so
//! tests and fixture replay run at fixed instants: "fixed timestamps come
//! from the fixture, never from the clock".

use chrono::{DateTime, TimeDelta, Utc};
use std::sync::Mutex;

pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

/// The real clock (production).
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        // Whole seconds: everything stored or mailed is at second precision,
        // and a replay must not depend on sub-second noise.
        let now = Utc::now();
        DateTime::from_timestamp(now.timestamp(), 0).unwrap_or(now)
    }
}

/// A clock that only moves when told to (tests, replay, record).
pub struct FixedClock(Mutex<DateTime<Utc>>);

impl FixedClock {
    pub fn new(t: DateTime<Utc>) -> FixedClock {
        FixedClock(Mutex::new(t))
    }

    pub fn set(&self, t: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = t;
    }

    pub fn advance(&self, d: TimeDelta) {
        let mut g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *g += d;
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_clock_moves_only_when_told() {
        let t = DateTime::from_timestamp(1_000, 0).unwrap();
        let c = FixedClock::new(t);
        assert_eq!(c.now(), t);
        c.advance(TimeDelta::hours(2));
        assert_eq!(c.now().timestamp(), 1_000 + 7_200);
        c.set(t);
        assert_eq!(c.now(), t);
    }
}
