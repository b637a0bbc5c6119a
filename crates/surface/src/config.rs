//! `createSurface`'s data options, and what they expose to a session.

use crate::bounds;
use crate::declaration::{CapabilityDeclaration, Registry};
use crate::field::{from_object, Field, Object};
use crate::request::MAX_RECORD_LIMIT;
use crate::schema::as_count;
use crate::session::{RateLimit, Session};
use serde::Deserialize;
use serde_json::Value;
use std::fmt;

/// Default `recordLimit`: the describe window when the request sets no `limit`.
pub const DEFAULT_RECORD_LIMIT: usize = 8;

/// The data half of `createSurface({ app, expose, recordLimit, rateLimit })`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "ConfigWire")]
pub struct SurfaceConfig {
    pub app: String,
    /// The site's allow-list: exact capability ids.
    pub expose: Vec<String>,
    /// Default describe window, 1..=[`MAX_RECORD_LIMIT`].
    pub record_limit: usize,
    pub rate_limit: RateLimit,
}

/// An invalid `createSurface` option (the shell throws it as a
/// `TypeError: createSurface: …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// The options are not an object.
    NotAnObject,
    /// Reading this option threw (a throwing getter or proxy).
    Unreadable(&'static str),
    /// `registry` is neither an array nor a function.
    Registry,
    /// `session` is missing.
    NoSession,
    /// This function-valued option holds something else.
    NotAFunction(&'static str),
    /// The data options are not plain JSON (why).
    NotJson(String),
    App,
    Expose,
    RecordLimit,
    RateLimit,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAnObject => f.write_str("takes an options object"),
            Self::Unreadable(name) => write!(f, "reading options.{name} threw"),
            Self::Registry => f.write_str(
                "options.registry must be an array of declarations or a function returning one",
            ),
            Self::NoSession => {
                f.write_str("options.session must be a function returning the session (or null)")
            }
            Self::NotAFunction(name) => write!(f, "options.{name} must be a function"),
            Self::NotJson(why) => f.write_str(why),
            Self::App => f.write_str("`app` must be a string"),
            Self::Expose => f.write_str("`expose` must be an array of capability ids"),
            Self::RecordLimit => f.write_str("`recordLimit` must be an integer from 1 to 100"),
            Self::RateLimit => f.write_str(
                "`rateLimit` must be { invokes: positive integer, perMs: positive number }",
            ),
        }
    }
}

/// What a function-valued option holds, as the shell sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `undefined` or `null`.
    Absent,
    Function,
    Array,
    Other,
}

/// `createSurface`'s function-valued options, in the order they are read
/// and checked (each as soon as it is read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallbackOption {
    /// `CapabilityDeclaration[]`, or a function returning them (or a Promise of them).
    Registry,
    /// Required.
    Session,
    /// Optional: without it the built-in executor clicks.
    Execute,
    /// Optional: without it high-risk actions are denied.
    Confirm,
}

impl CallbackOption {
    pub const ALL: [Self; 4] = [Self::Registry, Self::Session, Self::Execute, Self::Confirm];

