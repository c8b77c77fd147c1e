// Discovery as kubectl 1.32 does it: ask /api and /apis for aggregated
// discovery (apidiscovery.k8s.io/v2), fall back to the legacy documents
// (/api/v1, /apis/<g>/<v>). Then resolve resource arguments the way the
// builder's RESTMapper does (restmapper/shortcut.go, discovery.go, category
// expansion): short names, plural/singular/kind, resource.group,
// resource.version.group, and categories such as `all`.
import { statusFromResponse, type RestClient } from './rest';
import { errs, fail } from './errors';

const AGGREGATED_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

export interface ApiResource {
  /** Plural name; subresources are `pods/status`. */
  name: string;
  singularName: string;
  namespaced: boolean;
  group: string;
  version: string;
  kind: string;
  verbs: string[];
  shortNames: string[];
  categories: string[];
}

export interface ApiGroup {
  name: string;
  versions: string[];
  preferredVersion: string;
}

export interface Mapping {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  singular: string;
}

export function mappingOf(r: ApiResource): Mapping {
  return { group: r.group, version: r.version, resource: r.name, kind: r.kind, namespaced: r.namespaced, singular: r.singularName || r.kind.toLowerCase() };
}

export function gvString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

type Json = Record<string, any>;

export class Discovery {
  groups: ApiGroup[] = [];
  /** Every resource of every served version, in discovery order. */
  resources: ApiResource[] = [];
  private loaded = false;

  constructor(
    private readonly client: RestClient,
    private readonly warn: (msg: string) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    const core = await this.client.raw('GET', '/api', { accept: AGGREGATED_ACCEPT });
    const apis = await this.client.raw('GET', '/apis', { accept: AGGREGATED_ACCEPT });
    for (const res of [core, apis]) {
      if (res.status < 200 || res.status > 299) fail(errs.status(statusFromResponse(res, 'GET')));
    }
    if ((core.headers['content-type'] ?? '').includes('as=APIGroupDiscoveryList')) {
      this.addAggregated(JSON.parse(core.body) as Json);
      this.addAggregated(JSON.parse(apis.body) as Json);
      return;
    }
    const coreDoc = JSON.parse(core.body) as Json;
    const coreVersions = (coreDoc.versions as string[] | undefined) ?? [];
    if (coreVersions.length > 0) this.groups.push({ name: '', versions: coreVersions, preferredVersion: coreVersions[0]! });
    for (const v of coreVersions) await this.addLegacy('', v, `/api/${v}`);
    const apisDoc = JSON.parse(apis.body) as Json;
    for (const g of (apisDoc.groups as Json[] | undefined) ?? []) {
      const versions = ((g.versions as Json[]) ?? []).map((v) => String(v.version));
      this.groups.push({ name: String(g.name), versions, preferredVersion: String(g.preferredVersion?.version ?? versions[0]) });
      for (const v of versions) await this.addLegacy(String(g.name), v, `/apis/${g.name}/${v}`);
    }
  }

  private addAggregated(doc: Json): void {
    for (const item of (doc.items as Json[] | undefined) ?? []) {
      const name = String(item.metadata?.name ?? '');
      const versions = ((item.versions as Json[]) ?? []).map((v) => String(v.version));
      this.groups.push({ name, versions, preferredVersion: versions[0] ?? '' });
      for (const v of (item.versions as Json[]) ?? []) {
        for (const r of (v.resources as Json[]) ?? []) {
          const rk = r.responseKind ?? {};
          this.resources.push({
            name: String(r.resource),
            singularName: String(r.singularResource ?? ''),
            namespaced: r.scope === 'Namespaced',
            group: name,
            version: String(v.version),
            kind: String(rk.kind ?? ''),
            verbs: (r.verbs as string[]) ?? [],
            shortNames: (r.shortNames as string[]) ?? [],
            categories: (r.categories as string[]) ?? [],
          });
          for (const s of (r.subresources as Json[]) ?? []) {
            this.resources.push({
              name: `${r.resource}/${s.subresource}`,
              singularName: '',
              namespaced: r.scope === 'Namespaced',
              group: name,
              version: String(v.version),
              kind: String(s.responseKind?.kind ?? ''),
              verbs: (s.verbs as string[]) ?? [],
              shortNames: [],
              categories: [],
            });
          }
        }
      }
    }
  }

  private async addLegacy(group: string, version: string, path: string): Promise<void> {
    const res = await this.client.raw('GET', path);
    if (res.status !== 200) return;
    const doc = JSON.parse(res.body) as Json;
    for (const r of (doc.resources as Json[]) ?? []) {
      this.resources.push({
        name: String(r.name),
        singularName: String(r.singularName ?? ''),
        namespaced: Boolean(r.namespaced),
        group,
        version,
        kind: String(r.kind),
        verbs: (r.verbs as string[]) ?? [],
        shortNames: (r.shortNames as string[]) ?? [],
        categories: (r.categories as string[]) ?? [],
      });
    }
  }

