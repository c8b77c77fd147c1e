// client-go's EventCorrelator (tools/record/events_cache.go), which every
// legacy core/v1 event recorder (the kubelet's, each controller's) runs an
// event through before writing it:
// - the aggregator: a source saying ten different messages with one reason
//   about one object within 10 minutes gets one Event "(combined from similar
//   events): <latest message>" for the 10th and later ones, instead of an
//   Event per message;
// - the logger: an event seen before (same key, or the same aggregate) bumps
//   that Event by a strategic-merge patch of count, lastTimestamp and message;
// - the spam filter: a source may say 25 things about one object, then one a
//   5 minutes (a token bucket). It runs last, so what it drops is still
//   counted: the next bump that gets through carries the whole count.
// The state is plain data (Maps of records), kept by the recorder's owner.

/** The Event fields the correlator reads. */
export interface CorrelatedEvent {
  source: { component: string; host?: string };
  involvedObject: { kind: string; namespace?: string; name: string; uid?: string; apiVersion?: string; fieldPath?: string };
  type: string;
  reason: string;
  message: string;
  reportingController?: string;
  reportingInstance?: string;
}

/** What was written for an event key (eventLog). */
export interface ObservedEvent {
  count: number;
  first: string;
  name: string;
  namespace: string;
}

export interface EventCorrelatorState {
  /** Aggregate key → the distinct messages seen (at most 10) and when the last came (aggregateRecord). */
  aggregates: Map<string, { messages: string[]; lastAt: number }>;
  /** Event key or aggregate key → the Event it became. */
  observed: Map<string, ObservedEvent>;
  /** Spam key → its token bucket. */
  spam: Map<string, { tokens: number; at: number }>;
}

/** Where the event goes: nowhere (spam), a new Event, or a bump of an existing one. */
export type Correlation =
  | { skip: true }
  | {
      skip: false;
      name: string;
      namespace: string;
      count: number;
      /** firstTimestamp (RFC 3339): the first occurrence's. */
      first: string;
      message: string;
      /** The combined Event of similar ones (the aggregator's copy: no reporting controller or instance). */
      aggregate: boolean;
      /** A bump: the strategic-merge patch body (keys sorted, as Go marshals the two-way patch's map). */
      patch?: string;
    };

/** maxLruCacheEntries, defaultAggregateMaxEvents, defaultAggregateIntervalInSeconds, defaultSpamBurst and defaultSpamQPS. */
export const LRU_ENTRIES = 4096;
export const AGGREGATE_MAX_EVENTS = 10;
export const AGGREGATE_INTERVAL_MS = 600_000;
export const SPAM_BURST = 25;
export const SPAM_REFILL_MS = 300_000;
const COMBINED = '(combined from similar events): ';

export function newEventCorrelator(): EventCorrelatorState {
  return { aggregates: new Map(), observed: new Map(), spam: new Map() };
}

/** An LRU's Add (groupcache/lru): to the front, the oldest out past the limit. */
function touch<V>(m: Map<string, V>, key: string, v: V): void {
  m.delete(key);
  m.set(key, v);
  if (m.size > LRU_ENTRIES) m.delete(m.keys().next().value!);
}

function objectKey(e: CorrelatedEvent, withFieldPath: boolean): string[] {
  const o = e.involvedObject;
  return [e.source.component, e.source.host ?? '', o.kind, o.namespace ?? '', o.name, ...(withFieldPath ? [o.fieldPath ?? ''] : []), o.uid ?? '', o.apiVersion ?? ''];
}

/** getEventKey: source, object (with its field path), type, reason, message. */
export const eventKey = (e: CorrelatedEvent): string => [...objectKey(e, true), e.type, e.reason, e.message].join('\x00');
/** getSpamKey: source and object. */
const spamKey = (e: CorrelatedEvent): string => objectKey(e, false).join('\x00');
/** EventAggregatorByReasonFunc: source, object (no field path), type, reason and the reporter. */
const aggregateKey = (e: CorrelatedEvent): string => [...objectKey(e, false), e.type, e.reason, e.reportingController ?? '', e.reportingInstance ?? ''].join('\x00');

/**
 * Runs one event through the correlator at `now` (virtual ms; `rfc` is its
 * RFC 3339 form). `freshName` names a new Event (`<object>.<hex nanoseconds>`,
 * as the recorder does); `namespace` is the one the Event is written in.
 */
export function correlate(c: EventCorrelatorState, e: CorrelatedEvent, namespace: string, now: number, rfc: string, freshName: () => string): Correlation {
  // EventAggregate.
  let key = eventKey(e);
  let message = e.message;
  let aggregate = false;
  const aKey = aggregateKey(e);
  let record = c.aggregates.get(aKey);
  if (!record || now - record.lastAt > AGGREGATE_INTERVAL_MS) record = { messages: [], lastAt: now };
  if (!record.messages.includes(e.message)) record.messages.push(e.message);
  record.lastAt = now;
  touch(c.aggregates, aKey, record);
  if (record.messages.length >= AGGREGATE_MAX_EVENTS) {
    // The set is kept below the limit by dropping any one message (Go's map
    // order: here the oldest), so one of the nine left is written plainly again.
    record.messages.shift();
    key = aKey;
    message = COMBINED + e.message;
    aggregate = true;
  }
  // eventObserve.
  const last = c.observed.get(key);
  const seen: ObservedEvent = last ? { ...last, count: last.count + 1 } : { count: 1, first: rfc, name: freshName(), namespace };
  touch(c.observed, key, seen);
  // The spam filter.
  const sKey = spamKey(e);
  const bucket = c.spam.get(sKey) ?? { tokens: SPAM_BURST, at: now };
  const tokens = Math.min(SPAM_BURST, bucket.tokens + (now - bucket.at) / SPAM_REFILL_MS);
  const ok = tokens >= 1;
  touch(c.spam, sKey, { tokens: ok ? tokens - 1 : tokens, at: now });
  if (!ok) return { skip: true };
  return {
    skip: false,
    name: seen.name,
    namespace: seen.namespace,
    count: seen.count,
    first: seen.first,
    message,
    aggregate,
    ...(last ? { patch: JSON.stringify({ count: seen.count, lastTimestamp: rfc, message }) } : {}),
  };
}
