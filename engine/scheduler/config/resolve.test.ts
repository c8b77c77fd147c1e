import { describe, expect, it } from 'vitest';
import type { PluginDefinition } from '../framework/interface';
import { resolveProfile } from './resolve';
import type { DefaultedProfile, ExtensionPoint, Plugins, ResolvedProfile } from './types';
import { EXTENSION_POINTS } from './types';
import { fakeRegistry } from './fakeRegistry';

// framework_test.go's registry: testPlugin implements every point but PreEnqueue,
// the score plugins PreScore+Score, scoreWithNormalizePlugin1 Score only.
const ALL_BUT_PREENQUEUE = EXTENSION_POINTS.filter((p) => p !== 'preEnqueue');
const POINTS: Record<string, ExtensionPoint[]> = {
  testPlugin: ALL_BUT_PREENQUEUE,
  scorePlugin1: ['preScore', 'score'],
  scorePlugin2: ['preScore', 'score'],
  scoreWithNormalizePlugin1: ['score'],
  pluginNotImplementingScore: ['filter'],
  duplicatePluginName: ['preFilter'],
  queueSortPlugin: ['queueSort'],
  bindPlugin: ['bind'],
};
const registry = new Map<string, PluginDefinition>(Object.keys(POINTS).map((n) => [n, { name: n, factory: () => ({ name: n }) }]));
const implementsPoint = (n: string, p: ExtensionPoint) => (POINTS[n] ?? []).includes(p);

const profile = (plugins: Plugins, pluginConfig: DefaultedProfile['pluginConfig'] = []): DefaultedProfile => ({ schedulerName: 'test', plugins, pluginConfig });
const mp = (...names: (string | [string, number])[]) => ({ enabled: names.map((n) => (typeof n === 'string' ? { name: n } : { name: n[0], weight: n[1] })) });

/** ListPlugins' view: non-empty points only; "name=weight" at Score. */
function listPlugins(r: ResolvedProfile): Partial<Record<ExtensionPoint, string[]>> {
  const out: Partial<Record<ExtensionPoint, string[]>> = {};
  for (const p of EXTENSION_POINTS) {
    const l = r.points[p];
    if (l.length) out[p] = l.map((x) => (p === 'score' ? `${x.name}=${x.weight}` : x.name));
  }
  return out;
}

function resolve(plugins: Plugins, pluginConfig: DefaultedProfile['pluginConfig'] = []) {
  const r = resolveProfile(profile(plugins, pluginConfig), registry, implementsPoint);
  if (!r.ok) throw new Error(r.error);
  return listPlugins(r.profile);
}

const everywhere = (name: string, score: string) => ({
  queueSort: [name],
  preFilter: [name],
  filter: [name],
  postFilter: [name],
  reserve: [name],
  permit: [name],
  preBind: [name],
  bind: [name],
  postBind: [name],
  preScore: [name],
  score: [score],
});

