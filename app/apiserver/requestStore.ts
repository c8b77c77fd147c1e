// kube-apiserver request records as the UI keeps them: newest first, bounded,
// merged from the worker's `requests` deltas (a record comes once when it
// starts, code 0, and again when it finishes; the later one replaces it).
import { create } from 'zustand';
import type { RequestRecord, StageRecord } from '../../engine/apiserver/records/types';

/** Records kept in the UI. */
export const REQUESTS_KEEP = 500;
/** Rows the list renders at most. */
export const ROWS_SHOWN = 300;

export type Outcome = 'inflight' | 'allowed' | 'denied' | 'error';
export type OutcomeFilter = 'all' | Outcome | '2xx' | '4xx' | '5xx';

export interface RequestFilters {
  user: string;
  verb: string;
  resource: string;
  outcome: OutcomeFilter;
}

export const NO_FILTERS: RequestFilters = { user: '', verb: '', resource: '', outcome: 'all' };

/** Merges a delta into a newest-first list, replacing by id; a finished record is never replaced by an in-flight copy. */
export function mergeRequests(list: readonly RequestRecord[], incoming: readonly RequestRecord[], keep = REQUESTS_KEEP): RequestRecord[] {
  if (incoming.length === 0) return list as RequestRecord[];
  const byId = new Map<number, RequestRecord>();
  for (const r of list) byId.set(r.id, r);
  for (const r of incoming) {
    const had = byId.get(r.id);
    if (had && had.code !== 0 && r.code === 0) continue;
    byId.set(r.id, r);
  }
  const out = [...byId.values()].sort((a, b) => b.id - a.id);
  return out.length > keep ? out.slice(0, keep) : out;
}

/** The stage that refused or failed the request, if one did. */
export function failingStage(r: RequestRecord): StageRecord | undefined {
  return r.stages.find((s) => s.decision === 'denied' || s.decision === 'error');
}

export function outcomeOf(r: RequestRecord): Outcome {
  if (r.code === 0) return 'inflight';
  if (r.code < 400) return 'allowed';
  const f = failingStage(r);
  if (f?.decision === 'denied' || r.code === 401 || r.code === 403 || r.code === 429) return 'denied';
  return 'error';
}

export function matchesOutcome(r: RequestRecord, f: OutcomeFilter): boolean {
  switch (f) {
    case 'all':
      return true;
    case '2xx':
      return r.code >= 200 && r.code < 300;
    case '4xx':
      return r.code >= 400 && r.code < 500;
    case '5xx':
      return r.code >= 500;
    default:
      return outcomeOf(r) === f;
  }
}

/** `configmaps`, `pods/status`, or the path for non-resource requests (`/healthz`). */
export function resourceOf(r: RequestRecord): string {
  if (!r.resource) return r.path;
  return r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
}

/** `default/web`, `web`, `default` (a list in a namespace), or ''. */
export function objectOf(r: RequestRecord): string {
  if (r.namespace && r.name) return `${r.namespace}/${r.name}`;
  return r.name || r.namespace;
}

export function latencyOf(r: RequestRecord): number | null {
  return r.doneAt === undefined || r.code === 0 ? null : r.doneAt - r.at;
}

export function filterRequests(list: readonly RequestRecord[], f: RequestFilters, limit = ROWS_SHOWN): RequestRecord[] {
  const out: RequestRecord[] = [];
  for (const r of list) {
    if (f.user && r.user !== f.user) continue;
    if (f.verb && r.verb !== f.verb) continue;
    if (f.resource && resourceOf(r) !== f.resource) continue;
    if (!matchesOutcome(r, f.outcome)) continue;
    out.push(r);
    if (out.length >= limit) break;
  }
  return out;
}

/** The distinct users, verbs and resources seen, sorted: the filters' choices. */
export function filterChoices(list: readonly RequestRecord[]): { users: string[]; verbs: string[]; resources: string[] } {
  const users = new Set<string>();
  const verbs = new Set<string>();
  const resources = new Set<string>();
  for (const r of list) {
    users.add(r.user);
    verbs.add(r.verb);
    resources.add(resourceOf(r));
  }
  const sorted = (s: Set<string>) => [...s].filter((x) => x !== '').sort();
  return { users: sorted(users), verbs: sorted(verbs), resources: sorted(resources) };
}

export function countOutcomes(list: readonly RequestRecord[]): Record<Outcome, number> {
  const c: Record<Outcome, number> = { inflight: 0, allowed: 0, denied: 0, error: 0 };
  for (const r of list) c[outcomeOf(r)]++;
  return c;
}

// ---- the store -------------------------------------------------------------

export interface RequestState {
  /** Newest first. */
  list: RequestRecord[];
  filters: RequestFilters;
  /** The selected record, kept even after it falls out of `list`. */
  selected: RequestRecord | null;
}

export const useRequests = create<RequestState>()(() => ({ list: [], filters: NO_FILTERS, selected: null }));

/** Applies a delta to the state (pure; `full` starts again, as after a restart). */
export function receiveRequestsInto(s: RequestState, incoming: readonly RequestRecord[], full: boolean): Partial<RequestState> {
  const out: Partial<RequestState> = { list: mergeRequests(full ? [] : s.list, incoming) };
  if (s.selected) {
    const fresh = incoming.find((r) => r.id === s.selected!.id);
    if (full) out.selected = null;
    else if (fresh && !(s.selected.code !== 0 && fresh.code === 0)) out.selected = fresh;
  }
  return out;
}

export function setRequestFilter<K extends keyof RequestFilters>(key: K, value: RequestFilters[K]): void {
  useRequests.setState((s) => ({ filters: { ...s.filters, [key]: value } }));
}

export function clearRequestFilters(): void {
  useRequests.setState({ filters: NO_FILTERS });
}

export function clearRequests(): void {
  useRequests.setState({ list: [] });
}

export function pinRequest(r: RequestRecord | null): void {
  useRequests.setState({ selected: r });
}

/** Deltas are merged a few times a second: the list stays readable and cheap when the cluster is busy. */
export const MERGE_MS = 150;
let pending: RequestRecord[] = [];
let pendingFull = false;
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  timer = null;
  const recs = pending;
  const full = pendingFull;
  pending = [];
  pendingFull = false;
  useRequests.setState((s) => receiveRequestsInto(s, recs, full));
}

/** Called with every view update's `requests` (and on full updates, which start again). */
export function receiveRequests(records: readonly RequestRecord[] | undefined, full: boolean): void {
  if (full) {
    pending = [];
    pendingFull = true;
  }
  if (records) pending.push(...records);
  if (!full && pending.length === 0) return;
  timer ??= setTimeout(flush, MERGE_MS);
}
