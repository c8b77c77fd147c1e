// The Go shapes behind the v1 JSON (kube-scheduler/config/v1 types.go and
// types_pluginargs.go, component-base config/v1alpha1, the core/v1 and meta/v1
// types the args embed), so that decoding fails as sigs.k8s.io/json's strict,
// case-sensitive decoder fails (unknown and duplicate fields with their paths;
// "json: cannot unmarshal ... into Go struct field ..." type errors), and
// encoding prints what encoding/json prints (zero values of non-omitempty
// fields, omitempty ones left out when empty, structs always present).
import type { JNode } from './document';
import { formatGoDuration, parseGoDuration } from './goText';

export type GoType =
  | { k: 'string'; name?: string }
  | { k: 'bool' }
  | { k: 'int'; bits: 32 | 64 }
  | { k: 'float'; bits: 32 | 64 }
  /** []byte: base64 text in JSON. */
  | { k: 'bytes' }
  /** metav1.Duration: a Go duration string, parsed by its UnmarshalJSON. */
  | { k: 'duration' }
  | { k: 'ptr'; to: GoType }
  | { k: 'slice'; of: GoType }
  | { k: 'map'; of: GoType }
  | { k: 'struct'; name: string; fields: GoField[] }
  /** runtime.RawExtension (plugin args): kept as a tree, decoded later by kind. */
  | { k: 'raw' };

export interface GoField {
  json: string;
  type: GoType;
  omitempty?: boolean;
  /** The Go struct that declares the field, when it comes from an embedded one. */
  owner?: string;
}

const str = (name?: string): GoType => ({ k: 'string', ...(name ? { name } : {}) });
const bool: GoType = { k: 'bool' };
const i32: GoType = { k: 'int', bits: 32 };
const i64: GoType = { k: 'int', bits: 64 };
const ptr = (to: GoType): GoType => ({ k: 'ptr', to });
const slice = (of: GoType): GoType => ({ k: 'slice', of });
const struct = (name: string, fields: GoField[]): GoType & { k: 'struct' } => ({ k: 'struct', name, fields });
const f = (json: string, type: GoType, omitempty = false, owner?: string): GoField => ({ json, type, ...(omitempty ? { omitempty } : {}), ...(owner ? { owner } : {}) });

const typeMeta = [f('kind', str(), true, 'TypeMeta'), f('apiVersion', str(), true, 'TypeMeta')];

// ---- meta/v1 and core/v1 pieces the args embed ----

const labelSelectorRequirement = struct('v1.LabelSelectorRequirement', [
  f('key', str()),
  f('operator', str('v1.LabelSelectorOperator')),
  f('values', slice(str()), true),
]);
const labelSelector = struct('v1.LabelSelector', [
  f('matchLabels', { k: 'map', of: str() }, true),
  f('matchExpressions', slice(labelSelectorRequirement), true),
]);
const topologySpreadConstraint = struct('v1.TopologySpreadConstraint', [
  f('maxSkew', i32),
  f('topologyKey', str()),
  f('whenUnsatisfiable', str('v1.UnsatisfiableConstraintAction')),
  f('labelSelector', ptr(labelSelector), true),
  f('minDomains', ptr(i32), true),
  f('nodeAffinityPolicy', ptr(str('v1.NodeInclusionPolicy')), true),
  f('nodeTaintsPolicy', ptr(str('v1.NodeInclusionPolicy')), true),
  f('matchLabelKeys', slice(str()), true),
]);
const nodeSelectorRequirement = struct('v1.NodeSelectorRequirement', [
  f('key', str()),
  f('operator', str('v1.NodeSelectorOperator')),
  f('values', slice(str()), true),
]);
const nodeSelectorTerm = struct('v1.NodeSelectorTerm', [
  f('matchExpressions', slice(nodeSelectorRequirement), true),
  f('matchFields', slice(nodeSelectorRequirement), true),
]);
const nodeAffinity = struct('v1.NodeAffinity', [
  f('requiredDuringSchedulingIgnoredDuringExecution', ptr(struct('v1.NodeSelector', [f('nodeSelectorTerms', slice(nodeSelectorTerm))])), true),
  f('preferredDuringSchedulingIgnoredDuringExecution', slice(struct('v1.PreferredSchedulingTerm', [f('weight', i32), f('preference', nodeSelectorTerm)])), true),
]);

