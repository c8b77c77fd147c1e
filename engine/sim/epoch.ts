// The wall-clock instant a simulation's virtual time 0 stands for. It belongs
// to the simulation (chosen by the host when it creates one: the server's
// start, the page's creation; recorded in the options a scenario replays and
// in snapshots), so timestamps in API objects read like the real clock's to
// a real kubectl. The kernel makes its simulation's epoch the current one
// whenever it runs, so code formatting a virtual instant needs no handle on
// the simulation; one engine runs at a time.

/** The default (tests, and any run that does not choose): 2025-01-01T00:00:00Z. */
export const DEFAULT_EPOCH_MS = Date.UTC(2025, 0, 1);

let current = DEFAULT_EPOCH_MS;

/** Wall ms of virtual time 0 in the simulation running now. */
export function epochMs(): number {
  return current;
}

/** Called by the kernel as its simulation runs (and by hosts before they format its times). */
export function enterEpoch(ms: number): void {
  current = ms;
}
