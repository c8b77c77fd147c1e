// Reading and writing a KubeSchedulerConfiguration as kube-scheduler does
// (cmd/kube-scheduler/app/options/configfile.go over the scheme's strict
// UniversalDecoder; v1 types.go DecodeNestedObjects for plugin args; and
// LogOrWriteConfig's YAML encoder). Messages are the decoder's own: missing
// kind, unregistered kind, strict decoding errors, json type errors, syntax
// errors (go-yaml's "yaml: line N: ..." text, with the position alongside).
import { Document, isScalar, visit } from 'yaml';
import { compactJson, NULL, parseText, plain, type JNode, type Position } from './document';
import { goQuote, goYamlKeyCompare } from './goText';
import { ARGS_SCHEMAS, CONFIG_SCHEMA, decode, encode, RawArgs } from './schema';
import { CONFIG_KIND, GROUP_VERSION, type KubeSchedulerConfiguration, type PluginConfig } from './types';

export const GROUP = 'kubescheduler.config.k8s.io';
/** runtime.NewScheme() names the scheme after its call site (v1.32's scheme.go, line 29). */
export const SCHEME_NAME = 'pkg/scheduler/apis/config/scheme/scheme.go:29';

export type DecodeOutcome = { ok: true; config: KubeSchedulerConfiguration } | { ok: false; error: string; position?: Position };

interface GVK {
  group: string;
  version: string;
  kind: string;
}

const gvString = (g: GVK) => (g.group === '' ? g.version : `${g.group}/${g.version}`);
const groupKind = (kind: string, group: string) => (group === '' ? kind : `${kind}.${group}`);

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** json.SimpleMetaFactory.Interpret: apiVersion and kind, before anything else is read. */
function interpret(n: JNode): { ok: true; gvk: GVK } | { ok: false; error: string } {
  const prefix = "couldn't get version/kind; json parse error: ";
  let apiVersion = '';
  let kind = '';
  if (n.t === 'object') {
    let bad: string | undefined;
    for (const [k, v] of n.pairs) {
      if (k !== 'apiVersion' && k !== 'kind') continue;
      if (v.t === 'null') continue;
      if (v.t !== 'string') {
        bad ??= `${prefix}json: cannot unmarshal ${v.t === 'bool' ? 'bool' : v.t} into Go struct field .${k} of type string`;
        continue;
      }
      if (k === 'apiVersion') apiVersion = v.v;
      else kind = v.v;
    }
    if (bad !== undefined) return { ok: false, error: bad };
  } else if (n.t !== 'null') {
    return { ok: false, error: `${prefix}json: cannot unmarshal ${n.t === 'bool' ? 'bool' : n.t} into Go value of type ${FIND_KIND_TYPE}` };
  }
  const parts = apiVersion === '' ? [] : apiVersion.split('/');
  if (parts.length > 2) return { ok: false, error: `unexpected GroupVersion string: ${apiVersion}` };
  const gv = parts.length === 2 ? { group: parts[0]!, version: parts[1]! } : { group: '', version: parts[0] ?? '' };
  return { ok: true, gvk: { ...gv, kind } };
}

/** The serializer's checks on a GVK: present, then registered in the scheme. */
function checkGvk(gvk: GVK, data: string, argsKinds: ReadonlySet<string>): string | undefined {
  if (gvk.kind === '') return `Object 'Kind' is missing in '${data}'`;
  if (gvk.version === '') return `Object 'apiVersion' is missing in '${data}'`;
  const registered = gvk.group === GROUP && gvk.version === 'v1' && (gvk.kind === CONFIG_KIND || argsKinds.has(gvk.kind));
  if (!registered) return `no kind ${goQuote(gvk.kind)} is registered for version ${goQuote(gvString(gvk))} in scheme ${goQuote(SCHEME_NAME)}`;
  return undefined;
}

/** Args kinds the decoder knows: upstream's v1 kinds plus any the registry brings. */
export function registeredArgsKinds(extra: Iterable<string>): Set<string> {
  return new Set([...ARGS_SCHEMAS.keys(), ...extra]);
}

function stripTypeMeta(v: unknown): Record<string, unknown> {
  const o = { ...((v ?? {}) as Record<string, unknown>) };
  delete o.apiVersion;
  delete o.kind;
  return o;
}

type NestedResult = { ok: true; args: unknown; strict?: string } | { ok: false; error: string };

/** PluginConfig.decodeNestedObjects for profiles[i].pluginConfig[j]. */
function decodeArgs(pc: PluginConfig, i: number, j: number, argsKinds: ReadonlySet<string>): NestedResult {
  const raw = pc.args instanceof RawArgs ? pc.args.node : NULL;
  const want = `${pc.name}Args`;
  // Out-of-tree plugins (no registered args kind) keep their raw args.
  if (!argsKinds.has(want)) return { ok: true, args: raw.t === 'null' ? undefined : plain(raw) };
  const where = `decoding .profiles[${i}].pluginConfig[${j}]`;
  const wrap = (e: string) => `${where}: decoding args for plugin ${pc.name}: ${e}`;
  const it = interpret(raw);
  if (!it.ok) return { ok: false, error: wrap(it.error) };
  const gvk = { ...it.gvk };
  if (gvk.kind === '') gvk.kind = want;
  if (gvk.version === '' && gvk.group === '') {
    gvk.group = GROUP;
    gvk.version = 'v1';
  }
  if (gvk.version === '' && gvk.group === GROUP) gvk.version = 'v1';
  const bad = checkGvk(gvk, raw.t === 'null' ? '' : compactJson(raw), argsKinds);
  if (bad !== undefined) return { ok: false, error: wrap(bad) };
  const schema = ARGS_SCHEMAS.get(gvk.kind);
  let value: unknown;
  let strict: string | undefined;
  if (schema) {
    const r = decode(raw, schema);
    if (r.error !== undefined) return { ok: false, error: wrap(r.error) };
    value = r.value;
    // NewStrictDecodingError around "decoding args for plugin X: <the args decoder's strict error>"
    if (r.strict.length > 0) strict = `${where}: strict decoding error: decoding args for plugin ${pc.name}: strict decoding error: ${r.strict.join(', ')}`;
  } else {
    value = plain(raw);
  }
  if (gvk.kind !== want) {
    return { ok: false, error: `${where}: args for plugin ${pc.name} were not of type ${groupKind(want, GROUP)}, got ${groupKind(gvk.kind, gvk.group)}` };
  }
  return { ok: true, args: stripTypeMeta(value), ...(strict ? { strict } : {}) };
}

