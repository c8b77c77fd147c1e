// Recovers upstream definition names (io.k8s.api.apps.v1.Deployment) from
// client-node class names (V1Deployment). The class name keeps the version and
// the type name; the Go package is recovered from which API group's endpoints
// reach the class (AppsV1Api returns V1Deployment), with core/v1 winning for
// types every group shares, and from the group prefix openapi-generator adds
// when two groups define the same name (CoreV1Event vs EventsV1Event).
import type { ApiOp, Model } from './clientNode';
import { CORE_V1_TYPES_USED_ELSEWHERE, META_V1_TYPES } from './tables';

export interface ClassName {
  /** Group prefix the generator added to disambiguate (`Core`, `Events`, `Rbac`...). */
  prefix?: string;
  /** `v1`, `v1beta1`, `v2` */
  version: string;
  /** Type name: `Deployment` */
  name: string;
}

export function parseClassName(cls: string): ClassName | undefined {
  const m = /^([A-Z][a-z]+)?V(\d+(?:(?:alpha|beta)\d+)?)([A-Z]\w*)$/.exec(cls);
  if (!m?.[2] || !m[3]) return undefined;
  return { ...(m[1] ? { prefix: m[1] } : {}), version: `v${m[2]}`, name: m[3] };
}

export interface GroupVersion {
  group: string;
  version: string;
}

/** `/apis/apps/v1/...` → apps/v1; `/api/v1/...` → core. */
export function groupVersionOfPath(path: string): GroupVersion | undefined {
  const core = /^\/api\/(v[^/]+)(\/|$)/.exec(path);
  if (core?.[1]) return { group: '', version: core[1] };
  const named = /^\/apis\/([^/]+)\/(v[^/]+)(\/|$)/.exec(path);
  if (named?.[1] && named[2]) return { group: named[1], version: named[2] };
  return undefined;
}

/** Go package segment of an API group in definition names (rbac.authorization.k8s.io → rbac). */
export function packageOfGroup(group: string): string {
  if (group === '') return 'core';
  if (group === 'internal.apiserver.k8s.io') return 'apiserverinternal';
  return group.split('.')[0] ?? group;
}

/** Definition-name prefix of a Go package (before `.<version>.<Name>`). */
function namespaceOfPackage(pkg: string): string {
  switch (pkg) {
    case 'apiextensions':
      return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions';
    case 'apiregistration':
      return 'io.k8s.kube-aggregator.pkg.apis.apiregistration';
    case 'meta':
      return 'io.k8s.apimachinery.pkg.apis.meta';
    default:
      return `io.k8s.api.${pkg}`;
  }
}

export function definitionName(pkg: string, version: string, name: string): string {
  return `${namespaceOfPackage(pkg)}.${version}.${name}`;
}

/** Class names a model's fields reference. */
export function referencedClasses(type: string, models: ReadonlyMap<string, Model>): string[] {
  return [...type.matchAll(/[A-Za-z0-9]+/g)].map((m) => m[0]).filter((t) => models.has(t));
}

/**
 * Path segments below the group-version: an op is on a resource itself when
 * they are `[resource]` or `[resource, {name}]` (after an optional
 * `namespaces/{namespace}`), on a subresource otherwise.
 */
export function resourceOfPath(path: string): { resource: string; subresource?: string; namespaced: boolean; named: boolean } | undefined {
  const gv = groupVersionOfPath(path);
  if (!gv) return undefined;
  const rest = path.replace(/^\/apis?\/(?:[^/]+\/)?v[^/]+\/?/, '');
  let segs = rest === '' ? [] : rest.split('/');
  let namespaced = false;
  if (segs[0] === 'watch') return undefined;
  if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length >= 3) {
    segs = segs.slice(2);
    namespaced = true;
  }
  const resource = segs[0];
  if (!resource) return undefined;
  const named = segs[1] === '{name}';
  if (segs.length <= 2 && (segs.length === 1 || named)) return { resource, namespaced, named };
  const sub = segs[2];
  if (!named || !sub) return undefined;
  return { resource, subresource: segs.slice(2).join('/'), namespaced, named };
}

export interface Assignment {
  /** class → upstream definition name */
  names: Map<string, string>;
  /** class → the GVK its endpoints serve it as (top-level kinds only) */
  kinds: Map<string, GroupVersion & { kind: string }>;
  /** classes no endpoint reaches (stale models); left out of the definitions */
  unreached: string[];
  /** classes two groups claimed as roots */
  conflicts: string[];
}

/**
 * Assigns every model reachable from an endpoint to its Go package.
 * `subresourceKinds` gives the group of kinds only served as another group's
 * subresource (autoscaling/v1 Scale, policy/v1 Eviction) — from our registry.
 */