// ---- plugin args (kube-scheduler/config/v1/types_pluginargs.go, v1.32) ----

const resourceSpec = struct('v1.ResourceSpec', [f('name', str()), f('weight', i64, true)]);
const utilizationShapePoint = struct('v1.UtilizationShapePoint', [f('utilization', i32), f('score', i32)]);

/** The args kinds kube-scheduler v1.32 registers, by kind. */
export const ARGS_SCHEMAS: ReadonlyMap<string, GoType & { k: 'struct' }> = new Map([
  ['DefaultPreemptionArgs', struct('v1.DefaultPreemptionArgs', [...typeMeta, f('minCandidateNodesPercentage', ptr(i32), true), f('minCandidateNodesAbsolute', ptr(i32), true)])],
  ['InterPodAffinityArgs', struct('v1.InterPodAffinityArgs', [...typeMeta, f('hardPodAffinityWeight', ptr(i32), true), f('ignorePreferredTermsOfExistingPods', bool)])],
  [
    'NodeResourcesFitArgs',
    struct('v1.NodeResourcesFitArgs', [
      ...typeMeta,
      f('ignoredResources', slice(str()), true),
      f('ignoredResourceGroups', slice(str()), true),
      f(
        'scoringStrategy',
        ptr(
          struct('v1.ScoringStrategy', [
            f('type', str('v1.ScoringStrategyType'), true),
            f('resources', slice(resourceSpec), true),
            f('requestedToCapacityRatio', ptr(struct('v1.RequestedToCapacityRatioParam', [f('shape', slice(utilizationShapePoint), true)])), true),
          ]),
        ),
        true,
      ),
    ]),
  ],
  [
    'PodTopologySpreadArgs',
    struct('v1.PodTopologySpreadArgs', [...typeMeta, f('defaultConstraints', slice(topologySpreadConstraint), true), f('defaultingType', str('v1.PodTopologySpreadConstraintsDefaulting'), true)]),
  ],
  ['NodeResourcesBalancedAllocationArgs', struct('v1.NodeResourcesBalancedAllocationArgs', [...typeMeta, f('resources', slice(resourceSpec), true)])],
  ['VolumeBindingArgs', struct('v1.VolumeBindingArgs', [...typeMeta, f('bindTimeoutSeconds', ptr(i64), true), f('shape', slice(utilizationShapePoint), true)])],
  ['NodeAffinityArgs', struct('v1.NodeAffinityArgs', [...typeMeta, f('addedAffinity', ptr(nodeAffinity), true)])],
]);

// ---- the configuration ----

