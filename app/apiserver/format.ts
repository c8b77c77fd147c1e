// Words and numbers of the API server panel: status lines, latencies, stage names.
import type { StageRecord } from '../../engine/apiserver/records/types';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** `403 Forbidden`; `in flight` for code 0. */
export function statusLine(code: number): string {
  if (code === 0) return 'in flight';
  const t = STATUS_TEXT[code];
  return t ? `${code} ${t}` : String(code);
}

/** Virtual milliseconds, to a sensible precision: `0.25 ms`, `3.4 ms`, `120 ms`, `2.50 s`. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return '…';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms === 0) return '0 ms';
  return `${ms.toFixed(2)} ms`;
}

export const STAGE_LABEL: Record<StageRecord['kind'], string> = {
  authentication: 'Authentication',
  impersonation: 'Impersonation',
  authorization: 'Authorization',
  limit: 'In-flight limit',
  decode: 'Decode',
  mutating: 'Mutating admission',
  validation: 'Validation',
  validating: 'Validating admission',
  storage: 'Storage',
  proxy: 'Aggregation proxy',
  response: 'Response',
};

export const DECISION_ICON: Record<StageRecord['decision'], string> = {
  allowed: '✓',
  ok: '✓',
  denied: '⊘',
  error: '✕',
  skipped: '–',
};

/** The colour family of a status code. */
export function codeClass(code: number): 'inflight' | 'ok' | 'client' | 'server' {
  if (code === 0) return 'inflight';
  if (code < 400) return 'ok';
  if (code < 500) return 'client';
  return 'server';
}

/** A chip of the pipeline overview: one stage, or a run of admission plugins. */
export interface StageGroup {
  kind: StageRecord['kind'];
  label: string;
  decision: StageRecord['decision'];
  /** Plugin names in the group. */
  names: string[];
  failing: boolean;
}

const RANK: Record<StageRecord['decision'], number> = { skipped: 0, allowed: 1, ok: 1, error: 2, denied: 3 };

function shortName(s: StageRecord): string {
  switch (s.kind) {
    case 'authentication':
      return 'authn';
    case 'authorization':
      return 'authz';
    case 'impersonation':
      return 'impersonate';
    case 'limit':
      return 'inflight limit';
    case 'decode':
      return s.name === 'patch' ? 'patch' : 'decode';
    case 'validation':
      return 'validate';
    case 'storage':
      return s.name;
    case 'proxy':
      return 'proxy';
    case 'response':
      return 'response';
    case 'mutating':
    case 'validating':
      return s.name;
  }
}

/** The pipeline at a glance: runs of mutating or validating plugins fold into one chip, unless one failed. */
export function groupStages(stages: readonly StageRecord[], failing?: StageRecord): StageGroup[] {
  const out: StageGroup[] = [];
  for (const s of stages) {
    const last = out[out.length - 1];
    const foldable = s.kind === 'mutating' || s.kind === 'validating';
    if (foldable && last && last.kind === s.kind && !last.failing) {
      last.names.push(s.name);
      if (RANK[s.decision] > RANK[last.decision]) last.decision = s.decision;
      last.failing = s === failing;
      last.label = last.failing ? `${s.kind}: ${s.name}` : `${s.kind} ×${last.names.length}`;
      continue;
    }
    out.push({ kind: s.kind, label: shortName(s), decision: s.decision, names: [s.name], failing: s === failing });
  }
  return out;
}
