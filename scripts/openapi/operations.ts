// The operations of every group-version endpoint as client-node knows them:
// operationId, description, parameters (with upstream's descriptions), body
// and result definitions. engine/apiserver/openapi/documents.ts builds the
// served /openapi/v3 documents from these, synthesizing only what client-node
// lacks (deprecated watch paths, subresources newer than the package).
import type { ApiOp } from './clientNode';
import { groupVersionOfPath, type GroupVersion } from './naming';
import { PATCH } from './definitions';
import type { GenOp, GenParam, ParamType } from '../../engine/apiserver/openapi/spec';

export interface Operations {
  /** Parameter descriptions, stored once. */
  texts: string[];
  /** path → lower-case HTTP method → operation */
  paths: Record<string, Record<string, GenOp>>;
}

/** `rbac.authorization.k8s.io`/`v1` → `RbacAuthorizationV1` (the word upstream puts in operationIds). */
export function groupVersionWord(gv: GroupVersion): string {
  const group = gv.group === '' ? 'core' : gv.group.replace(/\.k8s\.io$/, '');
  const words = group.split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `${words.join('')}${gv.version.charAt(0).toUpperCase()}${gv.version.slice(1)}`;
}

const VERBS = ['create', 'read', 'replace', 'patch', 'delete', 'list', 'watch', 'connect', 'get'];

/** client-node method name → upstream operationId: `patchNamespacedDeployment` → `patchAppsV1NamespacedDeployment`. */
export function operationId(method: string, gv: GroupVersion): string {
  const verb = VERBS.find((v) => method.startsWith(v) && /[A-Z]/.test(method.charAt(v.length)));
  if (!verb) throw new Error(`operations: cannot split ${method}`);
  return `${verb}${groupVersionWord(gv)}${method.slice(verb.length)}`;
}

function paramType(t: string): ParamType {
  if (t === 'number') return 'integer';
  if (t === 'boolean') return 'boolean';
  return 'string';
}

export function buildOperations(ops: readonly ApiOp[], names: ReadonlyMap<string, string>): Operations {
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  const text = (s: string | undefined): number => {
    if (s === undefined) return -1;
    let i = textIndex.get(s);
    if (i === undefined) {
      i = texts.length;
      texts.push(s);
      textIndex.set(s, i);
    }
    return i;
  };
  const paths: Record<string, Record<string, GenOp>> = {};
  const def = (cls: string | undefined, method: string): string | undefined => {
    if (!cls) return undefined;
    if (cls === 'string') return 'string';
    if (cls === 'any') return method === 'PATCH' ? PATCH : undefined;
    return names.get(cls);
  };
  for (const op of [...ops].sort((a, b) => a.path.localeCompare(b.path) || a.httpMethod.localeCompare(b.httpMethod))) {
    const gv = groupVersionOfPath(op.path);
    // Only group-version endpoints; custom objects are served per CRD, not here.
    if (!gv || op.apiClass === 'CustomObjectsApi') continue;
    const parameters: GenParam[] = op.params
      .filter((p) => p.in !== 'body')
      .map((p): GenParam => [p.name, p.in === 'path' ? 'path' : 'query', paramType(p.type), p.required, text(p.description)])
      .sort((a, b) => a[0].localeCompare(b[0]));
    const body = def(op.bodyType, op.httpMethod);
    const returns = def(op.returnType, op.httpMethod);
    const genOp: GenOp = {
      operationId: operationId(op.method, gv),
      ...(op.description ? { description: op.description } : {}),
      parameters,
      ...(op.consumes.length > 0 && op.httpMethod === 'PATCH' ? { consumes: op.consumes } : {}),
      ...(body ? { body } : {}),
      ...(returns ? { returns } : {}),
    };
    const byMethod = (paths[op.path] ??= {});
    byMethod[op.httpMethod.toLowerCase()] = genOp;
  }
  return { texts, paths };
}
