// kubectl describe quota (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// v1.32, describeQuota): the scopes with their help text, then each resource
// of status.hard with its usage — in the hard quantity's format when the two
// differ — and no events.
import { PrefixWriter } from './writer';
import { canonicalQuantity, parseQuantityExact } from '../util/quantityFormat';

type Obj = Record<string, any>;

const SCOPE_HELP: Record<string, string> = {
  Terminating: 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.',
  NotTerminating: 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
  BestEffort: 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
  NotBestEffort: 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.',
};

const NANO = 10n ** 9n;

/** usedQuantity.String(), or resource.NewQuantity(used.Value(), hard.Format).String() when the formats differ. */
function usedText(used: unknown, hard: unknown): string {
  const h = parseQuantityExact(String(hard ?? '0'));
  const u = parseQuantityExact(String(used ?? '0')) ?? { nano: 0n, format: 'DecimalSI' as const };
  if (!h || h.format === u.format) return canonicalQuantity(u.nano, u.format);
  // Value() rounds up to a whole unit.
  const whole = u.nano >= 0n ? (u.nano + NANO - 1n) / NANO : u.nano / NANO;
  return canonicalQuantity(whole * NANO, h.format);
}

export function describeResourceQuota(q: Obj): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${q.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${q.metadata?.namespace ?? ''}\n`);
  const scopes: string[] = [...(q.spec?.scopes ?? [])].sort();
  if (scopes.length > 0) {
    w.write(0, `Scopes:\t${scopes.join(', ')}\n`);
    for (const s of scopes) if (SCOPE_HELP[s]) w.write(0, ` * ${SCOPE_HELP[s]}\n`);
  }
  w.write(0, 'Resource\tUsed\tHard\n');
  w.write(0, '--------\t----\t----\n');
  const hard: Record<string, string> = q.status?.hard ?? {};
  const used: Record<string, string> = q.status?.used ?? {};
  for (const name of Object.keys(hard).sort()) {
    const h = parseQuantityExact(String(hard[name]));
    w.write(0, `${name}\t${usedText(used[name], hard[name])}\t${h ? canonicalQuantity(h.nano, h.format) : hard[name]}\n`);
  }
  return w.done();
}