/**
 * Decodes a config file's text (UniversalDecoder().Decode, then loadConfig's
 * kind check). `argsKinds`: see registeredArgsKinds. No defaulting here.
 */
export function decodeConfig(text: string, argsKinds: ReadonlySet<string>): DecodeOutcome {
  const parsed = parseText(text);
  if (!parsed.ok) return parsed;
  const it = interpret(parsed.root);
  if (!it.ok) return { ok: false, error: it.error };
  const bad = checkGvk(it.gvk, text, argsKinds);
  if (bad !== undefined) return { ok: false, error: bad };
  if (it.gvk.kind !== CONFIG_KIND) {
    return { ok: false, error: `couldn't decode as KubeSchedulerConfiguration, got ${it.gvk.group}/${it.gvk.version}, Kind=${it.gvk.kind}: ` };
  }
  // The YAML strict pass (duplicate keys) comes first, then the JSON decode's own.
  const strict: string[] = [];
  if (parsed.yamlDuplicates.length > 0) strict.push(`yaml: unmarshal errors:\n  ${parsed.yamlDuplicates.join('\n  ')}`);
  const r = decode(parsed.root, CONFIG_SCHEMA);
  if (r.error !== undefined) return { ok: false, error: r.error };
  strict.push(...r.strict);
  const config = r.value as KubeSchedulerConfiguration;
  const profiles = config.profiles ?? [];
  for (let i = 0; i < profiles.length; i++) {
    const pcs = profiles[i]!.pluginConfig ?? [];
    for (let j = 0; j < pcs.length; j++) {
      const pc = pcs[j]!;
      const nested = decodeArgs(pc, i, j, argsKinds);
      if (!nested.ok) return { ok: false, error: nested.error };
      if (nested.args === undefined) delete pc.args;
      else pc.args = nested.args;
      if (nested.strict) strict.push(nested.strict);
    }
  }
  if (strict.length > 0) return { ok: false, error: `strict decoding error: ${strict.join(', ')}` };
  return { ok: true, config };
}

const YAML11_WORDS = new Set(['', '~', 'null', 'Null', 'NULL', '<<', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '.nan', '.NaN', '.NAN']);
const YAML11_BOOLS = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const GO_INT = /^[-+]?(0b[01]+|0x[0-9a-fA-F]+|0o?[0-7]+|[0-9]+)$/;
const GO_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** go-yaml v2's resolve(): does this text, written plain, read back as something other than a string? Then it double-quotes it. */
function readsAsOther(s: string): boolean {
  if (YAML11_WORDS.has(s) || YAML11_BOOLS.test(s) || BASE60.test(s)) return true;
  const plain = s.replace(/_/g, '');
  return /^[-+.0-9]/.test(s) && (GO_INT.test(plain) || GO_FLOAT.test(plain));
}

/**
 * sigs.k8s.io/yaml's output: JSON turned into YAML by go-yaml v2, every map's
 * keys in its order; strings that would read as other types in double quotes,
 * other strings that cannot be plain in single quotes.
 */
export function toGoYaml(json: unknown): string {
  const doc = new Document(json, {
    version: '1.1',
    sortMapEntries: (a, b) => goYamlKeyCompare(String((a.key as { value?: unknown })?.value ?? a.key), String((b.key as { value?: unknown })?.value ?? b.key)),
  });
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && typeof node.value === 'string' && readsAsOther(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ indentSeq: false, lineWidth: 0, minContentWidth: 0, singleQuote: true });
}

/**
 * The config as the v1 YAML encoder writes it (what `kube-scheduler
 * --write-config-to` prints): Go's JSON of the v1 structs, apiVersion/kind on
 * the config and on every typed plugin args object, keys sorted.
 */
export function encodeConfig(config: KubeSchedulerConfiguration, argsKinds: ReadonlySet<string>): string {
  const json = encode({ ...config, apiVersion: GROUP_VERSION, kind: CONFIG_KIND }, CONFIG_SCHEMA) as { profiles?: { pluginConfig?: { args?: unknown }[] | null }[] | null };
  (config.profiles ?? []).forEach((p, i) => {
    (p.pluginConfig ?? []).forEach((pc, j) => {
      const out = json.profiles?.[i]?.pluginConfig?.[j];
      if (out === undefined) return;
      const kind = `${pc.name}Args`;
      if (!argsKinds.has(kind) || pc.args === undefined || pc.args === null) return;
      const schema = ARGS_SCHEMAS.get(kind);
      const body = schema ? (encode(pc.args, schema) as Record<string, unknown>) : stripTypeMeta(pc.args);
      out.args = { ...body, apiVersion: GROUP_VERSION, kind };
    });
  });
  return toGoYaml(json);
}
