//! A search on a background thread, for the protocols: the command loop
//! keeps reading (`stop`, `isready`, `?`) while the engine thinks.
//!
//! Nothing here waits for a search to end by itself: a search may have no
//! finite limit (`go infinite`, a clock only for the other side, `go depth
//! 90`), so every wait is either a stop or bounded ([`Worker::finish_within`]).

use super::{Engine, EngineOptions, Limits, SearchInfo, SearchResult};
use crate::game::Game;
use crate::model::Variant;
use crate::rules::Rules;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Owns the engine; lends it to one background search at a time. `M` is
/// the back end's move ([`Rules::Move`]).
#[derive(Debug)]
pub struct Worker<M> {
    engine: Option<Engine<M>>,
    running: Option<(Arc<AtomicBool>, JoinHandle<Engine<M>>)>,
    variant: Variant,
    options: EngineOptions,
}

impl<M: Copy + Eq + Send + 'static> Worker<M> {
    /// A worker for `engine`.
    pub fn new(engine: Engine<M>) -> Worker<M> {
        Worker {
            variant: engine.variant.clone(),
            options: engine.options,
            engine: Some(engine),
            running: None,
        }
    }

    /// Whether a search is running.
    pub fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(|(_, h)| !h.is_finished())
    }

    /// Starts searching `game` within `limits`. `on_info` is called after each
    /// iteration and `on_done` with the result, both on the search thread.
    /// An infinite search reports its result only once stopped. A running
    /// search is stopped first (and reports).
    pub fn start<R, I, D>(&mut self, game: Game<R>, limits: Limits, mut on_info: I, on_done: D)
    where
        R: Rules<Move = M> + Clone + Send + 'static,
        I: FnMut(&SearchInfo<M>) + Send + 'static,
        D: FnOnce(SearchResult<M>) + Send + 'static,
    {
        self.stop();
        let mut engine = self.engine.take().unwrap_or_else(|| self.fresh());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let result = engine.search(&game, &limits, &flag, &mut on_info);
            if limits.infinite {
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            on_done(result);
            engine
        });
        self.running = Some((stop, handle));
    }

    /// Stops a running search and waits for it (its result is reported).
    /// The search polls its stop flag every few hundred nodes, so this
    /// returns promptly whatever the search's limits.
    pub fn stop(&mut self) {
        if let Some((stop, _)) = &self.running {
            stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// Lets a running search end by itself for at most `grace`, then stops
    /// it; either way it reports. The protocols call this at the end of
    /// input: a short scripted search (`go depth 3`, then end of input)
    /// still completes, and an unbounded one cannot keep the process alive.
    pub fn finish_within(&mut self, grace: Duration) {
        let deadline = Instant::now() + grace;
        while self.is_running() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.stop();
    }

    /// Waits for the search thread once it has been told to stop (or has
    /// ended): never called on a search that may still run unbounded.
    fn join(&mut self) {
        if let Some((_, handle)) = self.running.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                // A search that panicked lost its tables: start afresh.
                Err(_) => self.engine = Some(self.fresh()),
            }
        }
    }

    /// The engine; a running search is stopped first (and reports).
    pub fn engine_mut(&mut self) -> &mut Engine<M> {
        self.stop();
        let (variant, options) = (&self.variant, self.options);
        self.engine
            .get_or_insert_with(|| Engine::with_options(variant, options))
    }

    fn fresh(&self) -> Engine<M> {
        Engine::with_options(&self.variant, self.options)
    }
}