describe('expandMultiPointPlugins (TestNewFrameworkMultiPointExpansion)', () => {
  it('plugin expansion: every implemented point, the weight at Score', () => {
    expect(resolve({ multiPoint: mp(['testPlugin', 5]) })).toEqual(everywhere('testPlugin', 'testPlugin=5'));
  });

  it('disable MultiPoint plugin at some extension points', () => {
    const got = resolve({ multiPoint: mp('testPlugin'), preScore: { disabled: [{ name: 'testPlugin' }] }, score: { disabled: [{ name: 'testPlugin' }] } });
    const want: Record<string, string[]> = everywhere('testPlugin', '');
    delete want.preScore;
    delete want.score;
    expect(got).toEqual(want);
  });

  it('Multiple MultiPoint plugins', () => {
    expect(resolve({ multiPoint: mp('testPlugin', 'scorePlugin1') })).toEqual({
      ...everywhere('testPlugin', ''),
      preScore: ['testPlugin', 'scorePlugin1'],
      score: ['testPlugin=1', 'scorePlugin1=1'],
    });
  });

  it('disable MultiPoint extension ("*" at one point)', () => {
    const got = resolve({ multiPoint: mp('testPlugin', 'scorePlugin1'), preScore: { disabled: [{ name: '*' }] } });
    const want: Record<string, string[]> = { ...everywhere('testPlugin', ''), score: ['testPlugin=1', 'scorePlugin1=1'] };
    delete want.preScore;
    expect(got).toEqual(want);
  });

  it('Reorder MultiPoint plugins (specified extension takes precedence)', () => {
    expect(resolve({ multiPoint: mp('scoreWithNormalizePlugin1', 'testPlugin', 'scorePlugin1'), score: mp('scorePlugin1', 'testPlugin') })).toEqual({
      ...everywhere('testPlugin', ''),
      preScore: ['testPlugin', 'scorePlugin1'],
      score: ['scorePlugin1=1', 'testPlugin=1', 'scoreWithNormalizePlugin1=1'],
    });
  });

  it('Reorder MultiPoint plugins (specified extension only takes precedence when it exists in MultiPoint)', () => {
    expect(resolve({ multiPoint: mp('testPlugin', 'scorePlugin1'), score: mp('scoreWithNormalizePlugin1', 'scorePlugin1', 'testPlugin') })).toEqual({
      ...everywhere('testPlugin', ''),
      preScore: ['testPlugin', 'scorePlugin1'],
      score: ['scorePlugin1=1', 'testPlugin=1', 'scoreWithNormalizePlugin1=1'],
    });
  });

  it('Override MultiPoint plugins weights', () => {
    expect(resolve({ multiPoint: mp('testPlugin', 'scorePlugin1'), score: mp(['scorePlugin1', 5], ['testPlugin', 3]) })).toEqual({
      ...everywhere('testPlugin', ''),
      preScore: ['testPlugin', 'scorePlugin1'],
      score: ['scorePlugin1=5', 'testPlugin=3'],
    });
  });

  it("disable and enable MultiPoint plugins with '*' (MultiPoint's own disabled list does not filter it)", () => {
    expect(resolve({ multiPoint: { ...mp('queueSortPlugin', 'bindPlugin', 'scorePlugin1'), disabled: [{ name: '*' }] } })).toEqual({
      queueSort: ['queueSortPlugin'],
      preScore: ['scorePlugin1'],
      score: ['scorePlugin1=1'],
      bind: ['bindPlugin'],
    });
  });

  it('disable and enable MultiPoint plugin by name', () => {
    expect(resolve({ multiPoint: { ...mp('bindPlugin', 'queueSortPlugin', 'scorePlugin1'), disabled: [{ name: 'scorePlugin1' }] } })).toEqual({
      queueSort: ['queueSortPlugin'],
      preScore: ['scorePlugin1'],
      score: ['scorePlugin1=1'],
      bind: ['bindPlugin'],
    });
  });

  it('Override MultiPoint plugins weights and avoid a plugin being loaded multiple times', () => {
    expect(resolve({ multiPoint: mp('testPlugin', 'scorePlugin1'), score: mp(['scorePlugin1', 5], ['scorePlugin2', 5], ['testPlugin', 3]) })).toEqual({
      ...everywhere('testPlugin', ''),
      preScore: ['testPlugin', 'scorePlugin1'],
      score: ['scorePlugin1=5', 'testPlugin=3', 'scorePlugin2=5'],
    });
  });
});