    /// The option's name in `createSurface({ … })`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Registry => "registry",
            Self::Session => "session",
            Self::Execute => "execute",
            Self::Confirm => "confirm",
        }
    }

    /// Whether a value of `kind` is acceptable for this option.
    pub fn check(self, kind: OptionKind) -> Result<(), ConfigError> {
        use OptionKind::{Absent, Array, Function};
        match (self, kind) {
            (Self::Registry, Array | Function) => Ok(()),
            (Self::Registry, _) => Err(ConfigError::Registry),
            (_, Function) => Ok(()),
            (Self::Session, Absent) => Err(ConfigError::NoSession),
            (Self::Execute | Self::Confirm, Absent) => Ok(()),
            (option, _) => Err(ConfigError::NotAFunction(option.name())),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The options as given (the function-valued ones are the shell's).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ConfigWire {
    app: Field<String>,
    expose: Field<Vec<String>>,
    record_limit: Field<Value>,
    rate_limit: Field<Object<RateLimitWire>>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RateLimitWire {
    invokes: Field<Value>,
    per_ms: Field<f64>,
}

impl TryFrom<ConfigWire> for SurfaceConfig {
    type Error = ConfigError;

    /// The checks in order: app, expose, recordLimit, rateLimit.
    fn try_from(wire: ConfigWire) -> Result<Self, ConfigError> {
        let Field::Given(app) = wire.app else {
            return Err(ConfigError::App);
        };
        let Field::Given(expose) = wire.expose else {
            return Err(ConfigError::Expose);
        };
        let mut config = Self {
            app,
            expose,
            ..Self::new("", [""; 0])
        };
        match wire.record_limit {
            Field::Absent | Field::Null => {}
            Field::Given(v) => match as_count(&v) {
                Some(n @ 1..) if n as usize <= MAX_RECORD_LIMIT => config.record_limit = n as usize,
                _ => return Err(ConfigError::RecordLimit),
            },
            Field::Other => return Err(ConfigError::RecordLimit),
        }
        match wire.rate_limit {
            Field::Absent | Field::Null => {}
            Field::Given(Object(RateLimitWire {
                invokes: Field::Given(invokes),
                per_ms: Field::Given(per_ms),
            })) => match as_count(&invokes) {
                // (A JSON number is always finite.)
                Some(invokes @ 1..) if per_ms > 0.0 => {
                    config.rate_limit = RateLimit {
                        invokes: u32::try_from(invokes).unwrap_or(u32::MAX),
                        per_ms,
                    }
                }
                _ => return Err(ConfigError::RateLimit),
            },
            Field::Given(_) | Field::Other => return Err(ConfigError::RateLimit),
        }
        Ok(config)
    }
}

impl SurfaceConfig {
    /// Defaults for everything but `app` and `expose`.
    pub fn new(
        app: impl Into<String>,
        expose: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        Self {
            app: app.into(),
            expose: expose.into_iter().map(Into::into).collect(),
            record_limit: DEFAULT_RECORD_LIMIT,
            rate_limit: RateLimit::default(),
        }
    }

    /// Reads `{ app, expose, recordLimit?, rateLimit?: { invokes, perMs } }`.
    pub fn from_json(options: &Value) -> Result<Self, ConfigError> {
        // A non-object has no `app`.
        let wire = options.as_object().and_then(from_object::<ConfigWire>);
        Self::try_from(wire.unwrap_or_default())
    }

    /// [`SurfaceConfig::from_json`] over JSON text, within the bounds of
    /// [`crate::bounds`].
    pub fn from_json_text(text: &str) -> Result<Self, ConfigError> {
        let value: Value = bounds::decode(text)
            .map_err(|e| ConfigError::NotJson(format!("the options are not plain JSON: {e}")))?;
        Self::from_json(&value)
    }

    /// registry ∩ expose ∩ scope, in registry order.
    pub fn visible<'r>(
        &self,
        registry: &'r Registry,
        session: &Session,
    ) -> Vec<&'r CapabilityDeclaration> {
        registry
            .declarations
            .iter()
            .filter(|d| self.is_exposed(session, &d.id))
            .collect()
    }

    /// In the site's `expose` list and covered by the session scope.
    pub fn is_exposed(&self, session: &Session, capability: &str) -> bool {
        self.expose.iter().any(|id| id == capability) && session.allows(capability)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callback_options_are_checked_by_kind() {
        use OptionKind::*;
        let checks: Vec<Vec<bool>> = CallbackOption::ALL
            .iter()
            .map(|o| {
                [Absent, Function, Array, Other]
                    .map(|k| o.check(k).is_ok())
                    .to_vec()
            })
            .collect();
        assert_eq!(
            checks,
            [
                [false, true, true, false],  // registry
                [false, true, false, false], // session
                [true, true, false, false],  // execute
                [true, true, false, false],  // confirm
            ]
        );
        assert_eq!(
            CallbackOption::Session
                .check(Other)
                .unwrap_err()
                .to_string(),
            "options.session must be a function"
        );
        assert_eq!(
            CallbackOption::Session
                .check(Absent)
                .unwrap_err()
                .to_string(),
            "options.session must be a function returning the session (or null)"
        );
    }

    #[test]
    fn data_options_are_checked_in_order() {
        let err = |text: &str| SurfaceConfig::from_json_text(text).unwrap_err();
        assert_eq!(err(r#"{"recordLimit":0,"expose":1}"#), ConfigError::App);
        assert_eq!(
            err(r#"{"app":"a","expose":["x"],"recordLimit":0}"#),
            ConfigError::RecordLimit
        );
        assert_eq!(
            err(r#"{"app":"a","expose":[],"rateLimit":[3,1000]}"#),
            ConfigError::RateLimit,
            "an array is not {{ invokes, perMs }}"
        );
        assert!(matches!(
            err("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"),
            ConfigError::NotJson(_)
        ));
        let c = SurfaceConfig::from_json_text(r#"{"app":"a","expose":["x"],"recordLimit":2.0,"rateLimit":{"invokes":3,"perMs":1000}}"#).expect("a valid config");
        assert_eq!((c.record_limit, c.rate_limit.invokes), (2, 3));
    }
}
