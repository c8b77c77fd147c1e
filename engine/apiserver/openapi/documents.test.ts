import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../registry/resources';
import { groupVersionDocument, openApiDocument, openApiIndex, openApiV2, openApiV2Protobuf, parseGroupVersionPath, type Operation } from './documents';
import { documentHash } from './hash';

const apps = openApiDocument('apis/apps/v1');
const core = openApiDocument('api/v1');

describe('/openapi/v3/<group-version> documents', () => {
  it('are OpenAPI 3.0.0 documents with the referenced schemas', () => {
    expect(apps?.openapi).toBe('3.0.0');
    expect(apps?.info).toEqual({ title: 'Kubernetes', version: 'unversioned' });
    const schemas = apps?.components.schemas ?? {};
    expect(Object.keys(schemas)).toContain('io.k8s.api.apps.v1.Deployment');
    expect(Object.keys(schemas)).toContain('io.k8s.api.core.v1.PodSpec');
    expect(Object.keys(schemas)).toContain('io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    expect(Object.keys(schemas)).not.toContain('io.k8s.api.batch.v1.Job');
    expect(openApiDocument('apis/nothere/v1')).toBeUndefined();
    expect(openApiDocument('version')).toBeUndefined();
  });

  it('give every PATCH of a kind the fieldValidation, dryRun, fieldManager and force parameters', () => {
    for (const path of ['/apis/apps/v1/namespaces/{namespace}/deployments/{name}', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status']) {
      const patch = apps?.paths[path]?.patch;
      expect(patch?.['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
      expect(patch?.['x-kubernetes-action']).toBe('patch');
      expect(patch?.parameters?.map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
      expect(Object.keys(patch?.requestBody?.content ?? {})).toContain('application/strategic-merge-patch+json');
      expect(patch?.parameters?.find((p) => p.name === 'fieldManager')?.description).toMatch(/required for apply requests/);
    }
    // The scale subresource is another group's kind.
    expect(apps?.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']?.patch?.['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
  });

  it('describe operations as upstream does, with shared parameters on the path', () => {
    const item = apps?.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    expect(item?.parameters?.map((p) => p.name)).toEqual(['name', 'namespace', 'pretty']);
    expect(item?.get?.operationId).toBe('readAppsV1NamespacedDeployment');
    expect(item?.get?.description).toBe('read the specified Deployment');
    expect(item?.put?.requestBody?.content['*/*']?.schema).toEqual({ $ref: '#/components/schemas/io.k8s.api.apps.v1.Deployment' });
    expect(item?.delete?.['x-kubernetes-action']).toBe('delete');
    const collection = apps?.paths['/apis/apps/v1/namespaces/{namespace}/deployments'];
    expect(collection?.get?.['x-kubernetes-action']).toBe('list');
    expect(collection?.get?.responses['200']?.content?.['application/json;stream=watch']).toBeDefined();
    expect(collection?.post?.parameters?.map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation']);
    expect(collection?.delete?.operationId).toBe('deleteAppsV1CollectionNamespacedDeployment');
    expect(apps?.paths['/apis/apps/v1/deployments']?.get?.operationId).toBe('listAppsV1DeploymentForAllNamespaces');
    expect(apps?.paths['/apis/apps/v1/deployments']?.parameters?.map((p) => p.name)).toContain('watch');
    expect(apps?.paths['/apis/apps/v1/']?.get?.operationId).toBe('getAppsV1APIResources');
  });

  it('include the deprecated watch paths', () => {
    const w = apps?.paths['/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}']?.get;
    expect(w?.['x-kubernetes-action']).toBe('watch');
    expect(w?.operationId).toBe('watchAppsV1NamespacedDeployment');
    expect(apps?.paths['/apis/apps/v1/watch/deployments']?.get?.operationId).toBe('watchAppsV1DeploymentListForAllNamespaces');
    expect(apps?.paths['/apis/apps/v1/watch/namespaces/{namespace}/deployments']?.parameters?.map((p) => p.name)).toContain('labelSelector');
  });

  it('serve core subresources with their own kinds, and only the verbs the registry lists', () => {
    const paths = core?.paths ?? {};
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction']?.post?.['x-kubernetes-group-version-kind']).toEqual({ group: 'policy', kind: 'Eviction', version: 'v1' });
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}/log']?.get?.responses['200']?.content?.['text/plain']?.schema).toEqual({ type: 'string' });
    expect(paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token']?.post?.operationId).toBe('createCoreV1NamespacedServiceAccountToken');
    // pods/resize is newer than client-node: synthesized, with parameters borrowed from pods/status.
    const resize = paths['/api/v1/namespaces/{namespace}/pods/{name}/resize'];
    expect(resize?.patch?.operationId).toBe('patchCoreV1NamespacedPodResize');
    expect(resize?.patch?.parameters?.map((p) => p.name)).toContain('fieldValidation');
    // bindings: create only.
    expect(Object.keys(paths['/api/v1/namespaces/{namespace}/bindings'] ?? {})).toEqual(['parameters', 'post']);
    expect(paths['/api/v1/namespaces/{namespace}/bindings/{name}']).toBeUndefined();
    // componentstatuses: get and list only (deprecated, still served).
    expect(Object.keys(paths['/api/v1/componentstatuses'] ?? {}).sort()).toEqual(['get', 'parameters']);
    expect(Object.keys(paths['/api/v1/componentstatuses/{name}'] ?? {}).sort()).toEqual(['get', 'parameters']);
    // The delete of a pod returns the pod (graceful deletion), as client-node's copy says.
    expect(paths['/api/v1/namespaces/{namespace}/pods/{name}']?.delete?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/io.k8s.api.core.v1.Pod' });
  });

  it('let kubectl explain find a kind from a resource path', () => {
    // kubectl's template searches these four paths for a GVK on get/post/put/patch/delete.
    for (const r of RESOURCES) {
      const doc = groupVersionDocument(r);
      const prefix = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      const candidates = [`${prefix}/${r.resource}`, `${prefix}/${r.resource}/{name}`, `${prefix}/namespaces/{namespace}/${r.resource}`, `${prefix}/namespaces/{namespace}/${r.resource}/{name}`];
      const ops: Operation[] = candidates.flatMap((p) => ['get', 'post', 'put', 'patch', 'delete'].map((m) => doc?.paths[p]?.[m as 'get'])).filter((o): o is Operation => o !== undefined);
      expect(ops.some((o) => o['x-kubernetes-group-version-kind']?.kind === r.kind), `${r.group}/${r.resource}`).toBe(true);
      expect(Object.values(doc?.components.schemas ?? {}).some((s) => s['x-kubernetes-group-version-kind']?.some((g) => g.kind === r.kind && g.group === r.group))).toBe(true);
    }
  });

  it('are deterministic', () => {
    expect(JSON.stringify(openApiDocument('apis/apps/v1'))).toBe(JSON.stringify(apps));
  });
});

describe('/openapi/v3 index', () => {
  it('lists every served group-version with a hashed URL', () => {
    const idx = openApiIndex();
    expect(idx.paths['api/v1']?.serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{16}$/);
    expect(idx.paths['apis/apps/v1']?.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{16}$/);
    expect(idx.paths['apis/autoscaling/v2']).toBeDefined();
    expect(Object.keys(idx.paths)).toEqual([...Object.keys(idx.paths)].sort());
    for (const key of Object.keys(idx.paths)) expect(parseGroupVersionPath(key), key).toBeDefined();
  });

  it('changes a hash when (and only when) that group-version changes', () => {
    const before = openApiIndex();
    const fewer = RESOURCES.filter((r) => !(r.group === 'apps' && r.resource === 'statefulsets'));
    const after = openApiIndex(fewer);
    expect(after.paths['apis/apps/v1']).not.toEqual(before.paths['apis/apps/v1']);
    expect(after.paths['api/v1']).toEqual(before.paths['api/v1']);
    const exact = openApiIndex(RESOURCES, { exact: true });
    expect(exact.paths['apis/apps/v1']?.serverRelativeURL).toBe(`/openapi/v3/apis/apps/v1?hash=${documentHash(JSON.stringify(apps))}`);
  });
});

describe('documentHash', () => {
  it('is stable and sensitive', () => {
    expect(documentHash('abc')).toBe(documentHash('abc'));
    expect(documentHash('abc')).not.toBe(documentHash('abd'));
    expect(documentHash('')).toMatch(/^[0-9A-F]{16}$/);
  });
});

/** Minimal protobuf reader: the fields of one message as [number, wire type, value]. */
function fields(b: Uint8Array): [number, number, Uint8Array | number][] {
  const out: [number, number, Uint8Array | number][] = [];
  let i = 0;
  const varint = () => {
    let n = 0;
    let mul = 1;
    for (;;) {
      const c = b[i++] ?? 0;
      n += (c & 0x7f) * mul;
      mul *= 128;
      if (c < 0x80) return n;
    }
  };
  while (i < b.length) {
    const tag = varint();
    const wt = tag & 7;
    if (wt === 0) out.push([tag >>> 3, wt, varint()]);
    else if (wt === 2) {
      const len = varint();
      out.push([tag >>> 3, wt, b.subarray(i, i + len)]);
      i += len;
    } else throw new Error(`wire type ${wt}`);
  }
  return out;
}
const text = (v: Uint8Array | number) => new TextDecoder().decode(v as Uint8Array);

describe('/openapi/v2', () => {
  it('is swagger 2.0 with v2-style refs', () => {
    const doc = openApiV2();
    expect(doc.swagger).toBe('2.0');
    const defs = doc.definitions as Record<string, Record<string, unknown>>;
    const spec = defs['io.k8s.api.apps.v1.Deployment'] as { properties: Record<string, unknown> };
    expect(spec.properties.spec).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec' });
    expect(defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ format: 'int-or-string', type: 'string' });
    const paths = doc.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    const patch = paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
    expect(patch?.parameters?.some((p) => p.in === 'body' && p.name === 'body')).toBe(true);
  });

  it('encodes as gnostic protobuf that reads back', () => {
    const bytes = openApiV2Protobuf();
    const top = fields(bytes);
    expect(top[0]?.[0]).toBe(1);
    expect(text(top[0]?.[2] ?? 0)).toBe('2.0');
    const defs = top.find((f) => f[0] === 9)?.[2] as Uint8Array;
    const named = fields(defs).map(([, , v]) => fields(v as Uint8Array));
    const names = named.map((f) => text(f.find((x) => x[0] === 1)?.[2] ?? 0));
    expect(names).toContain('io.k8s.api.apps.v1.Deployment');
    const deploy = named[names.indexOf('io.k8s.api.apps.v1.Deployment')];
    const schema = fields(deploy?.find((x) => x[0] === 2)?.[2] as Uint8Array);
    expect(text(schema.find((x) => x[0] === 4)?.[2] ?? 0)).toBe('Deployment enables declarative updates for Pods and ReplicaSets.');
    const ext = schema.filter((x) => x[0] === 31).map(([, , v]) => fields(v as Uint8Array));
    const gvk = ext.find((e) => text(e[0]?.[2] ?? 0) === 'x-kubernetes-group-version-kind');
    const yaml = fields(gvk?.[1]?.[2] as Uint8Array).find((x) => x[0] === 2)?.[2];
    expect(JSON.parse(text(yaml ?? 0))).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  });
});
