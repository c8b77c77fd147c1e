// Legacy (unaggregated) discovery documents, as the real server serves them at
// /api, /apis, /api/v1 and /apis/GROUP/VERSION, and /version.
// (k8s.io/apiserver/pkg/endpoints/discovery; kubectl falls back to these when
// the server does not answer the aggregated apidiscovery.k8s.io/v2 form.)
import { RESOURCES, servedGroups, type ResourceInfo } from '../registry/resources';
import type { AggregatedGroupVersion } from '../aggregator/aggregator';

export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0',
  gitCommit: '70d3cc986aa8221cd1dfb1121852688902d3bf53',
  gitTreeState: 'clean',
  buildDate: '2024-12-11T17:59:15Z',
  goVersion: 'go1.23.3',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDoc(group: string, versions: string[]) {
  const gvs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: gvs, preferredVersion: gvs[0]! };
}

/** Aggregated group-versions by group, in their order (highest priority first). */
function extraGroups(extra: readonly AggregatedGroupVersion[]): { group: string; versions: AggregatedGroupVersion[] }[] {
  const out: { group: string; versions: AggregatedGroupVersion[] }[] = [];
  for (const gv of extra) {
    let g = out.find((x) => x.group === gv.group);
    if (!g) out.push((g = { group: gv.group, versions: [] }));
    g.versions.push(gv);
  }
  return out;
}

/** The /apis group list: built-in groups, then those of available APIServices (lower priorities come last). */
export function apiGroupList(extra: readonly AggregatedGroupVersion[] = []) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      ...servedGroups()
        .filter((g) => g.group !== '')
        .map((g) => groupDoc(g.group, g.versions)),
      ...extraGroups(extra).map((g) => groupDoc(g.group, g.versions.map((v) => v.version))),
    ],
  };
}

export function apiGroup(group: string) {
  const g = servedGroups().find((x) => x.group === group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(g.group, g.versions) } : null;
}

/**
 * Aggregated discovery (apidiscovery.k8s.io/v2, GA in 1.30): every group,
 * version and resource in one document, so a client needs two requests
 * (/api and /apis) instead of one per group-version.
 */
export const AGGREGATED_DISCOVERY_CONTENT_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

export function wantsAggregatedDiscovery(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((p) => p.includes('as=APIGroupDiscoveryList') && p.includes('g=apidiscovery.k8s.io') && /v=v2(;|$)/.test(p.replace(/\s/g, '')));
}

/** An extension server's APIResourceList entries in aggregated-discovery form (subresources under their resource). */
function aggregatedResources(gv: AggregatedGroupVersion): Record<string, unknown>[] {
  const top = gv.resources.filter((r) => !r.name.includes('/')).sort((a, b) => (a.name < b.name ? -1 : 1));
  return top.map((r) => {
    const e: Record<string, unknown> = {
      resource: r.name,
      responseKind: { group: '', version: '', kind: r.kind },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName ?? '',
      verbs: r.verbs,
    };
    if (r.shortNames?.length) e.shortNames = r.shortNames;
    if (r.categories?.length) e.categories = r.categories;
    const subs = gv.resources.filter((s) => s.name.startsWith(`${r.name}/`));
    if (subs.length) e.subresources = subs.map((s) => ({ subresource: s.name.slice(r.name.length + 1), responseKind: { group: '', version: '', kind: s.kind }, verbs: s.verbs }));
    return e;
  });
}

export function aggregatedDiscovery(legacy: boolean, extra: readonly AggregatedGroupVersion[] = []) {
  const groups = servedGroups().filter((g) => (legacy ? g.group === '' : g.group !== ''));
  const aggregated = legacy
    ? []
    : extraGroups(extra).map((g) => ({
        metadata: { name: g.group, creationTimestamp: null },
        versions: g.versions.map((v) => ({ version: v.version, resources: aggregatedResources(v), freshness: 'Current' })),
      }));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [...groups.map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: RESOURCES.filter((r) => r.group === g.group && r.version === v)
          .sort((a, b) => (a.resource < b.resource ? -1 : 1))
          .map((r) => {
            const e: Record<string, unknown> = {
              resource: r.resource,
              responseKind: { group: '', version: '', kind: r.kind },
              scope: r.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: r.singularName,
              verbs: r.verbs,
            };
            if (r.shortNames.length) e.shortNames = r.shortNames;
            if (r.categories.length) e.categories = r.categories;
            if (r.subresources.length) {
              e.subresources = r.subresources.map((s) => ({ subresource: s.name, responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind }, verbs: s.verbs }));
            }
            return e;
          }),
        freshness: 'Current',
      })),
    })), ...aggregated],
  };
}

function resourceEntries(r: ResourceInfo) {
  const main: Record<string, unknown> = {
    name: r.resource,
    singularName: r.singularName,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: r.verbs,
  };
  if (r.shortNames.length) main.shortNames = r.shortNames;
  if (r.categories.length) main.categories = r.categories;
  const subs = r.subresources.map((s) => {
    const e: Record<string, unknown> = { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced };
    if (s.group) e.group = s.group;
    if (s.version) e.version = s.version;
    e.kind = s.kind;
    e.verbs = s.verbs;
    return e;
  });
  return [main, ...subs];
}

export function apiResourceList(group: string, version: string) {
  const rs = RESOURCES.filter((r) => r.group === group && r.version === version);
  if (rs.length === 0) return null;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: rs.flatMap(resourceEntries).sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1)),
  };
}
