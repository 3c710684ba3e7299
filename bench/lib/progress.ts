/** Progress lines (`bench: [  12s] section: message`) and the run's time budget. */

const started = Date.now();
let deadline = Number.POSITIVE_INFINITY;

export function progress(section: string, message: string): void {
  const s = Math.round((Date.now() - started) / 1000);
  process.stdout.write(`bench: [${String(s).padStart(4)}s] ${section}: ${message}\n`);
}

/** Sets the whole run's time budget (ms from now). */
export function setBudget(ms: number): void {
  deadline = Date.now() + ms;
}

/** Milliseconds left in the budget (may be negative). */
export function remainingMs(): number {
  return deadline - Date.now();
}

/** Throws when the budget is spent: a run that overruns is broken, not slow. */
export function checkBudget(what: string): void {
  if (remainingMs() <= 0) throw new Error(`time budget spent before ${what}`);
}

export function elapsedS(): number {
  return (Date.now() - started) / 1000;
}
