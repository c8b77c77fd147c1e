// Runs the admission chain the way admission.chainAdmissionHandler does:
// plugins in order, each only if it handles the request, stopping at the
// first refusal. Each step is recorded with the object before and after it,
// so the API server can show the decision and compute the JSON patch.
import type { KObject, Status } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionVerdict, ClusterReader } from '../types';

export type AdmissionPhase = 'mutating' | 'validating';

export interface AdmissionRecord {
  plugin: string;
  phase: AdmissionPhase;
  decision: 'allowed' | 'denied' | 'skipped';
  status?: Status;
  warnings: readonly string[];
  auditAnnotations?: Record<string, string>;
  /**
   * Copies of attrs.object around a mutating step (the same copy twice when the
   * step changed nothing); attrs.object itself for a validating step, and for
   * every step of a mutating phase that changed nothing at all.
   */
  before: KObject | null;
  after: KObject | null;
}

export interface AdmissionChainResult {
  allowed: boolean;
  /** The refusal, when a plugin refused. */
  status?: Status;
  warnings: string[];
  auditAnnotations: Record<string, string>;
  records: AdmissionRecord[];
  /** What the plugins asked to be written with the object (AdmissionVerdict.storageWrites). */
  storageWrites: KObject[];
}

/** The warnings of a step that gave none (most): one shared array, never written. */
const NO_WARNINGS: readonly string[] = Object.freeze([]);

/** A mutating record's object before any copy was made. */
const UNCOPIED: unique symbol = Symbol('uncopied');
type Snapshot = KObject | null | typeof UNCOPIED;
type PendingRecord = Omit<AdmissionRecord, 'before' | 'after'> & { before: Snapshot; after: Snapshot };

function runPhase(phase: AdmissionPhase, plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  const records: PendingRecord[] = [];
  const warnings: string[] = [];
  const auditAnnotations: Record<string, string> = {};
  const storageWrites: KObject[] = [];
  const mutating = phase === 'mutating' && !!attrs.object;
  // Mutating steps are recorded with copies of the object around them, made only
  // once a step changes it (the copies exist to compute that step's patch): until
  // then the records hold UNCOPIED and are given the first copy when it is made,
  // or the object itself when no step changed it. Validating steps cannot change
  // it and no patch is computed for them: their records share the object itself.
  let current: Snapshot = attrs.object ? (mutating ? UNCOPIED : attrs.object) : null;
  // The JSON text of the object before the next step (mutating phase): a step that
  // leaves the same text changed nothing, keeps the same copy and needs no patch.
  // Taken before the first step that may change the object.
  let currentText: string | undefined;
  for (const plugin of plugins) {
    const step = phase === 'mutating' ? plugin.admit : plugin.validate;
    if (!step) continue;
    if (!plugin.handles(attrs)) {
      records.push({ plugin: plugin.name, phase, decision: 'skipped', warnings: NO_WARNINGS, before: current, after: current });
      continue;
    }
    let before = current;
    const watch = mutating && (plugin.mayMutate?.(attrs, cluster) ?? true);
    if (watch) currentText ??= JSON.stringify(attrs.object);
    const verdict: AdmissionVerdict = step.call(plugin, attrs, cluster);
    // Validating plugins must not change the object; only mutating steps that changed it take a new copy.
    let after = before;
    if (watch) {
      const text = JSON.stringify(attrs.object);
      if (text !== currentText) {
        // The object as it came (no earlier step changed it): the copy the earlier records share.
        if (before === UNCOPIED) before = fill(records, JSON.parse(currentText!) as KObject);
        after = JSON.parse(text) as KObject;
        currentText = text;
      }
    }
    current = after;
    const stepWarnings = verdict.warnings ?? NO_WARNINGS;
    if (stepWarnings.length) warnings.push(...stepWarnings);
    if (verdict.allowed) {
      const rec: PendingRecord = { plugin: plugin.name, phase, decision: 'allowed', warnings: stepWarnings, before, after };
      if (verdict.auditAnnotations) {
        rec.auditAnnotations = verdict.auditAnnotations;
        Object.assign(auditAnnotations, verdict.auditAnnotations);
      }
      records.push(rec);
      if (verdict.storageWrites) storageWrites.push(...verdict.storageWrites);
      continue;
    }
    records.push({ plugin: plugin.name, phase, decision: 'denied', status: verdict.status, warnings: stepWarnings, before, after });
    return { allowed: false, status: verdict.status, warnings, auditAnnotations, records: settled(records, attrs.object), storageWrites: [] };
  }
  return { allowed: true, warnings, auditAnnotations, records: settled(records, attrs.object), storageWrites };
}

/** The records holding UNCOPIED get `copy` instead; returns it. */
function fill(records: PendingRecord[], copy: KObject | null): KObject | null {
  for (const r of records) {
    if (r.before === UNCOPIED) r.before = copy;
    if (r.after === UNCOPIED) r.after = copy;
  }
  return copy;
}

/** The records once the phase ended: those still UNCOPIED (no step changed the object) hold the object itself. */
function settled(records: PendingRecord[], object: KObject | null): AdmissionRecord[] {
  fill(records, object);
  return records as AdmissionRecord[];
}

/** The mutating phase: every plugin with admit(), in order. */
export function runMutatingChain(plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  return runPhase('mutating', plugins, attrs, cluster);
}

/** The validating phase: every plugin with validate(), in order. */
export function runValidatingChain(plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  return runPhase('validating', plugins, attrs, cluster);
}