describe('NewFramework errors', () => {
  const err = (plugins: Plugins, pluginConfig: DefaultedProfile['pluginConfig'] = []) => {
    const r = resolveProfile(profile(plugins, pluginConfig), registry, implementsPoint);
    return r.ok ? 'ok' : r.error;
  };
  const base = { queueSort: mp('queueSortPlugin'), bind: mp('bindPlugin') };

  it("Expect 'already registered' error (MultiPoint twice, and twice at a point)", () => {
    expect(err({ multiPoint: mp('testPlugin', 'testPlugin') })).toBe('plugin "testPlugin" already registered as "PreFilterPlugin"');
    expect(err({ ...base, preFilter: mp('duplicatePluginName', 'duplicatePluginName') })).toBe('plugin "duplicatePluginName" already registered as "PreFilterPlugin"');
  });

  it('repeated config for plugin', () => {
    expect(err({ ...base, preFilter: mp('duplicatePluginName') }, [{ name: 'duplicatePluginName' }, { name: 'duplicatePluginName' }])).toBe('repeated config for plugin duplicatePluginName');
  });

  it("unknown plugins (TestInitFrameworkWithScorePlugins): named by the first point's interface", () => {
    expect(err({ ...base, score: mp('notExist') })).toBe('ScorePlugin "notExist" does not exist');
    expect(err({ ...base, multiPoint: mp('notExist') })).toBe('PreFilterPlugin "notExist" does not exist');
  });

  it("a plugin at a point it does not implement", () => {
    expect(err({ ...base, score: mp('pluginNotImplementingScore') })).toBe('plugin "pluginNotImplementingScore" does not extend ScorePlugin plugin');
    // through MultiPoint it is just not placed there
    expect(resolve({ ...base, multiPoint: mp('pluginNotImplementingScore') })).toEqual({ queueSort: ['queueSortPlugin'], bind: ['bindPlugin'], filter: ['pluginNotImplementingScore'] });
  });

  it('exactly one queue sort plugin, at least one bind plugin', () => {
    expect(err({ bind: mp('bindPlugin') })).toBe('only one queue sort plugin required for profile with scheduler name "test", but got 0');
    expect(err({ queueSort: mp('queueSortPlugin', 'testPlugin'), bind: mp('bindPlugin') })).toBe('only one queue sort plugin required for profile with scheduler name "test", but got 2');
    expect(err({ queueSort: mp('queueSortPlugin') })).toBe('at least one bind plugin is needed for profile with scheduler name "test"');
  });

  it('weights: 0 and unset mean 1; negative ones are accepted as upstream does; the int64 total must not overflow', () => {
    expect(resolve({ ...base, score: mp(['scorePlugin1', 0], 'scorePlugin2') }).score).toEqual(['scorePlugin1=1', 'scorePlugin2=1']);
    expect(resolve({ ...base, score: mp(['scorePlugin1', -3]) }).score).toEqual(['scorePlugin1=-3']);
    const big = 2147483647;
    const many = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const reg = new Map<string, PluginDefinition>([...registry, ...many.map((n): [string, PluginDefinition] => [n, { name: n, factory: () => ({ name: n }) }])]);
    const r = resolveProfile(profile({ ...base, score: mp(...many.map((n): [string, number] => [n, big])) }), reg, (n, p) => implementsPoint(n, p) || (n.startsWith('p') && p === 'score'));
    // 8 × (2^31−1) × 100 fits in an int64; the check only bites near 2^63.
    expect(r.ok).toBe(true);
    expect(err({ ...base, score: mp(['scorePlugin1', 2 ** 60], ['scorePlugin2', 1]) })).toBe('total score of Score plugins could overflow');
  });
});

describe('framework-time args validation', () => {
  it('NodeResourcesFit args are checked when the plugin is built, without a field path prefix', () => {
    const { registry: reg, implementsPoint: impl } = fakeRegistry();
    const plugins = { multiPoint: mp('PrioritySort', 'DefaultBinder', ['NodeResourcesFit', 1]) };
    const badFit = { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 101 }] } };
    const r = resolveProfile(profile(plugins, [{ name: 'NodeResourcesFit', args: badFit }]), reg, impl);
    expect(r).toEqual({ ok: false, error: 'initializing plugin "NodeResourcesFit": scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu should be in range [1, 100]' });
    // A plugin that is not enabled is not built, so its args are not looked at.
    const off = resolveProfile(profile({ multiPoint: mp('PrioritySort', 'DefaultBinder') }, [{ name: 'NodeResourcesFit', args: badFit }]), reg, impl);
    expect(off.ok).toBe(true);
    if (off.ok) expect(off.profile.args.has('NodeResourcesFit')).toBe(false);
  });

  it('args are handed out for instantiated plugins only', () => {
    const { registry: reg, implementsPoint: impl } = fakeRegistry();
    const r = resolveProfile(profile({ multiPoint: mp('PrioritySort', 'DefaultBinder', 'VolumeBinding') }, [{ name: 'VolumeBinding', args: { bindTimeoutSeconds: 5 } }, { name: 'Other', args: { x: 1 } }]), reg, impl);
    expect(r.ok && [...r.profile.args]).toEqual([['VolumeBinding', { bindTimeoutSeconds: 5 }]]);
  });
});
