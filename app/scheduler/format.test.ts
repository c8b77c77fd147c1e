import { describe, expect, it } from 'vitest';
import type { QueueEntry } from '../../engine/host/protocol';
import { backoffLeft, clockOf, formatDuration, outcomeLook, parkedBy } from './format';

const entry = (over: Partial<QueueEntry> = {}): QueueEntry => ({
  pod: 'default/big',
  priority: 0,
  attempts: 2,
  timestamp: 1000,
  unschedulablePlugins: ['NodeResourcesFit', 'TaintToleration'],
  pendingPlugins: [],
  enqueuedAt: 1000,
  ...over,
});

describe('queue words', () => {
  it('counts back-off down in virtual time', () => {
    expect(backoffLeft(entry({ backoffExpiresAt: 3000 }), 1800)).toBe('back-off 1.2 s left');
    expect(backoffLeft(entry({ backoffExpiresAt: 3000 }), 3000)).toBe('back-off over');
    expect(backoffLeft(entry(), 3000)).toBe('');
  });

  it('names the plugins that parked a pod, pending ones marked', () => {
    expect(parkedBy(entry())).toBe('NodeResourcesFit, TaintToleration');
    expect(parkedBy(entry({ unschedulablePlugins: [], pendingPlugins: ['VolumeBinding'] }))).toBe('VolumeBinding (pending)');
  });

  it('formats durations and clock times', () => {
    expect(formatDuration(400)).toBe('0.4 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(125_000)).toBe('2m 05s');
    expect(clockOf('2025-01-01T00:00:03.210000Z')).toBe('00:00:03.210');
    expect(clockOf('soon')).toBe('soon');
  });

  it('gives every outcome an icon and words, not only a colour', () => {
    for (const o of ['Scheduled', 'Binding', 'Unschedulable', 'BindingFailed', 'Error']) {
      const l = outcomeLook(o);
      expect(l.icon).not.toBe('');
      expect(l.label.length).toBeGreaterThan(3);
    }
  });
});
