// Verdict and error helpers shared by the plugins
// (k8s.io/apiserver/pkg/admission/errors.go).
import { status, type GroupResource } from '../../apimachinery/status';
import type { Status } from '../../apimachinery/types';
import type { AdmissionAttributes, AdmissionVerdict } from '../types';
import { path, str } from './json';

export function groupResourceOf(attrs: AdmissionAttributes): GroupResource {
  return { group: attrs.resource.group, resource: attrs.resource.resource };
}

/**
 * extractResourceName: the request's name, else the object's name or
 * generateName (mutating admission runs before a generated name exists), else "Unknown".
 */
export function extractResourceName(attrs: AdmissionAttributes): string {
  if (attrs.name) return attrs.name;
  const obj = attrs.object;
  if (!obj) return 'Unknown';
  return str(path(obj, 'metadata', 'name')) || str(path(obj, 'metadata', 'generateName')) || 'Unknown';
}

/** admission.NewForbidden: `pods "x" is forbidden: <why>`. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): Status {
  return status.forbidden(groupResourceOf(attrs), extractResourceName(attrs), why);
}

export function allow(warnings?: string[], auditAnnotations?: Record<string, string>): AdmissionVerdict {
  const v: AdmissionVerdict = { allowed: true };
  if (warnings && warnings.length) v.warnings = warnings;
  if (auditAnnotations && Object.keys(auditAnnotations).length) v.auditAnnotations = auditAnnotations;
  return v;
}

export function deny(st: Status, warnings?: string[]): AdmissionVerdict {
  return warnings && warnings.length ? { allowed: false, status: st, warnings } : { allowed: false, status: st };
}

/** True for the core group's kind `kind` (GroupKind comparison, any version). */
export function isCoreKind(attrs: AdmissionAttributes, kind: string): boolean {
  return attrs.kind.group === '' && attrs.kind.kind === kind;
}

export function isResource(attrs: AdmissionAttributes, group: string, resource: string): boolean {
  return attrs.resource.group === group && attrs.resource.resource === resource;
}
