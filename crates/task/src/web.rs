use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/task.js")]
extern "C" {
    fn wait(cb: &JsValue, promise: &JsValue, slot: i32) -> Array;
    fn deferred() -> Array;
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

thread_local! {
    /// Spawned tasks by index; `None`: free, or being polled.
    static TASKS: Cell<Vec<Option<Task>>> = const { Cell::new(Vec::new()) };
    /// Tasks to poll, in order.
    static QUEUE: Cell<Vec<usize>> = const { Cell::new(Vec::new()) };
    /// A run of the queue is under way or due: a wake only queues.
    static DUE: Cell<bool> = const { Cell::new(false) };
    static RUNNING: Cell<bool> = const { Cell::new(false) };
    /// The task being polled (`usize::MAX`: none).
    static CURRENT: Cell<usize> = const { Cell::new(usize::MAX) };
    /// The wakers of the promises awaited now, by `wait` slot.
    static WAKERS: Cell<Vec<Option<Waker>>> = const { Cell::new(Vec::new()) };
    /// The one callback `wait` reports through: wakes the slot's waker
    /// (slot < 0: none), then runs the queue. The same closure type as the
    /// module's listeners: one wasm-bindgen invoke shim serves all.
    static WAKE: JsValue = Closure::<dyn FnMut(JsValue) -> Result<(), JsError>>::new(|slot: JsValue| {
        DUE.set(true);
        if let Some(slot) = slot.as_f64().filter(|s| *s >= 0.0) {
            let mut wakers = WAKERS.take();
            let waker = wakers.get_mut(slot as usize).and_then(Option::take);
            WAKERS.set(wakers);
            if let Some(waker) = waker {
                waker.wake();
            }
        }
        run();
        Ok(())
    })
    .into_js_value();
}

/// Queues task `i`; unless a run is due, a microtask runs the queue.
fn schedule(i: usize) {
    let mut queue = QUEUE.take();
    queue.push(i);
    QUEUE.set(queue);
    if !DUE.replace(true) {
        WAKE.with(|cb| wait(cb, &JsValue::UNDEFINED, -1));
    }
}

/// Polls queued tasks until none is left. Not reentrant.
fn run() {
    if RUNNING.replace(true) {
        return;
    }
    loop {
        let batch = QUEUE.take();
        if batch.is_empty() {
            break;
        }
        for i in batch {
            poll(i);
        }
    }
    RUNNING.set(false);
    DUE.set(false);
}

fn poll(i: usize) {
    let mut tasks = TASKS.take();
    let task = tasks.get_mut(i).and_then(Option::take);
    TASKS.set(tasks);
    let Some(mut task) = task else {
        return;
    };
    CURRENT.set(i);
    let waker = Waker::from(Arc::new(Index(i)));
    let ready = task
        .as_mut()
        .poll(&mut Context::from_waker(&waker))
        .is_ready();
    CURRENT.set(usize::MAX);
    if ready {
        return;
    }
    let mut tasks = TASKS.take();
    if let Some(slot) = tasks.get_mut(i) {
        *slot = Some(task);
    }
    TASKS.set(tasks);
}

/// A waker: the index of its task.
struct Index(usize);

impl Wake for Index {
    fn wake(self: Arc<Self>) {
        schedule(self.0);
    }
}

/// The first free index of `list` (`skip` excepted), filled with `item`.
fn insert<T>(list: &mut Vec<Option<T>>, item: T, skip: usize) -> usize {
    match (0..list.len()).find(|&i| i != skip && list[i].is_none()) {
        Some(i) => {
            list[i] = Some(item);
            i
        }
        None => {
            list.push(Some(item));
            list.len() - 1
        }
    }
}

/// Runs `future` to completion, from a microtask on.
pub fn spawn_local<F: Future<Output = ()> + 'static>(future: F) {
    spawn(Box::pin(future));
}

fn spawn(task: Task) {
    let mut tasks = TASKS.take();
    // Not the index of the task being polled: its slot is empty meanwhile.
    let i = insert(&mut tasks, task, CURRENT.get());
    TASKS.set(tasks);
    schedule(i);
}

/// A promise of `future`'s outcome: resolved with `Ok`, rejected with `Err`.
pub fn future_to_promise<F>(future: F) -> Promise
where
    F: Future<Output = Result<JsValue, JsValue>> + 'static,
{
    to_promise(Box::pin(future))
}

fn to_promise(future: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    let d = deferred();
    let promise = d.get(0);
    spawn(Box::pin(async move {
        let (settle, value) = match future.await {
            Ok(v) => (d.get(1), v),
            Err(e) => (d.get(2), e),
        };
        let _ = settle
            .unchecked_into::<Function>()
            .call1(&JsValue::UNDEFINED, &value);
    }));
    promise.unchecked_into()
}

/// A promise resolved with `future`'s output, never rejected: for a boxed
/// future that cannot fail, without [`future_to_promise`]'s `Result` and
/// second box.
pub fn resolve_to_promise(future: Pin<Box<dyn Future<Output = JsValue>>>) -> Promise {
    let d = deferred();
    let promise = d.get(0);
    spawn(Box::pin(async move {
        let value = future.await;
        let _ = d
            .get(1)
            .unchecked_into::<Function>()
            .call1(&JsValue::UNDEFINED, &value);
    }));
    promise.unchecked_into()
}

/// A promise (or any thenable or value) awaited: `Ok` with its value or
/// `Err` with its rejection. wasm-bindgen-futures' `JsFuture` by another
/// name.
pub struct Await {
    promise: Option<JsValue>,
    /// `wait`'s box: empty until the promise settles, then `[ok, value]`.
    settled: Option<Array>,
}

impl Await {
    pub fn new(value: JsValue) -> Self {
        Self {
            promise: Some(value),
            settled: None,
        }
    }
}

impl From<Promise> for Await {
    fn from(promise: Promise) -> Self {
        Self::new(promise.into())
    }
}

impl Future for Await {
    type Output = Result<JsValue, JsValue>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Some(promise) = self.promise.take() {
            let mut wakers = WAKERS.take();
            let slot = insert(&mut wakers, cx.waker().clone(), usize::MAX);
            WAKERS.set(wakers);
            self.settled = Some(WAKE.with(|cb| wait(cb, &promise, slot as i32)));
            return Poll::Pending;
        }
        match &self.settled {
            Some(b) if b.length() == 2 => Poll::Ready(if b.get(0).is_truthy() {
                Ok(b.get(1))
            } else {
                Err(b.get(1))
            }),
            _ => Poll::Pending,
        }
    }
}