const plugin = struct('v1.Plugin', [f('name', str()), f('weight', ptr(i32), true)]);
const pluginSet = struct('v1.PluginSet', [f('enabled', slice(plugin), true), f('disabled', slice(plugin), true)]);
const plugins = struct('v1.Plugins', [
  ...['preEnqueue', 'queueSort', 'preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'bind', 'postBind', 'multiPoint'].map((n) => f(n, pluginSet, true)),
]);
const profile = struct('v1.KubeSchedulerProfile', [
  f('schedulerName', ptr(str()), true),
  f('percentageOfNodesToScore', ptr(i32), true),
  f('plugins', ptr(plugins), true),
  f('pluginConfig', slice(struct('v1.PluginConfig', [f('name', str()), f('args', { k: 'raw' }, true)])), true),
]);
const extender = struct('v1.Extender', [
  f('urlPrefix', str()),
  f('filterVerb', str(), true),
  f('preemptVerb', str(), true),
  f('prioritizeVerb', str(), true),
  f('weight', i64, true),
  f('bindVerb', str(), true),
  f('enableHTTPS', bool, true),
  f(
    'tlsConfig',
    ptr(
      struct('v1.ExtenderTLSConfig', [
        f('insecure', bool, true),
        f('serverName', str(), true),
        f('certFile', str(), true),
        f('keyFile', str(), true),
        f('caFile', str(), true),
        f('certData', { k: 'bytes' }, true),
        f('keyData', { k: 'bytes' }, true),
        f('caData', { k: 'bytes' }, true),
      ]),
    ),
    true,
  ),
  f('httpTimeout', { k: 'duration' }, true),
  f('nodeCacheCapable', bool, true),
  f('managedResources', slice(struct('v1.ExtenderManagedResource', [f('name', str()), f('ignoredByScheduler', bool, true)])), true),
  f('ignorable', bool, true),
]);

export const CONFIG_SCHEMA = struct('v1.KubeSchedulerConfiguration', [
  ...typeMeta,
  f('parallelism', ptr(i32), true),
  f(
    'leaderElection',
    struct('v1alpha1.LeaderElectionConfiguration', [
      f('leaderElect', ptr(bool)),
      f('leaseDuration', { k: 'duration' }),
      f('renewDeadline', { k: 'duration' }),
      f('retryPeriod', { k: 'duration' }),
      f('resourceLock', str()),
      f('resourceName', str()),
      f('resourceNamespace', str()),
    ]),
  ),
  f(
    'clientConnection',
    struct('v1alpha1.ClientConnectionConfiguration', [
      f('kubeconfig', str()),
      f('acceptContentTypes', str()),
      f('contentType', str()),
      f('qps', { k: 'float', bits: 32 }),
      f('burst', i32),
    ]),
  ),
  f('enableProfiling', ptr(bool), true, 'DebuggingConfiguration'),
  f('enableContentionProfiling', ptr(bool), true, 'DebuggingConfiguration'),
  f('percentageOfNodesToScore', ptr(i32), true),
  f('podInitialBackoffSeconds', ptr(i64), true),
  f('podMaxBackoffSeconds', ptr(i64), true),
  f('profiles', slice(profile), true),
  f('extenders', slice(extender), true),
  f('delayCacheUntilActive', bool, true),
]);

// ---- decoding ----

/** A RawExtension's content, left for the nested args decoding. */
export class RawArgs {
  constructor(readonly node: JNode) {}
}

/** Go's type name as UnmarshalTypeError prints it. */
export function goTypeName(t: GoType): string {
  switch (t.k) {
    case 'string':
      return t.name ?? 'string';
    case 'bool':
      return 'bool';
    case 'int':
      return `int${t.bits}`;
    case 'float':
      return `float${t.bits}`;
    case 'bytes':
      return '[]uint8';
    case 'duration':
      return 'v1.Duration';
    case 'ptr':
      return `*${goTypeName(t.to)}`;
    case 'slice':
      return `[]${goTypeName(t.of)}`;
    case 'map':
      return `map[string]${goTypeName(t.of)}`;
    case 'struct':
      return t.name;
    case 'raw':
      return 'runtime.RawExtension';
  }
}

/** The JSON kind word UnmarshalTypeError uses. */
function jsonKind(n: JNode): string {
  switch (n.t) {
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'bool';
    case 'null':
      return 'null';
  }
}

export interface DecodeResult {
  value: unknown;
  /** Strict errors (unknown or duplicate fields), in document order. */
  strict: string[];
  /** The error a non-strict decode already fails with. */
  error?: string;
}

class Abort {
  constructor(readonly message: string) {}
}

interface Ctx {
  strict: string[];
  saved?: string;
  /** sigs.k8s.io/json's strict field stack: "profiles[0].plugins". */
  path: string;
  /** encoding/json's errorContext: the struct being filled and the field names from the root. */
  struct: string;
  fields: string[];
}

const INT_RANGE: Record<32 | 64, [bigint, bigint]> = {
  32: [-(1n << 31n), (1n << 31n) - 1n],
  64: [-(1n << 63n), (1n << 63n) - 1n],
};

function typeError(ctx: Ctx, value: string, t: GoType): void {
  if (ctx.saved !== undefined) return;
  // a pointer is dereferenced before the store, so its element type is named
  const shown = t.k === 'ptr' ? t.to : t;
  ctx.saved =
    ctx.struct !== '' || ctx.fields.length > 0
      ? `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${ctx.fields.join('.')} of type ${goTypeName(shown)}`
      : `json: cannot unmarshal ${value} into Go value of type ${goTypeName(shown)}`;
}

const joinPath = (base: string, key: string) => (base === '' ? key : `${base}.${key}`);

function dec(n: JNode, t: GoType, ctx: Ctx): unknown {
  if (n.t === 'null') {
    // null leaves a value alone and makes a pointer, slice or map nil
    return undefined;
  }
  switch (t.k) {
    case 'ptr':
      return dec(n, t.to, ctx);
    case 'raw':
      return new RawArgs(n);
    case 'duration': {
      // metav1.Duration.UnmarshalJSON: json.Unmarshal into a string, then time.ParseDuration; its errors end the decode
      if (n.t !== 'string') throw new Abort(`json: cannot unmarshal ${jsonKind(n)} into Go value of type string`);
      const d = parseGoDuration(n.v);
      if (!d.ok) throw new Abort(d.error);
      return n.v;
    }
    case 'string':
    case 'bytes':
      if (n.t !== 'string') return typeError(ctx, jsonKind(n), t);
      if (t.k === 'bytes' && !/^[A-Za-z0-9+/]*={0,2}$/.test(n.v)) {
        ctx.saved ??= `illegal base64 data at input byte ${Math.max(0, n.v.search(/[^A-Za-z0-9+/=]/))}`;
        return undefined;
      }
      return n.v;
    case 'bool':
      if (n.t !== 'bool') return typeError(ctx, jsonKind(n), t);
      return n.v;
    case 'int': {
      if (n.t !== 'number') return typeError(ctx, jsonKind(n), t);
      const [lo, hi] = INT_RANGE[t.bits];
      if (!/^-?\d+$/.test(n.raw) || BigInt(n.raw) < lo || BigInt(n.raw) > hi) return typeError(ctx, `number ${n.raw}`, t);
      return Number(n.raw);
    }
    case 'float':
      if (n.t !== 'number') return typeError(ctx, jsonKind(n), t);
      if (t.bits === 32 && Math.abs(n.v) > 3.4028234663852886e38) return typeError(ctx, `number ${n.raw}`, t);
      return n.v;
    case 'slice': {
      if (n.t !== 'array') return typeError(ctx, jsonKind(n), t);
      const base = ctx.path;
      const out = n.items.map((item, i) => {
        ctx.path = `${base}[${i}]`;
        return dec(item, t.of, ctx) ?? zeroOf(t.of);
      });
      ctx.path = base;
      return out;
    }
    case 'map': {
      if (n.t !== 'object') return typeError(ctx, jsonKind(n), t);
      const base = ctx.path;
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const [k, v] of n.pairs) {
        ctx.path = joinPath(base, k);
        if (seen.has(k)) ctx.strict.push(`duplicate field "${ctx.path}"`);
        seen.add(k);
        out[k] = dec(v, t.of, ctx) ?? zeroOf(t.of);
      }
      ctx.path = base;
      return out;
    }
    case 'struct': {
      if (n.t !== 'object') return typeError(ctx, jsonKind(n), t);
      const base = ctx.path;
      const { struct: baseStruct, fields: baseFields } = ctx;
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const [k, v] of n.pairs) {
        const field = t.fields.find((x) => x.json === k);
        ctx.path = joinPath(base, k);
        if (field === undefined) {
          ctx.strict.push(`unknown field "${ctx.path}"`);
          continue;
        }
        if (seen.has(k)) ctx.strict.push(`duplicate field "${ctx.path}"`);
        seen.add(k);
        ctx.struct = field.owner ?? t.name.replace(/^[^.]*\./, '');
        ctx.fields = [...baseFields, k];
        const got = dec(v, field.type, ctx);
        if (got === undefined) delete out[k];
        else out[k] = got;
        ctx.struct = baseStruct;
        ctx.fields = baseFields;
      }
      ctx.path = base;
      return out;
    }
  }
}

