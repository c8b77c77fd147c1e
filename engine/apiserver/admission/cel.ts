// CEL for admission (k8s.io/apiserver/pkg/admission/plugin/cel), on
// @marcbachmann/cel-js. Every admission variable is declared dyn: upstream
// type-checks against OpenAPI schemas at compile time, here mistakes surface
// when an expression runs. JSON integers become CEL ints (BigInt), other
// numbers doubles. Kubernetes' extension libraries (quantity(), url(),
// authorizer checks, isSorted(), ...) are not provided; the cel-js builtins
// (string, list, timestamp, macros, optionals) are.
import { Environment, ParseError } from '@marcbachmann/cel-js';
import type { AdmissionAttributes } from '../types';
import { isRec } from './json';

export const CEL_VARIABLES = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables', 'authorizer'] as const;

// Built once and never changed afterwards: a constant, not state.
const ENV: Environment = (() => {
  const env = new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true });
  for (const v of CEL_VARIABLES) env.registerVariable(v, 'dyn');
  return env;
})();

export type Activation = Partial<Record<(typeof CEL_VARIABLES)[number], unknown>>;

export type CelResult = { ok: true; value: unknown } | { ok: false; kind: 'compile' | 'eval'; message: string };

/** JSON data as CEL values. */
export function toCel(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(toCel);
  if (isRec(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toCel(x);
    return out;
  }
  return v === undefined ? null : v;
}

function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const line = msg.split('\n')[0] ?? '';
  // cel-go says "no such key: x"; keep its casing.
  return line.replace(/^No such key/, 'no such key');
}

/** Compiles the expression (a syntax check): undefined when fine, else the message. */
export function compileError(expression: string): string | undefined {
  try {
    ENV.parse(expression);
    return undefined;
  } catch (e) {
    return firstLine(e);
  }
}

export function evaluate(expression: string, activation: Activation): CelResult {
  const err = compileError(expression);
  if (err !== undefined) return { ok: false, kind: 'compile', message: err };
  try {
    const full: Record<string, unknown> = {};
    for (const v of CEL_VARIABLES) full[v] = activation[v] ?? null;
    return { ok: true, value: ENV.evaluate(expression, full) };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, kind: 'compile', message: firstLine(e) };
    return { ok: false, kind: 'eval', message: firstLine(e) };
  }
}

/**
 * The `variables` object: each composited variable is evaluated on first use
 * and remembered, as upstream's lazy composition does; a failing one fails
 * every expression that reads it.
 */
export function compositedVariables(defs: readonly { name: string; expression: string }[], base: Activation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const memo = new Map<string, CelResult>();
  const activation: Activation = { ...base, variables: out };
  for (const d of defs) {
    Object.defineProperty(out, d.name, {
      enumerable: true,
      get: () => {
        let r = memo.get(d.name);
        if (!r) {
          r = evaluate(d.expression, activation);
          memo.set(d.name, r);
        }
        if (!r.ok) throw new Error(`composited variable "${d.name}" fails to evaluate: ${r.message}`);
        return r.value;
      },
    });
  }
  return out;
}

/** The admission `request` variable (admissionv1.AdmissionRequest as CEL sees it). */
export function admissionRequest(a: AdmissionAttributes): Record<string, unknown> {
  const kind = { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
  const resource = { group: a.resource.group, version: a.resource.version, resource: a.resource.resource };
  const userInfo: Record<string, unknown> = { username: a.userInfo.username, groups: [...a.userInfo.groups] };
  if (a.userInfo.uid) userInfo['uid'] = a.userInfo.uid;
  if (a.userInfo.extra) userInfo['extra'] = a.userInfo.extra;
  const options: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a.options)) if (!k.startsWith('__')) options[k] = v;
  return toCel({
    kind,
    resource,
    subResource: a.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: a.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo,
    dryRun: a.dryRun,
    options,
  }) as Record<string, unknown>;
}

/** object, oldObject and request for an admission request. */
export function baseActivation(a: AdmissionAttributes): Activation {
  return {
    object: a.object ? toCel(a.object) : null,
    oldObject: a.oldObject ? toCel(a.oldObject) : null,
    request: admissionRequest(a),
  };
}