  /** Top-level resources of preferred versions, in discovery order (what the RESTMapper sees first). */
  private preferred(): ApiResource[] {
    const pref = new Map(this.groups.map((g) => [g.name, g.preferredVersion]));
    const top = this.resources.filter((r) => !r.name.includes('/'));
    return [...top.filter((r) => pref.get(r.group) === r.version), ...top.filter((r) => pref.get(r.group) !== r.version)];
  }

  /** categoryExpander.Expand: the resources in a category, in discovery order; undefined if none. */
  expandCategory(name: string): { group: string; resource: string }[] | undefined {
    const seen = new Set<string>();
    const out: { group: string; resource: string }[] = [];
    for (const r of this.preferred()) {
      if (!r.categories.includes(name)) continue;
      const k = `${r.group}/${r.name}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push({ group: r.group, resource: r.name });
    }
    return out.length > 0 ? out : undefined;
  }

  /** shortcutExpander.expandResourceShortcut. */
  private expandShortcut(resource: string, group: string): { resource: string; group: string } {
    for (const r of this.resources) {
      if (group && r.group !== group) continue;
      if (r.name === resource || r.singularName === resource) return { resource, group };
    }
    const shortcuts = this.preferred().flatMap((r) => r.shortNames.map((s) => ({ short: s, r })));
    let found: { resource: string; group: string } | undefined;
    const warned = new Set<string>();
    for (const s of shortcuts) {
      if (group && s.r.group !== group) continue;
      if (s.short !== resource) continue;
      if (found) {
        if (s.r.group === found.group && s.r.name === found.resource) continue;
        const long = s.r.group ? `${s.r.name}.${s.r.group}` : s.r.name;
        if (!warned.has(long)) this.warn(`short name "${resource}" could also match lower priority resource ${long}`);
        warned.add(long);
        continue;
      }
      found = { resource: s.r.name, group: s.r.group };
    }
    if (found) return found;
    if (!group) return { resource, group };
    for (const s of shortcuts) {
      if (!s.r.group.startsWith(group)) continue;
      if (s.short === resource) return { resource: s.r.name, group: s.r.group };
    }
    return { resource, group };
  }

  private find(resource: string, group: string | undefined, version: string | undefined): ApiResource | undefined {
    const lower = resource.toLowerCase();
    const cands = this.preferred().filter((r) => (group === undefined || r.group === group) && (version === undefined || r.version === version));
    return cands.find((r) => r.name === lower) ?? cands.find((r) => r.singularName === lower) ?? cands.find((r) => r.kind.toLowerCase() === lower);
  }

  /** builder.mappingFor: the mapping for one resource-or-kind argument, or undefined. */
  mappingFor(arg: string): Mapping | undefined {
    const parts = arg.split('.');
    // resource.version.group
    if (parts.length >= 3) {
      const [res, ver] = parts as [string, string];
      const grp = parts.slice(2).join('.');
      const ex = this.expandShortcut(res.toLowerCase(), grp);
      const r = this.find(ex.resource, ex.group, ver);
      if (r) return mappingOf(r);
    }
    const dot = arg.indexOf('.');
    const res = dot < 0 ? arg : arg.slice(0, dot);
    const grp = dot < 0 ? '' : arg.slice(dot + 1);
    const ex = this.expandShortcut(res.toLowerCase(), grp);
    const r = this.find(ex.resource, ex.group === '' && grp === '' ? undefined : ex.group, undefined);
    if (r) return mappingOf(r);
    // Kind.version.group / Kind.group
    if (parts.length >= 3) {
      const r2 = this.preferred().find((x) => x.kind === parts[0] && x.version === parts[1] && x.group === parts.slice(2).join('.'));
      if (r2) return mappingOf(r2);
    }
    const r3 = this.preferred().find((x) => x.kind === res && (grp === '' || x.group === grp));
    return r3 ? mappingOf(r3) : undefined;
  }

  /** The ApiResource behind a mapping (verbs, short names). */
  resourceOf(m: Mapping): ApiResource | undefined {
    return this.resources.find((r) => r.group === m.group && r.version === m.version && r.name === m.resource);
  }

  /** A kind's mapping (for objects read from files). */
  mappingForKind(group: string, version: string, kind: string): Mapping | undefined {
    const top = this.resources.filter((r) => !r.name.includes('/') && r.kind === kind && r.group === group);
    const r = top.find((x) => x.version === version) ?? (version === '' ? top[0] : undefined);
    return r ? mappingOf(r) : undefined;
  }
}

/** The part of an argument kubectl names in "doesn't have a resource type" (schema.ParseGroupResource). */
export function partialResource(arg: string): { resource: string; group: string } {
  const dot = arg.indexOf('.');
  return dot < 0 ? { resource: arg, group: '' } : { resource: arg.slice(0, dot), group: arg.slice(dot + 1) };
}