export function assignPackages(models: ReadonlyMap<string, Model>, ops: readonly ApiOp[], subresourceKinds: ReadonlyMap<string, GroupVersion>): Assignment {
  const names = new Map<string, string>();
  const kinds = new Map<string, GroupVersion & { kind: string }>();
  const pkgOf = new Map<string, { pkg: string; version: string }>();
  const conflicts: string[] = [];

  const fix = (cls: string, pkg: string, version: string, name: string) => {
    pkgOf.set(cls, { pkg, version });
    names.set(cls, definitionName(pkg, version, name));
  };

  // 1. Names that carry their own package.
  for (const cls of models.keys()) {
    if (cls === 'VersionInfo') {
      pkgOf.set(cls, { pkg: 'version', version: '' });
      names.set(cls, 'io.k8s.apimachinery.pkg.version.Info');
      continue;
    }
    const c = parseClassName(cls);
    if (!c) continue;
    if (c.prefix) fix(cls, c.prefix.toLowerCase(), c.version, c.name);
    else if (c.version === 'v1' && META_V1_TYPES.has(c.name)) fix(cls, 'meta', 'v1', c.name);
    else if (c.version === 'v1' && CORE_V1_TYPES_USED_ELSEWHERE.has(c.name)) fix(cls, 'core', 'v1', c.name);
  }

  // 2. Roots: bodies and results of operations on a resource itself (not a subresource).
  const rootsByGroup = new Map<string, string[]>();
  const rootGroup = new Map<string, GroupVersion>();
  for (const op of ops) {
    const gv = groupVersionOfPath(op.path);
    const res = resourceOfPath(op.path);
    if (!gv || !res || res.subresource) continue;
    for (const cls of [op.returnType, op.bodyType]) {
      if (!cls || !models.has(cls)) continue;
      const c = parseClassName(cls);
      if (!c || c.version !== gv.version) continue;
      const prev = rootGroup.get(cls);
      if (prev && prev.group !== gv.group) {
        if (!pkgOf.has(cls)) conflicts.push(`${cls}: ${prev.group || 'core'} and ${gv.group || 'core'}`);
        continue;
      }
      if (!prev) {
        rootGroup.set(cls, gv);
        const list = rootsByGroup.get(gv.group) ?? [];
        list.push(cls);
        rootsByGroup.set(gv.group, list);
      }
    }
  }
  for (const [kind, gv] of subresourceKinds) {
    const pkg = packageOfGroup(gv.group);
    const cls = [...models.keys()].find((k) => {
      const c = parseClassName(k);
      return c?.name === kind && c.version === gv.version && (!c.prefix || c.prefix.toLowerCase() === pkg);
    });
    if (!cls || rootGroup.has(cls)) continue;
    rootGroup.set(cls, gv);
    const list = rootsByGroup.get(gv.group) ?? [];
    list.push(cls);
    rootsByGroup.set(gv.group, list);
  }
  for (const [cls, gv] of rootGroup) {
    const c = parseClassName(cls);
    if (!c) continue;
    if (!pkgOf.has(cls)) fix(cls, packageOfGroup(gv.group), c.version, c.name);
    // Top-level kinds: those with apiVersion+kind fields, served by this group.
    const model = models.get(cls);
    if (model?.props.some((p) => p.name === 'kind') && model.props.some((p) => p.name === 'apiVersion')) {
      const owner = pkgOf.get(cls);
      if (owner && owner.pkg === packageOfGroup(gv.group)) kinds.set(cls, { ...gv, kind: c.name });
    }
  }

  // 3. Everything a package's types reach, in the same version, belongs to that
  // package unless already placed. core goes first: every group uses core types.
  const groups = [...rootsByGroup.keys()].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)));
  for (const group of groups) {
    const queue = [...(rootsByGroup.get(group) ?? [])].filter((cls) => pkgOf.get(cls)?.pkg === packageOfGroup(group));
    for (let i = 0; i < queue.length; i++) {
      const cls = queue[i];
      if (!cls) continue;
      const owner = pkgOf.get(cls);
      for (const p of models.get(cls)?.props ?? []) {
        for (const ref of referencedClasses(p.type, models)) {
          if (pkgOf.has(ref)) continue;
          const c = parseClassName(ref);
          if (!c || !owner || c.version !== owner.version) continue;
          fix(ref, owner.pkg, c.version, c.name);
          queue.push(ref);
        }
      }
    }
  }

  // Types placed by name (prefix/meta) still lead to their own package's types.
  let changed = true;
  while (changed) {
    changed = false;
    for (const [cls, owner] of pkgOf) {
      for (const p of models.get(cls)?.props ?? []) {
        for (const ref of referencedClasses(p.type, models)) {
          if (pkgOf.has(ref)) continue;
          const c = parseClassName(ref);
          if (!c || c.version !== owner.version) continue;
          fix(ref, owner.pkg, c.version, c.name);
          changed = true;
        }
      }
    }
  }

  const unreached = [...models.keys()].filter((cls) => !names.has(cls));
  return { names, kinds, unreached, conflicts };
}
