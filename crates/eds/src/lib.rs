//! Placeholder: the eds ruleset is built in its own issue.
