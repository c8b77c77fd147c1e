// ControllerRevisions, as pkg/controller/history/controller_history.go keeps
// them for StatefulSets and DaemonSets: a revision holds a strategic merge
// patch that restores the pod template (`{"spec":{"template":{"$patch":"replace",…}}}`,
// JSON as Go's json.Marshal writes a map: keys sorted, HTML-safe escapes), its
// name is `<parent>-<hash>` where the hash is FNV-32 (not 32a) of those bytes
// and the collision count, encoded with rand.SafeEncodeString.
import type { KObject } from '../../apimachinery/types';
import { labelSelectorAsSelector, matches, type LabelSelector } from '../../apimachinery/selectors/labels';
import { goJsonCompact } from '../../kubectl/printers/goJson';
import { safeEncodeString } from '../deployment/hash';
import { byCreation } from '../deployment/util';
import { controllerOf, inNamespace, newControllerRef, type ControllerKind } from '../replicaset/podUtil';

/** ControllerRevisionHashLabel: the hash of a revision's data. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export interface ControllerRevision extends KObject {
  data?: unknown;
  revision: number;
}

export const revisionNumber = (cr: KObject): number => (cr as ControllerRevision).revision ?? 0;

/** The revision's Data.Raw: its data as Go re-encodes it (the bytes upstream compares). */
export const rawData = (cr: object): string => goJsonCompact((cr as { data?: unknown }).data ?? null);

/** getPatch (statefulset and daemon controllers): the template wrapped to replace the whole template. */
export function templatePatch(obj: object): string {
  const template = JSON.parse(JSON.stringify(((obj as { spec?: unknown }).spec as { template?: unknown } | undefined)?.template ?? {})) as Record<string, unknown>;
  template.$patch = 'replace';
  return goJsonCompact({ spec: { template } });
}

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** hash/fnv New32: multiply, then xor (the 32a variant does it the other way round). */
export function fnv32(bytes: Iterable<number>, h = FNV32_OFFSET): number {
  for (const b of bytes) h = (Math.imul(h, FNV32_PRIME) ^ (b & 0xff)) >>> 0;
  return h >>> 0;
}

/** HashControllerRevision(revision, probe): the probe (collision count) is written in decimal. */
export function hashControllerRevision(raw: string, probe: number | null): string {
  let h = fnv32(new TextEncoder().encode(raw));
  if (probe !== null) h = fnv32(new TextEncoder().encode(String(probe)), h);
  return safeEncodeString(String(h));
}

/** ControllerRevisionName: the prefix is cut at 223 bytes so the name fits in 253. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/** NewControllerRevision: labels from the template plus the hash label, owned by the parent. */
export function newControllerRevision(parent: KObject, parentKind: ControllerKind, templateLabels: Record<string, string> | undefined, raw: string, revision: number, collisionCount: number | null): ControllerRevision {
  const hash = hashControllerRevision(raw, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName(parent.metadata.name!, hash),
      namespace: parent.metadata.namespace,
      labels: { ...(templateLabels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
      ownerReferences: [newControllerRef(parent, parentKind)],
    },
    data: JSON.parse(raw) as unknown,
    revision,
  };
}

/** SortControllerRevisions: by revision, then creation time, then name (stable). */
export function sortControllerRevisions(revs: KObject[]): KObject[] {
  return [...revs].sort((a, b) => revisionNumber(a) - revisionNumber(b) || byCreation(a, b));
}

/** EqualRevision: same hash label (when both have one) and the same data. */
export function equalRevision(a: (KObject & { data?: unknown }) | null, b: (KObject & { data?: unknown }) | null): boolean {
  if (!a || !b) return a === b;
  const ha = a.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  const hb = b.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
  if (ha !== undefined && hb !== undefined && /^\d+$/.test(ha) && /^\d+$/.test(hb) && ha !== hb) return false;
  return rawData(a) === rawData(b);
}

/** FindEqualRevisions, in the order given. */
export const findEqualRevisions = (revs: readonly KObject[], needle: KObject): KObject[] => revs.filter((r) => equalRevision(r, needle));

/** ListControllerRevisions: those the selector matches that the parent controls, or nobody does. */
export function listControllerRevisions(store: ReadonlyMap<string, KObject>, parent: KObject, selector: LabelSelector | undefined): KObject[] {
  const sel = labelSelectorAsSelector(selector);
  if (!sel.ok) return [];
  return inNamespace(store, parent.metadata.namespace ?? '').filter((cr) => {
    if (!matches(sel.selector, cr.metadata.labels ?? {})) return false;
    const ref = controllerOf(cr);
    return !ref || ref.uid === parent.metadata.uid;
  });
}

/** The strategic merge patch AdoptControllerRevision sends. */
export function adoptRevisionPatch(parent: KObject, parentKind: ControllerKind, cr: KObject): unknown {
  return { metadata: { ownerReferences: [newControllerRef(parent, parentKind)], uid: cr.metadata.uid } };
}

/** The template a revision restores (ApplyRevision, whose patch replaces spec.template whole). */
export function revisionTemplate(cr: object): Record<string, unknown> {
  const t = JSON.parse(JSON.stringify(((cr as { data?: unknown }).data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template ?? {})) as Record<string, unknown>;
  delete t.$patch;
  return t;
}