/** An element that decoded to nothing (null) is the element type's zero value. */
function zeroOf(t: GoType): unknown {
  switch (t.k) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
    case 'float':
      return 0;
    case 'struct':
      return {};
    case 'duration':
      return '0s';
    default:
      return null;
  }
}

/** Decodes a JSON tree into `t` the way the strict, case-sensitive decoder does. */
export function decode(n: JNode, t: GoType): DecodeResult {
  const ctx: Ctx = { strict: [], path: '', struct: '', fields: [] };
  try {
    const value = dec(n, t, ctx);
    if (ctx.saved !== undefined) return { value, strict: [], error: ctx.saved };
    return { value, strict: ctx.strict };
  } catch (e) {
    if (e instanceof Abort) return { value: undefined, strict: [], error: e.message };
    throw e;
  }
}

// ---- encoding ----

function isEmpty(v: unknown, t: GoType): boolean {
  switch (t.k) {
    case 'ptr':
    case 'raw':
      return t.k === 'ptr' && (v === undefined || v === null);
    case 'slice':
    case 'bytes':
      return v === undefined || v === null || (Array.isArray(v) && v.length === 0) || v === '';
    case 'map':
      return v === undefined || v === null || Object.keys(v as object).length === 0;
    case 'string':
      return v === undefined || v === '';
    case 'bool':
      return v !== true;
    case 'int':
    case 'float':
      return v === undefined || v === 0;
    case 'duration':
    case 'struct':
      // encoding/json never treats a struct as empty
      return false;
  }
}

