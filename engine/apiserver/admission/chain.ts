// Runs the admission chain the way admission.chainAdmissionHandler does:
// plugins in order, each only if it handles the request, stopping at the
// first refusal. Each step is recorded with the object before and after it,
// so the API server can show the decision and compute the JSON patch.
import type { KObject, Status } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionPlugin, AdmissionVerdict, ClusterReader } from '../types';
import { clone } from './json';

export type AdmissionPhase = 'mutating' | 'validating';

export interface AdmissionRecord {
  plugin: string;
  phase: AdmissionPhase;
  decision: 'allowed' | 'denied' | 'skipped';
  status?: Status;
  warnings: string[];
  auditAnnotations?: Record<string, string>;
  /** Copies of attrs.object around a mutating step (the same copy twice when the step changed nothing); attrs.object itself for a validating step. */
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

function runPhase(phase: AdmissionPhase, plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  const records: AdmissionRecord[] = [];
  const warnings: string[] = [];
  const auditAnnotations: Record<string, string> = {};
  const storageWrites: KObject[] = [];
  // Mutating steps are recorded with copies of the object around them. Validating
  // steps cannot change it and no patch is computed for them: their records
  // share the object itself.
  let current = attrs.object ? (phase === 'mutating' ? clone(attrs.object) : attrs.object) : null;
  // The JSON text of `current` (mutating phase): a step that leaves the same text
  // changed nothing, keeps the same copy and needs no patch.
  // Taken before the first step that may change the object.
  let currentText: string | undefined;
  for (const plugin of plugins) {
    const step = phase === 'mutating' ? plugin.admit : plugin.validate;
    if (!step) continue;
    if (!plugin.handles(attrs)) {
      records.push({ plugin: plugin.name, phase, decision: 'skipped', warnings: [], before: current, after: current });
      continue;
    }
    const before = current;
    const watch = phase === 'mutating' && !!attrs.object && (plugin.mayMutate?.(attrs, cluster) ?? true);
    if (watch) currentText ??= JSON.stringify(attrs.object);
    const verdict: AdmissionVerdict = step.call(plugin, attrs, cluster);
    // Validating plugins must not change the object; only mutating steps that changed it take a new copy.
    let after = before;
    if (watch) {
      const text = JSON.stringify(attrs.object);
      if (text !== currentText) {
        after = JSON.parse(text) as KObject;
        currentText = text;
      }
    }
    current = after;
    const stepWarnings = verdict.warnings ?? [];
    warnings.push(...stepWarnings);
    if (verdict.allowed) {
      const rec: AdmissionRecord = { plugin: plugin.name, phase, decision: 'allowed', warnings: stepWarnings, before, after };
      if (verdict.auditAnnotations) {
        rec.auditAnnotations = verdict.auditAnnotations;
        Object.assign(auditAnnotations, verdict.auditAnnotations);
      }
      records.push(rec);
      if (verdict.storageWrites) storageWrites.push(...verdict.storageWrites);
      continue;
    }
    records.push({ plugin: plugin.name, phase, decision: 'denied', status: verdict.status, warnings: stepWarnings, before, after });
    return { allowed: false, status: verdict.status, warnings, auditAnnotations, records, storageWrites: [] };
  }
  return { allowed: true, warnings, auditAnnotations, records, storageWrites };
}

/** The mutating phase: every plugin with admit(), in order. */
export function runMutatingChain(plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  return runPhase('mutating', plugins, attrs, cluster);
}

/** The validating phase: every plugin with validate(), in order. */
export function runValidatingChain(plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, cluster: ClusterReader): AdmissionChainResult {
  return runPhase('validating', plugins, attrs, cluster);
}
