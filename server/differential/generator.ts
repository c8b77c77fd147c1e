// Seeded random request sequences for the differential suite: puts, ranges,
// deletes, txns (with compares of every target), compactions and leases over
// a handful of keys, watched from the start by a prefix watch with prev_kv.
import { Rng } from '../../engine/sim/rng';
import { b64 } from '../testkit';
import type { Ctx, Sequence, Step } from './harness';

const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4'];
const VALUES = ['a', 'b', 'c', ''];

export function randomSequence(seed: number, length: number): Sequence {
  const rng = new Rng(seed);
  const steps: Step[] = [];
  const pick = <T>(a: readonly T[]): T => a[rng.int(0, a.length)]!;
  const all = (c: Ctx) => ({ key: c.key(''), range_end: b64(c.raw('').slice(0, -1) + '0') });
  /** Writes issued so far: relative revisions beyond it are likely in the future. */
  let writes = 0;
  const leases: number[] = [];
  let nextLease = 1;

  steps.push({ op: 'watch', name: 'all', body: (c: Ctx) => ({ create_request: { ...all(c), prev_kv: true } }) });

  /** Chooses a key range now (both clusters must see the same request). */
  const keyRange = (): ((c: Ctx) => Record<string, unknown>) => {
    const r = rng.int(0, 4);
    const [a, b] = [pick(KEYS), pick(KEYS)].sort();
    if (r === 0) return all;
    if (r === 1) return (c) => ({ key: c.key(a!), range_end: 'AA==' }); // from key (later sequences' keys do not exist yet)
    if (r === 2) return (c) => ({ key: c.key(a!), range_end: c.key(b!) });
    return (c) => ({ key: c.key(a!) });
  };

  const requestOp = (depth: number): ((c: Ctx) => unknown) => {
    const kind = rng.int(0, depth < 1 ? 4 : 3);
    const key = pick(KEYS);
    const value = pick(VALUES);
    const prev = rng.chance(0.5);
    const rangeChoice = rng.int(0, 4);
    if (kind === 0) return (c) => ({ request_put: { key: c.key(key), value: b64(value), prev_kv: prev } });
    if (kind === 1) return (c) => ({ request_range: rangeChoice === 0 ? all(c) : { key: c.key(key), count_only: prev } });
    if (kind === 2) return (c) => ({ request_delete_range: rangeChoice === 0 ? { key: c.key(key), range_end: c.key('k3'), prev_kv: prev } : { key: c.key(key), prev_kv: prev } });
    const inner = txnBody(depth + 1);
    return (c) => ({ request_txn: inner(c) });
  };

  const compare = (): ((c: Ctx) => unknown) => {
    const key = pick(KEYS);
    const result = pick(['EQUAL', 'GREATER', 'LESS', 'NOT_EQUAL']);
    const target = pick(['VERSION', 'CREATE', 'MOD', 'VALUE', 'LEASE']);
    const n = rng.int(0, writes + 2);
    const v = pick(VALUES);
    const lease = leases.length > 0 && rng.chance(0.5) ? pick(leases) : 0;
    return (c) => {
      const base = { key: c.key(key), result, target };
      switch (target) {
        case 'VERSION':
          return { ...base, version: Math.min(n, 3) };
        case 'CREATE':
          return { ...base, create_revision: n === 0 ? 0 : c.rev(n) };
        case 'MOD':
          return { ...base, mod_revision: n === 0 ? 0 : c.rev(n) };
        case 'VALUE':
          return { ...base, value: b64(v) };
        default:
          return { ...base, lease: lease === 0 ? 0 : c.lease(lease) };
      }
    };
  };

  function txnBody(depth: number): (c: Ctx) => unknown {
    const cmps = Array.from({ length: rng.int(0, 3) }, compare);
    const succ = Array.from({ length: rng.int(0, 4) }, () => requestOp(depth));
    const fail = Array.from({ length: rng.int(0, 3) }, () => requestOp(depth));
    return (c) => ({ compare: cmps.map((f) => f(c)), success: succ.map((f) => f(c)), failure: fail.map((f) => f(c)) });
  }

  for (let i = 0; i < length; i++) {
    const roll = rng.float();
    if (roll < 0.3) {
      const key = pick(KEYS);
      const value = pick(VALUES) + String(i);
      const prev = rng.chance(0.5);
      const lease = leases.length > 0 && rng.chance(0.2) ? pick(leases) : 0;
      steps.push({ op: 'call', path: '/v3/kv/put', body: (c: Ctx) => ({ key: c.key(key), value: b64(value), prev_kv: prev, ...(lease ? { lease: c.lease(lease) } : {}) }), label: 'put' });
      writes++;
    } else if (roll < 0.5) {
      const opts: Record<string, unknown> = {};
      if (rng.chance(0.3)) opts.limit = rng.int(1, 4);
      if (rng.chance(0.2)) opts.sort_order = pick(['ASCEND', 'DESCEND', 'NONE']);
      if (rng.chance(0.2)) opts.sort_target = pick(['KEY', 'VERSION', 'CREATE', 'MOD', 'VALUE']);
      if (rng.chance(0.15)) opts.keys_only = true;
      if (rng.chance(0.1)) opts.count_only = true;
      const atRev = rng.chance(0.25) ? rng.int(0, writes + 3) : 0;
      const kr = keyRange();
      steps.push({ op: 'call', path: '/v3/kv/range', body: (c: Ctx) => ({ ...kr(c), ...opts, ...(atRev ? { revision: c.rev(atRev) } : {}) }), label: 'range' });
    } else if (roll < 0.62) {
      const useRange = rng.chance(0.3);
      const key = pick(KEYS);
      const prev = rng.chance(0.5);
      steps.push({
        op: 'call',
        path: '/v3/kv/deleterange',
        body: (c: Ctx) => (useRange ? { key: c.key(key), range_end: c.key('k4'), prev_kv: prev } : { key: c.key(key), prev_kv: prev }),
        label: 'delete',
      });
      writes++;
    } else if (roll < 0.85) {
      const body = txnBody(0);
      steps.push({ op: 'call', path: '/v3/kv/txn', body, label: 'txn' });
      writes++;
    } else if (roll < 0.89) {
      const n = rng.int(0, writes + 2);
      steps.push({ op: 'call', path: '/v3/kv/compaction', body: (c: Ctx) => ({ revision: c.rev(n) }), label: 'compact' });
    } else if (roll < 0.94) {
      const id = nextLease++;
      leases.push(id);
      steps.push({ op: 'call', path: '/v3/lease/grant', body: (c: Ctx) => ({ TTL: 300, ID: c.lease(id) }), label: 'lease grant' });
    } else if (roll < 0.97 && leases.length > 0) {
      const id = pick(leases);
      steps.push({ op: 'call', path: '/v3/lease/revoke', body: (c: Ctx) => ({ ID: c.lease(id) }), label: 'lease revoke' });
      writes++;
    } else if (leases.length > 0) {
      const id = pick(leases);
      steps.push({ op: 'call', path: '/v3/lease/timetolive', body: (c: Ctx) => ({ ID: c.lease(id), keys: true }), label: 'lease ttl' });
      steps.push({ op: 'call', path: '/v3/lease/leases', body: {}, label: 'leases' });
    }
  }
  // Leave no lease behind: later sequences see every live lease in LeaseLeases.
  for (const id of leases) steps.push({ op: 'call', path: '/v3/lease/revoke', body: (c: Ctx) => ({ ID: c.lease(id) }), label: 'cleanup revoke' });
  steps.push({ op: 'call', path: '/v3/kv/range', body: (c: Ctx) => all(c), label: 'final state' });
  steps.push({ op: 'settle' });
  return { name: `random seed ${seed}`, steps };
}
