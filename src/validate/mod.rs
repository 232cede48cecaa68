//! Validation: JSON Schema and the date rules, producing diagnostics. No I/O.
