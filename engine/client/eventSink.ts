// What client-go does with the answer to an Event write, for both of its
// recorders:
// - core/v1 (tools/record/event.go recordToSink, recordEvent): a count bump
//   (PATCH) whose Event is gone creates it (POST); a write that got no answer
//   is tried again, 12 tries in all, after a random share of 10 s the first
//   time (so clients do not come back together) and 10 s after that; a
//   refusal (a Status) is not retried.
// - events.k8s.io/v1 (tools/events/event_broadcaster.go attemptRecording,
//   recordEvent): the same fallback for a series PATCH, and the same 12 tries,
//   each after 10 s jittered by up to 25 % (wait.Jitter); a fallback create
//   answered AlreadyExists is retried too (the Event was emitted twice in a
//   very short time).
// A retry starts the write over: the PATCH first again, as recordEvent does.

/** maxTriesPerEvent in both recorders. */
export const EVENT_MAX_TRIES = 12;
/** defaultSleepDuration in both recorders. */
export const EVENT_RETRY_SLEEP_MS = 10_000;

export interface EventWrite {
  /** core/v1 (record) or events.k8s.io/v1 (tools/events): which recorder's retry rules apply. */
  api: 'core' | 'events';
  /** A count bump or series update of an Event already written. */
  patch?: { path: string; body: string };
  /** The whole Event: the first write, or the fallback of a patch whose Event is gone. */
  create: { path: string; body: string };
  /** Whether this attempt is the create (a patch's fallback, or a write that has no patch). */
  creating: boolean;
  /** Attempts that failed and were retried. */
  tries: number;
}

export interface EventRequest {
  method: 'POST' | 'PATCH';
  path: string;
  body: string;
  contentType?: string;
}

export function eventWrite(api: EventWrite['api'], create: { path: string; body: string }, patch?: { path: string; body: string }): EventWrite {
  return { api, create, ...(patch ? { patch } : {}), creating: !patch, tries: 0 };
}

/** The request this attempt sends. Both sinks patch with a strategic merge patch. */
export function eventRequest(w: EventWrite): EventRequest {
  if (w.creating || !w.patch) return { method: 'POST', path: w.create.path, body: w.create.body };
  return { method: 'PATCH', path: w.patch.path, body: w.patch.body, contentType: 'application/strategic-merge-patch+json' };
}

export type EventNext =
  | { type: 'done' }
  /** Send this at once (the create after a patch's 404). */
  | { type: 'send'; write: EventWrite }
  /** Send this after the delay (a retry). */
  | { type: 'retry'; afterMs: number; write: EventWrite };

/**
 * What follows an answer: `status` is the HTTP status, 0 for no answer (the
 * server unreachable, the connection closed, the request timed out). `random`
 * is a draw in [0, 1) from the component's seeded stream, used only for a retry.
 */
export function afterEventAnswer(w: EventWrite, status: number, random: () => number): EventNext {
  if (status >= 200 && status < 300) return { type: 'done' };
  if (status === 404 && !w.creating) return { type: 'send', write: { ...w, creating: true } };
  const retry = status === 0 || (w.api === 'events' && status === 409 && w.creating && !!w.patch);
  if (!retry) return { type: 'done' }; // "Server rejected event (will not retry!)"
  const tries = w.tries + 1;
  if (tries >= EVENT_MAX_TRIES) return { type: 'done' }; // "retry limit exceeded"
  const afterMs = w.api === 'core' ? (tries === 1 ? EVENT_RETRY_SLEEP_MS * random() : EVENT_RETRY_SLEEP_MS) : EVENT_RETRY_SLEEP_MS * (1 + 0.25 * random());
  return { type: 'retry', afterMs, write: { ...w, creating: !w.patch, tries } };
}
