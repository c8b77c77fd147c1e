// pkg/controller/util/protectionutil: when a protection controller acts on an
// object, and the finalizer edits it makes (PUT of the whole object).
import type { KObject } from '../../apimachinery/types';

/** NeedToAddFinalizer: alive, and without the finalizer. */
export const needToAddFinalizer = (o: KObject, finalizer: string): boolean => !o.metadata.deletionTimestamp && !(o.metadata.finalizers ?? []).includes(finalizer);

/** IsDeletionCandidate: being deleted, and the finalizer still holds it. */
export const isDeletionCandidate = (o: KObject, finalizer: string): boolean => !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(finalizer);

export function withFinalizer(o: KObject, finalizer: string, present: boolean, kind: string): KObject {
  const rest = (o.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  const finalizers = present ? [...(o.metadata.finalizers ?? []), finalizer] : rest;
  const metadata = { ...o.metadata, finalizers };
  if (finalizers.length === 0) delete (metadata as { finalizers?: string[] }).finalizers;
  return { ...o, apiVersion: 'v1', kind, metadata };
}
