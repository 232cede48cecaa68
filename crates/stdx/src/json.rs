//! The JSON wording both halves share: how a message names a value's type.

/// How a message names the type of a JSON value: "a string", "an object",
/// "an integer", "null"; the one wording of the checker's and the control
/// service's errors. Integers are told from other numbers, as JSON Schema's
/// types are, so "`smtpPort` must be an integer, not a number" reads right.
pub fn kind_of(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
