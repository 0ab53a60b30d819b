/**
 * The progress bar of `meeplekit simulate` on a terminal: redrawn on a timer from the start (so
 * it moves while the first games are played), with the time elapsed, the speed and `eta ?` until
 * a game of this run has finished. The caller starts one only when stderr is a terminal.
 */

/** What a progress bar needs. */
export interface ProgressOptions {
  /** Games in the whole run. */
  readonly total: number;
  /** Games already done when it starts (kept by `--resume`): not counted in the speed. */
  readonly done: number;
  /** Where to draw (stderr). */
  readonly write: (text: string) => void;
  /** Milliseconds between redraws (default 250). */
  readonly interval?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
  /** The bar's first word: the command (default `simulate`). */
  readonly label?: string;
}

/** A running progress bar. */
export interface Progress {
  /** Games done so far (drawn at the next tick). */
  update(done: number): void;
  /** Stops the timer; draws the last state and ends the line. */
  stop(): void;
}

/** A progress bar that draws nothing (stderr is not a terminal, or `--quiet`). */
export const NO_PROGRESS: Progress = { update: () => {}, stop: () => {} };

/** `0:05`, `12:34`, `1:02:03`. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n: number): string => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** Games per second, in a few digits. */
export function speed(rate: number): string {
  return rate < 10 ? rate.toFixed(1) : String(Math.round(rate));
}

/**
 * The bar's text for `done` of `total` games, `fresh` of them played in `seconds` by this run:
 * `simulate [######........] 37/100 games 0:05 7.4 games/s eta 0:09`, with `eta ?` while no game
 * of this run has finished; `label` is its first word.
 */
export function progressText(done: number, total: number, fresh: number, seconds: number, label = 'simulate'): string {
  const width = 30;
  const filled = total === 0 ? width : Math.min(width, Math.floor((width * done) / total));
  const rate = seconds > 0 && fresh > 0 ? fresh / seconds : 0;
  const eta = done >= total ? clock(0) : rate > 0 ? clock((total - done) / rate) : '?';
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} games ${clock(seconds)}${rate > 0 ? ` ${speed(rate)} games/s` : ''} eta ${eta}`;
}

/** Starts a progress bar: drawn at once, then on every tick until `stop`. */
export function startProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const first = options.done;
  let done = first;
  // `\r` back to the start of the line, `ESC [K` clears what a longer line left.
  const draw = (): void => options.write(`\r${progressText(done, options.total, done - first, (now() - started) / 1000, options.label)}\x1b[K`);
  draw();
  const timer = setInterval(draw, options.interval ?? 250);
  // The bar never keeps the process alive.
  timer.unref();
  return {
    update(n) {
      done = n;
    },
    stop() {
      clearInterval(timer);
      draw();
      options.write('\n');
    },
  };
}
