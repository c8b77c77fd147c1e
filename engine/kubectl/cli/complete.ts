// Tab completion as kubectl's cobra completions behave (staging/src/k8s.io/kubectl/
// pkg/util/completion/completion.go): command names, flags, resource types
// (api-resources -o name), object names of the chosen type, namespaces after -n,
// output formats after -o.
import type { KubectlEnv } from '../types';
import { Discovery } from '../client/discovery';
import { RestClient } from '../client/rest';
import { resourcePath } from '../resource/builder';
import { FlagSet, type FlagDef } from './flags';
import { GLOBAL_FLAGS, type CommandSpec } from './root';

/** Commands whose first argument is a resource type and second an object name. */
const RESOURCE_COMMANDS = new Set(['get', 'describe', 'delete', 'edit', 'label', 'annotate', 'patch', 'scale', 'explain', 'events']);

const OUTPUT_FORMATS = ['custom-columns=', 'custom-columns-file=', 'go-template=', 'go-template-file=', 'json', 'jsonpath=', 'jsonpath-as-json=', 'jsonpath-file=', 'name', 'template=', 'templatefile=', 'wide', 'yaml'];

/** Splits a command line like a shell would (quotes group, backslash escapes). */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started) out.push(cur);
      cur = '';
      started = false;
    } else {
      cur += c;
      started = true;
    }
  }
  if (started || /\s$/.test(line) || line === '') out.push(cur);
  return out;
}

function flagNames(defs: readonly FlagDef[]): string[] {
  return defs.filter((d) => !d.hidden).map((d) => `--${d.name}`);
}

/** Completions for the last word of `line` (which may start with "kubectl"). */
export async function complete(line: string, env: KubectlEnv, root: CommandSpec): Promise<string[]> {
  const words = splitCommandLine(line);
  if (words[0] === 'kubectl') words.shift();
  if (words.length === 0) words.push('');
  const last = words[words.length - 1]!;
  const before = words.slice(0, -1);
  // walk to the command
  let cmd = root;
  const positional: string[] = [];
  let namespace = env.namespace ?? 'default';
  let pendingFlag: FlagDef | undefined;
  for (let i = 0; i < before.length; i++) {
    const w = before[i]!;
    const set = new FlagSet([...GLOBAL_FLAGS, ...(cmd.flags ?? [])]);
    if (w.startsWith('-')) {
      const name = w.startsWith('--') ? w.slice(2).split('=')[0]! : w.slice(1, 2);
      const def = w.startsWith('--') ? set.lookup(name) : set.lookupShort(name);
      if (def && def.noOptDefVal === undefined && !w.includes('=') && (w.startsWith('--') || w.length === 2)) {
        const v = before[i + 1];
        if (v === undefined) pendingFlag = def;
        else if (def.name === 'namespace') namespace = v;
        i++;
      } else if (def?.name === 'namespace' && w.includes('=')) namespace = w.slice(w.indexOf('=') + 1);
      continue;
    }
    const child = positional.length === 0 ? cmd.subcommands?.find((c) => c.name === w || (c.aliases ?? []).includes(w)) : undefined;
    if (child) cmd = child;
    else positional.push(w);
  }
  const prefixed = (xs: string[]) => [...new Set(xs)].filter((x) => x.startsWith(last)).sort();
  if (pendingFlag) return prefixed(await flagValues(pendingFlag.name, env, namespace));
  if (last.startsWith('-')) {
    const eq = last.indexOf('=');
    if (eq > 0) {
      const name = last.startsWith('--') ? last.slice(2, eq) : last.slice(1, eq);
      const vals = await flagValues(name, env, namespace);
      return vals.map((v) => `${last.slice(0, eq + 1)}${v}`).filter((x) => x.startsWith(last)).sort();
    }
    return prefixed(flagNames([...(cmd.flags ?? []), ...GLOBAL_FLAGS]));
  }
  if (cmd.subcommands && cmd.subcommands.length > 0 && positional.length === 0) return prefixed(cmd.subcommands.filter((c) => !c.hidden).map((c) => c.name));
  const top = cmd === root ? '' : (root.subcommands ?? []).find((c) => c === cmd || (c.subcommands ?? []).includes(cmd))?.name ?? cmd.name;
  if (!RESOURCE_COMMANDS.has(top)) return [];
  const client = new RestClient(env, {}, `kubectl ${top}`);
  const disc = new Discovery(client);
  try {
    await disc.load();
  } catch {
    return [];
  }
  if (positional.length === 0) {
    if (last.includes('/')) {
      const [type] = last.split('/');
      return prefixed((await objectNames(disc, client, type!, namespace)).map((n) => `${type}/${n}`));
    }
    const pref = new Map(disc.groups.map((g) => [g.name, g.preferredVersion]));
    const types = disc.resources.filter((r) => !r.name.includes('/') && pref.get(r.group) === r.version && (top === 'explain' || r.verbs.includes('get'))).map((r) => (r.group ? `${r.name}.${r.group}` : r.name));
    return prefixed(types);
  }
  if (positional.length >= 1 && !positional[0]!.includes('/') && top !== 'explain') return prefixed(await objectNames(disc, client, positional[0]!, namespace));
  return [];
}

async function objectNames(disc: Discovery, client: RestClient, type: string, namespace: string): Promise<string[]> {
  const m = disc.mappingFor(type.split(',')[0]!);
  if (!m) return [];
  const r = await client.tryJson<{ items?: { metadata?: { name?: string } }[] }>('GET', resourcePath(m, m.namespaced ? namespace : undefined));
  if (!r.ok) return [];
  return (r.value.items ?? []).map((i) => i.metadata?.name ?? '').filter(Boolean);
}

async function flagValues(name: string, env: KubectlEnv, namespace: string): Promise<string[]> {
  void namespace;
  if (name === 'output' || name === 'o') return OUTPUT_FORMATS;
  if (name === 'namespace' || name === 'n') {
    const client = new RestClient(env, {}, 'kubectl');
    const r = await client.tryJson<{ items?: { metadata?: { name?: string } }[] }>('GET', '/api/v1/namespaces');
    return r.ok ? (r.value.items ?? []).map((i) => i.metadata?.name ?? '').filter(Boolean) : [];
  }
  if (name === 'dry-run') return ['none', 'server', 'client'];
  if (name === 'type') return ['json', 'merge', 'strategic'];
  return [];
}
