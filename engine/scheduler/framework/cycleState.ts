// framework.CycleState: what one scheduling cycle's plugins share. PreFilter
// writes under a key named after the plugin; Filter and Score read it. It
// lives only for the cycle, so it is never part of a snapshot.
import type { FilterPlugin } from './interface';

export interface StateKey<T> {
  readonly name: string;
  /** Phantom: carries T. */
  readonly _t?: T;
}

export function stateKey<T>(name: string): StateKey<T> {
  return { name };
}

export class CycleState {
  private readonly data = new Map<string, unknown>();
  /** Plugins whose Filter/Score a PreFilter/PreScore Skip switched off. */
  readonly skipFilterPlugins = new Set<string>();
  readonly skipScorePlugins = new Set<string>();
  /**
   * The Filter plugins that run for this cycle (those not skipped), worked
   * out once instead of a Set lookup per plugin and node. Keyed on the
   * profile's list and on the skip set's size (PreFilter only ever adds to it).
   */
  private filtersFrom: readonly FilterPlugin[] | null = null;
  private filtersSkipSize = 0;
  private filters: readonly FilterPlugin[] = [];

  filtersToRun(all: readonly FilterPlugin[]): readonly FilterPlugin[] {
    const skip = this.skipFilterPlugins;
    if (skip.size === 0) return all;
    if (this.filtersFrom !== all || this.filtersSkipSize !== skip.size) {
      this.filters = all.filter((pl) => !skip.has(pl.name));
      this.filtersFrom = all;
      this.filtersSkipSize = skip.size;
    }
    return this.filters;
  }

  read<T>(key: StateKey<T>): T | undefined {
    return this.data.get(key.name) as T | undefined;
  }

  write<T>(key: StateKey<T>, value: T): void {
    this.data.set(key.name, value);
  }

  delete(key: StateKey<unknown>): void {
    this.data.delete(key.name);
  }

  /** CycleState.Clone: preemption evaluates "what if" on a copy. Values that are
   *  mutated in place (AddPod/RemovePod) must provide `clone()`. */
  clone(): CycleState {
    const c = new CycleState();
    for (const [k, v] of this.data) {
      const cl = (v as { clone?: () => unknown } | null)?.clone;
      c.data.set(k, typeof cl === 'function' ? cl.call(v) : v);
    }
    for (const s of this.skipFilterPlugins) c.skipFilterPlugins.add(s);
    for (const s of this.skipScorePlugins) c.skipScorePlugins.add(s);
    return c;
  }
}

import { registerClass } from '../../sim/serial';
registerClass('SchedulerCycleState', CycleState);