/** strconv.FormatFloat(f, 'f', -1, 32): the shortest text that reads back as the same float32. */
function float32Text(v: number): string {
  const f32 = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const s = Number(f32.toPrecision(p));
    if (Math.fround(s) === f32) return String(s);
  }
  return String(f32);
}

/** The JSON value encoding/json writes for `v` of type `t` (undefined means Go's zero value). */
export function encode(v: unknown, t: GoType): unknown {
  switch (t.k) {
    case 'ptr':
      return v === undefined || v === null ? null : encode(v, t.to);
    case 'raw':
      return v === undefined ? null : v;
    case 'duration': {
      const d = parseGoDuration(typeof v === 'string' ? v : '0s');
      return formatGoDuration(d.ok ? d.ns : 0n);
    }
    case 'string':
      return typeof v === 'string' ? v : '';
    case 'bytes':
      return typeof v === 'string' && v !== '' ? v : null;
    case 'bool':
      return v === true;
    case 'int':
      return typeof v === 'number' ? v : 0;
    case 'float':
      return typeof v === 'number' ? (t.bits === 32 ? Number(float32Text(v)) : v) : 0;
    case 'slice':
      return Array.isArray(v) ? v.map((x) => encode(x, t.of)) : null;
    case 'map': {
      if (v === undefined || v === null) return null;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = encode(x, t.of);
      return out;
    }
    case 'struct': {
      const o = (v ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const field of t.fields) {
        const x = o[field.json];
        if (field.omitempty && isEmpty(x, field.type)) continue;
        out[field.json] = encode(x, field.type);
      }
      return out;
    }
  }
}
