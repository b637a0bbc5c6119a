//! `createSurface`'s data options, and what they expose to a session.

use crate::bounds;
use crate::declaration::{CapabilityDeclaration, Registry};
use crate::field::{Field, Object};
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

/// An invalid `createSurface` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigError {
    App,
    Expose,
    RecordLimit,
    RateLimit,
    /// The options are not a bounded JSON object.
    NotAnObject,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::App => "`app` must be a string",
            Self::Expose => "`expose` must be an array of capability ids",
            Self::RecordLimit => "`recordLimit` must be an integer from 1 to 100",
            Self::RateLimit => {
                "`rateLimit` must be { invokes: positive integer, perMs: positive number }"
            }
            Self::NotAnObject => "takes an options object",
        })
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
        // A non-object has no `app`; serde would read an array by position.
        if !options.is_object() {
            return Err(ConfigError::App);
        }
        let wire = ConfigWire::deserialize(options).map_err(|_| ConfigError::App)?;
        Self::try_from(wire)
    }

    /// [`SurfaceConfig::from_json`] over JSON text, within the bounds of
    /// [`crate::bounds`].
    pub fn from_json_text(text: &str) -> Result<Self, ConfigError> {
        let value: Value = bounds::decode(text).map_err(|_| ConfigError::NotAnObject)?;
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
