// kube-scheduler's --config, end to end: decode (codec.ts), default
// (defaults.ts), validate (validation.ts), then build every profile as
// scheduler.New does (profile.NewMap over resolve.ts), with the errors the
// real binary stops on. Also --write-config-to's output.
import type { Position } from './document';
import { decodeConfig, encodeConfig, registeredArgsKinds } from './codec';
import { setDefaults, type Registry } from './defaults';
import { goQuote } from './goText';
import { resolveProfile } from './resolve';
import { aggregate, sortedJson, validateKubeSchedulerConfiguration } from './validation';
import { EXTENSION_POINTS, type DefaultedConfig, type ImplementsPoint, type KubeSchedulerConfiguration, type Plugins, type ResolvedProfile } from './types';

export type { Position } from './document';
export * from './types';
export { durationMs, formatGoDuration, parseGoDuration } from './goText';
export { getDefaultPlugins, mergePlugins, setDefaults } from './defaults';

export type LoadResult =
  | { ok: true; config: DefaultedConfig; profiles: ResolvedProfile[] }
  /** `position`: where a syntax error is (1-based), for editors. */
  | { ok: false; error: string; position?: Position };

function argsKindsOf(registry: Registry): Set<string> {
  const kinds: string[] = [];
  for (const def of registry.values()) if (def.argsKind) kinds.push(def.argsKind);
  return registeredArgsKinds(kinds);
}

/** A decoded (not yet defaulted) config through defaulting, validation and framework construction. */
export function completeConfig(input: KubeSchedulerConfiguration, registry: Registry, implementsPoint: ImplementsPoint): LoadResult {
  const config = setDefaults(input, registry, argsKindsOf(registry));
  const invalid = aggregate(validateKubeSchedulerConfiguration(config, registry));
  if (invalid !== undefined) return { ok: false, error: invalid };

  // profile.NewMap: build each framework, then cfgValidator's cross-profile checks.
  const profiles: ResolvedProfile[] = [];
  let first: { queueSort: string; args: string } | undefined;
  for (const p of config.profiles) {
    const r = resolveProfile(p, registry, implementsPoint);
    if (!r.ok) return { ok: false, error: `initializing profiles: creating profile for scheduler name ${p.schedulerName ?? ''}: ${r.error}` };
    const queueSort = r.profile.points.queueSort[0]!.name;
    const args = sortedJson(p.pluginConfig.filter((c) => c.name === queueSort).at(-1)?.args ?? null);
    if (first === undefined) first = { queueSort, args };
    else if (first.queueSort !== queueSort) {
      return { ok: false, error: `initializing profiles: different queue sort plugins for profile ${goQuote(r.profile.schedulerName)}: ${goQuote(queueSort)}, first: ${goQuote(first.queueSort)}` };
    } else if (first.args !== args) {
      return { ok: false, error: `initializing profiles: different queue sort plugin args for profile ${goQuote(r.profile.schedulerName)}` };
    }
    profiles.push(r.profile);
  }
  return { ok: true, config, profiles };
}

/** kube-scheduler --config=<file with `text`>: the completed config and its profiles, or the error it exits with. */
export function loadConfig(text: string, registry: Registry, implementsPoint: ImplementsPoint): LoadResult {
  const decoded = decodeConfig(text, argsKindsOf(registry));
  if (!decoded.ok) return decoded;
  return completeConfig(decoded.config, registry, implementsPoint);
}

/** kube-scheduler without --config: the v1 defaults. Throws if the registry cannot run them (a bug). */
export function defaultConfig(registry: Registry, implementsPoint: ImplementsPoint): { config: DefaultedConfig; profiles: ResolvedProfile[] } {
  const r = completeConfig({}, registry, implementsPoint);
  if (!r.ok) throw new Error(`default scheduler configuration does not load: ${r.error}`);
  return { config: r.config, profiles: r.profiles };
}

/** The config as the v1 YAML encoder prints it, unchanged. */
export function printConfig(config: KubeSchedulerConfiguration, registry: Registry): string {
  return encodeConfig(config, argsKindsOf(registry));
}

/** Internal Plugin weights are int32: back in v1 every plugin carries one, 0 when unset. */
function withWeights(plugins: Plugins): Plugins {
  const out: Plugins = {};
  for (const n of ['multiPoint', ...EXTENSION_POINTS] as const) {
    const s = plugins[n];
    if (s === undefined) continue;
    out[n] = {
      ...(s.enabled ? { enabled: s.enabled.map((p) => ({ name: p.name, weight: p.weight ?? 0 })) } : {}),
      ...(s.disabled ? { disabled: s.disabled.map((p) => ({ name: p.name, weight: p.weight ?? 0 })) } : {}),
    };
  }
  return out;
}

/**
 * What `kube-scheduler --config=... --write-config-to=out.yaml` writes: the
 * config with the profiles the frameworks captured (the merged plugin sets,
 * and pluginConfig only for plugins the profile instantiates, sorted by name),
 * after the round trip through the internal types.
 */
export function writeConfig(loaded: { config: DefaultedConfig; profiles: readonly ResolvedProfile[] }, registry: Registry): string {
  const { config } = loaded;
  const profiles = config.profiles.map((p, i) => {
    const resolved = loaded.profiles[i]!;
    const pluginConfig = [...resolved.args.entries()]
      .filter(([, args]) => args !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, args]) => ({ name, args }));
    return {
      schedulerName: p.schedulerName ?? '',
      ...(p.percentageOfNodesToScore !== undefined ? { percentageOfNodesToScore: p.percentageOfNodesToScore } : {}),
      plugins: withWeights(p.plugins),
      ...(pluginConfig.length ? { pluginConfig } : {}),
    };
  });
  return encodeConfig({ ...config, enableContentionProfiling: config.enableContentionProfiling ?? false, profiles }, argsKindsOf(registry));
}
