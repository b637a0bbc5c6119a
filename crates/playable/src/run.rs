//! `run`: one menu id, resolved against a menu read at this moment, one
//! dispatch. Every refusal returns before the bot acts (zero side effects).
//! Surface's built-in executor runs capabilities through this too.

use sense::{is_generic_ref, MenuItem, Snapshot};
use serde_json::{Map, Value};

use crate::envelope::{fail, quote, ErrorCode, Failure, OkPayload};
use crate::menu::read_menu;
use crate::plan::{plan, Plan};
use crate::ports::{Action, Bot, Refusal, Report, Sense};

/// The menu item `id` names, if it is runnable at all.
fn runnable<'a>(snapshot: &'a Snapshot, id: &str, role: &str) -> Result<&'a MenuItem, Failure> {
    let mut named = snapshot.menu.iter().filter(|m| m.id == id);
    let item = named.next();
    // An id listed twice (a sense port's snapshot may do so without the
    // `ambiguous` mark the DOM read sets) is claimed twice all the same.
    let twice = named.next().is_some();
    let (code, why) = match item {
        None => (ErrorCode::NotInMenu, "is not in the current menu"),
        Some(m) if m.ambiguous || twice => (
            ErrorCode::Ambiguous,
            "is claimed by more than one element; nothing was dispatched",
        ),
        // The contract's order of actionability: visible, then enabled.
        Some(m) if !m.visible => (ErrorCode::NotActionable, "is not visible"),
        Some(m) if !m.enabled => (ErrorCode::NotActionable, "is disabled"),
        Some(m) => return Ok(m),
    };
    Err(fail(code, format!("{role}{} {why}", quote(id))))
}

/// No run takes an id with a generic ref's shape (baseline: NOT_IN_MENU),
/// not even a playable's: the snapshot lists that playable all the same.
fn refuse_generic_ref(id: &str, role: &str) -> Result<(), Failure> {
    if !is_generic_ref(id) {
        return Ok(());
    }
    Err(fail(
        ErrorCode::NotInMenu,
        format!(
            "{role}{} has a generic ref's shape (g + digits): no run takes it (generics are only seen; a playable needs another data-e2e-id)",
            quote(id)
        ),
    ))
}

async fn target<S: Sense>(sense: &S, id: &str) -> Result<S::Target, Failure> {
    let qid = quote(id);
    sense
        .resolve(id)
        .await
        .map_err(|e| fail(ErrorCode::Internal, format!("resolving {qid} failed: {e}")))?
        .ok_or_else(|| {
            fail(
                ErrorCode::NotActionable,
                format!("{qid} has no element to act on (detached)"),
            )
        })
}

/// Runs menu item `id` with the run payload (`value`, `to`, `by` as its
/// event needs). The ok payload echoes an input's `value` or a drag's `to`
/// as it came (keys in their order).
pub async fn run_item<S, B>(
    sense: &S,
    bot: &B,
    id: &str,
    payload: &Map<String, Value>,
) -> Result<OkPayload, Failure>
where
    S: Sense,
    B: Bot<S::Target>,
{
    if id.is_empty() {
        return Err(fail(
            ErrorCode::NotInMenu,
            "run needs a menu id; \"\" is none".into(),
        ));
    }
    refuse_generic_ref(id, "")?;
    let snapshot = read_menu(sense).await?;
    let qid = quote(id);
    let item = runnable(&snapshot, id, "")?;
    let plan = plan(id, &qid, &item.event, payload)?;
    let element = target(sense, id).await?;
    let action = match plan {
        Plan::Ready(action) => action,
        Plan::Drag { to } => {
            refuse_generic_ref(to, "drop target ")?;
            runnable(&snapshot, to, "drop target ")?;
            Action::Drag {
                to: target(sense, to).await?,
            }
        }
    };
    bot.check(&element, &action).await.map_err(|r| {
        let code = match r {
            Refusal::BadRequest(_) => ErrorCode::BadRequest,
            Refusal::NotActionable(_) => ErrorCode::NotActionable,
        };
        fail(code, format!("{qid}: {}", r.reason()))
    })?;
    let report = bot
        .dispatch(&element, &action)
        .await
        .map_err(|e| fail(ErrorCode::DispatchFailed, format!("{qid}: {e}")))?;
    let echo = |key| payload.get(key).cloned().unwrap_or(Value::Null);
    let id = id.to_string();
    Ok(match (report, action) {
        (
            Report::Scrolled {
                left: scroll_left,
                top: scroll_top,
            },
            _,
        ) => OkPayload::RunScroll {
            id,
            scroll_left,
            scroll_top,
        },
        (_, Action::Input(_)) => OkPayload::RunInput {
            id,
            value: echo("value"),
        },
        (_, Action::Drag { .. }) => OkPayload::RunDrag { id, to: echo("to") },
        _ => OkPayload::Run { id },
    })
}

/// Runs a click-style menu item with no payload (Surface's built-in executor).
pub async fn run_menu_item<S, B>(sense: &S, bot: &B, id: &str) -> Result<(), Failure>
where
    S: Sense,
    B: Bot<S::Target>,
{
    run_item(sense, bot, id, &Map::new()).await.map(|_| ())
}
