// The object inspector's read-out: any API object as `kubectl get -o yaml`
// prints it (as the API serves it: its group's shape, apiVersion and kind, no
// managedFields), the objects it names as owners (up) and the objects that
// name it (down), each a link, and its events as `kubectl describe` lists them.
// Read from an API server's watch cache: an observer's read, no requests.
import { apiVersionOf, type KObject } from '../../apimachinery/types';
import { servedShape } from '../../apiserver/registry/conversion';
import { RESOURCES, resourceFor, resourceForKind } from '../../apiserver/registry/resources';
import type { ApiServer } from '../../apiserver/server/apiserver';
import { GenericPrinter } from '../../kubectl/printers/output';
import type { DescribeEventRow, EventsIndex } from './events';
import type { NodeMachineView } from '../engine';
import type { NameAnswer } from '../../coredns/records';

/** An API object by resource: `{group: 'apps', resource: 'deployments', namespace: 'default', name: 'web'}`. */
export interface ObjectRef {
  group: string;
  resource: string;
  /** Absent (or '') for cluster-scoped objects. */
  namespace?: string;
  name: string;
}

export interface ObjectLink {
  ref: ObjectRef;
  kind: string;
  /** Whether an object of that name (and, for owners, that uid) exists now. */
  exists: boolean;
  /** An owner reference with controller: true. */
  controller?: boolean;
}

export interface InspectView {
  ref: ObjectRef;
  kind: string;
  apiVersion: string;
  found: boolean;
  /** What `kubectl get <kind> <name> -o yaml` prints ('' when not found). */
  yaml: string;
  uid: string;
  resourceVersion: string;
  owners: ObjectLink[];
  owned: ObjectLink[];
  /** Dependents found (owned holds at most OWNED_LIMIT of them). */
  ownedTotal: number;
  events: DescribeEventRow[];
  /** A Node's machine, when the simulation runs one (its iptables, its kube-proxy). */
  machine?: NodeMachineView;
  /** A Service's chains in kube-proxy's rules, and the nodes whose machines hold them. */
  serviceProxy?: { chains: { port: string; chain: string }[]; nodes: string[] };
  /** A Service's name as cluster DNS answers it (from a synced CoreDNS pod's caches). */
  serviceDns?: { from: string; answer: NameAnswer };
  /** A CoreDNS pod: its process, whether its caches have synced, and the names they answer. */
  coredns?: { process: string; synced: boolean; services: number; names: NameAnswer[] };
}

export const OWNED_LIMIT = 200;

/** The object in the shape its endpoint serves (rest.go's withTypeMeta). */
function served(group: string, resource: string, obj: KObject): KObject {
  const r = resourceFor(group, resource)!;
  return { ...servedShape(r, obj), apiVersion: apiVersionOf(r.group, r.version), kind: r.kind };
}

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The ref of an object named by apiVersion and kind (an owner reference, an event's involved object). */
export function refForKind(apiVersion: string, kind: string, namespace: string | undefined, name: string): ObjectRef | undefined {
  const r = resourceForKind(groupOf(apiVersion), kind);
  if (!r || !name) return undefined;
  return r.namespaced ? { group: r.group, resource: r.resource, namespace: namespace || 'default', name } : { group: r.group, resource: r.resource, name };
}

/** The ref of a controller's work-queue key ("namespace/name" or "name"): the first of its informers' resources of that scope. */
export function refForKey(informers: readonly string[], key: string): ObjectRef | undefined {
  const slash = key.indexOf('/');
  for (const inf of informers) {
    const r = RESOURCES.find((x) => x.resource === inf && !x.sharesStorageWith);
    if (!r || r.namespaced !== slash >= 0) continue;
    return slash >= 0 ? { group: r.group, resource: r.resource, namespace: key.slice(0, slash), name: key.slice(slash + 1) } : { group: r.group, resource: r.resource, name: key };
  }
  return undefined;
}

export function inspectObject(s: ApiServer | null, ref: ObjectRef, events: EventsIndex, nowMs: number): InspectView | string {
  const r = resourceFor(ref.group, ref.resource);
  if (!r) return `the server doesn't have a resource type "${ref.group ? `${ref.resource}.${ref.group}` : ref.resource}"`;
  const ns = r.namespaced ? ref.namespace || 'default' : undefined;
  const view: InspectView = { ref: { ...ref, namespace: ns }, kind: r.kind, apiVersion: apiVersionOf(r.group, r.version), found: false, yaml: '', uid: '', resourceVersion: '', owners: [], owned: [], ownedTotal: 0, events: [] };
  const obj = s?.cluster.get(r.group, r.resource, ns, ref.name);
  if (!s || !obj) return view;
  view.found = true;
  view.uid = obj.metadata.uid ?? '';
  view.resourceVersion = obj.metadata.resourceVersion ?? '';
  view.yaml = new GenericPrinter({ type: 'yaml' }).print(served(r.group, r.resource, obj));
  for (const o of obj.metadata.ownerReferences ?? []) {
    const og = groupOf(o.apiVersion);
    const or = resourceForKind(og, o.kind);
    const oref: ObjectRef = { group: og, resource: or?.resource ?? o.kind.toLowerCase(), name: o.name };
    if (or?.namespaced && ns) oref.namespace = ns;
    const found = or ? s.cluster.get(or.group, or.resource, or.namespaced ? ns : undefined, o.name) : undefined;
    view.owners.push({ ref: oref, kind: o.kind, exists: !!found && found.metadata.uid === o.uid, ...(o.controller ? { controller: true } : {}) });
  }
  if (view.uid) {
    // Dependents live in the owner's namespace (any namespace for a cluster-scoped owner).
    for (const dr of RESOURCES) {
      if (!dr.storagePrefix || dr.sharesStorageWith || (ns && !dr.namespaced)) continue;
      for (const d of s.cacheOf(dr)?.store.values() ?? []) {
        if (ns && d.metadata.namespace !== ns) continue;
        const refs = d.metadata.ownerReferences;
        if (!refs || !refs.some((o) => o.uid === view.uid)) continue;
        view.ownedTotal++;
        if (view.owned.length >= OWNED_LIMIT) continue;
        const dref: ObjectRef = { group: dr.group, resource: dr.resource, name: d.metadata.name ?? '' };
        if (dr.namespaced) dref.namespace = d.metadata.namespace ?? '';
        view.owned.push({ ref: dref, kind: dr.kind, exists: true, ...(refs.some((o) => o.uid === view.uid && o.controller) ? { controller: true } : {}) });
      }
    }
    view.owned.sort((a, b) => (a.kind + '/' + a.ref.name < b.kind + '/' + b.ref.name ? -1 : 1));
  }
  const target = { uid: view.uid, kind: r.kind, namespace: ns, name: ref.name };
  view.events = events.forObject(target, nowMs);
  // The kubelet records a node's events with the node's name as uid (describe node searches both).
  if (r.kind === 'Node') {
    const byName = events.forObject({ ...target, uid: ref.name }, nowMs);
    if (byName.length > 0) {
      const keys = new Set(view.events.map((e) => e.key));
      view.events = [...view.events, ...byName.filter((e) => !keys.has(e.key))];
    }
  }
  return view;
}
