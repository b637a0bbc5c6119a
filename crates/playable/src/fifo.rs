//! A first-in-first-out async lock: requests are handled one at a time, in
//! arrival order, even when a port answers asynchronously. Single-threaded
//! (wasm), so `RefCell` suffices; no borrow is held across an await.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

#[derive(Default)]
struct Inner {
    busy: bool,
    next_ticket: u64,
    /// Waiting tickets in arrival order (a few at most: a `Vec`, not a
    /// `VecDeque`, whose ring-buffer code the module need not carry).
    queue: Vec<(u64, Waker)>,
    granted: Option<u64>,
}

#[derive(Default)]
pub struct Fifo {
    inner: RefCell<Inner>,
}

pub struct FifoGuard<'a> {
    fifo: &'a Fifo,
}

/// `ticket` is the place in the queue while waiting (`None` before the
/// first poll and once the turn is granted).
pub struct Acquire<'a> {
    fifo: &'a Fifo,
    ticket: Option<u64>,
}

impl Fifo {
    pub fn lock(&self) -> Acquire<'_> {
        Acquire {
            fifo: self,
            ticket: None,
        }
    }

    fn release(&self) {
        let waker = {
            let mut s = self.inner.borrow_mut();
            let next = (!s.queue.is_empty()).then(|| s.queue.remove(0));
            match next {
                Some((ticket, waker)) => {
                    s.granted = Some(ticket);
                    Some(waker)
                }
                None => {
                    s.busy = false;
                    None
                }
            }
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl<'a> Future for Acquire<'a> {
    type Output = FifoGuard<'a>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let fifo = self.fifo;
        let mut s = fifo.inner.borrow_mut();
        match self.ticket {
            None if !s.busy => {
                s.busy = true;
                Poll::Ready(FifoGuard { fifo })
            }
            None => {
                let ticket = s.next_ticket;
                s.next_ticket += 1;
                s.queue.push((ticket, cx.waker().clone()));
                drop(s);
                self.ticket = Some(ticket);
                Poll::Pending
            }
            Some(ticket) if s.granted == Some(ticket) => {
                s.granted = None;
                drop(s);
                self.ticket = None;
                Poll::Ready(FifoGuard { fifo })
            }
            Some(ticket) => {
                if let Some(entry) = s.queue.iter_mut().find(|(t, _)| *t == ticket) {
                    entry.1 = cx.waker().clone();
                }
                Poll::Pending
            }
        }
    }
}

impl Drop for Acquire<'_> {
    // A waiter dropped before it ran must not block the queue.
    fn drop(&mut self) {
        let Some(ticket) = self.ticket else {
            return;
        };
        let granted = {
            let mut s = self.fifo.inner.borrow_mut();
            s.queue.retain(|(t, _)| *t != ticket);
            if s.granted == Some(ticket) {
                s.granted = None;
                true
            } else {
                false
            }
        };
        if granted {
            self.fifo.release();
        }
    }
}

impl Drop for FifoGuard<'_> {
    fn drop(&mut self) {
        self.fifo.release();
    }
}
