// The command line's one progress display, for `erp export` and `erp import`, on stderr (stdout
// carries the file or the report).
//
// On a terminal: a bar redrawn in place (`\r`), at most every FRAME_MS however often the work
// reports, and the last state with a line break at the end. Anywhere else (a log file, CI) a
// redrawn bar is noise, a megabyte of `\r` frames: a plain line at most every LINE_MS, and one at
// the end, so that a log says how far it went and how it ended.
//
//   terminal:  [#############.................]  42% 4,200/10,000 rows
//   a log:     4,200/10,000 rows (42%) after 10 s
//              10,000/10,000 rows (100%) in 23 s

export const FRAME_MS = 250;
export const LINE_MS = 10_000;

/** What it writes to: process.stderr, or a fake in tests. */
export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressOptions {
  /** What is counted: `rows`. */
  unit?: string;
  /** Milliseconds (performance.now by default; a fake clock in tests). */
  now?: () => number;
  frameMs?: number;
  lineMs?: number;
}

export interface ProgressState {
  done: number;
  /** The number of units there will be, when known. */
  total?: number;
  /** How far, 0 to 1, when measured otherwise than done/total (the bytes of a file read so far). */
  share?: number;
}

export interface Progress {
  /** The work's state: drawn when the last frame (line) is old enough, else only kept. */
  update(state: ProgressState): void;
  /** The last state (or `state`), always shown once: a final frame and a line break, or a final line. */
  finish(state?: ProgressState): void;
}

const WIDTH = 30;

export function progress(out: ProgressOutput, options: ProgressOptions = {}): Progress {
  const unit = options.unit ?? 'rows';
  const now = options.now ?? (() => performance.now());
  const frameMs = options.frameMs ?? FRAME_MS;
  const lineMs = options.lineMs ?? LINE_MS;
  const terminal = out.isTTY === true;
  const started = now();
  let last: ProgressState = { done: 0 };
  let shownAt: number | undefined;
  let shownWidth = 0;
  let finished = false;

  const share = ({ done, total, share }: ProgressState): number | undefined => {
    if (share !== undefined) return Math.max(0, Math.min(1, share));
    if (total === undefined) return undefined;
    return total === 0 ? 1 : Math.max(0, Math.min(1, done / total));
  };
  const count = ({ done, total }: ProgressState) => `${done.toLocaleString('en')}${total === undefined ? '' : `/${total.toLocaleString('en')}`} ${unit}`;
  const percent = (value: number) => `${String(Math.floor(value * 100)).padStart(3)}%`;

  const frame = (state: ProgressState) => {
    const part = share(state);
    const bar = part === undefined ? '' : `[${'#'.repeat(Math.round(part * WIDTH)).padEnd(WIDTH, '.')}] ${percent(part)} `;
    const text = `${bar}${count(state)}`;
    // Spaces over what a longer frame before it left on the line.
    out.write(`\r${text.padEnd(shownWidth)}`);
    shownWidth = text.length;
  };
  const line = (state: ProgressState, at: number, end: boolean) => {
    const part = share(state);
    const seconds = Math.round((at - started) / 1000);
    out.write(`${count(state)}${part === undefined ? '' : ` (${percent(part).trim()})`} ${end ? 'in' : 'after'} ${seconds} s\n`);
  };

  return {
    update(state) {
      if (finished) return;
      last = state;
      const at = now();
      if (terminal) {
        if (shownAt !== undefined && at - shownAt < frameMs) return;
        shownAt = at;
        frame(state);
      } else {
        if (at - (shownAt ?? started) < lineMs) return;
        shownAt = at;
        line(state, at, false);
      }
    },
    finish(state = last) {
      if (finished) return;
      finished = true;
      if (terminal) {
        frame(state);
        out.write('\n');
      } else line(state, now(), true);
    },
  };
}
