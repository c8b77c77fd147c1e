import { describe, expect, it } from 'vitest';
import { lintSource } from './lint';

const rules = (file: string, text: string) => lintSource(file, text).map((f) => `${f.line}:${f.message.split(' ')[0]}`);

describe('lint: determinism in engine/', () => {
  it('flags wall clocks, unseeded randomness and real timers', () => {
    const src = [
      'const a = Date.now();',
      'const b = new Date();',
      'const c = Math.random();',
      'setTimeout(() => 1, 5);',
      'const d = setInterval;',
      'const e = performance.now();',
    ].join('\n');
    expect(rules('engine/x.ts', src)).toEqual(['1:Date.now', '2:new', '3:Math.random', '4:setTimeout', '5:setInterval', '6:performance.now']);
  });
  it('allows new Date(ms), ctx.setTimer and names that merely contain banned words', () => {
    const src = 'const a = new Date(5); ctx.setTimer(1, "x"); const o = { setTimeout: 1 }; o.setTimeout;';
    expect(rules('engine/x.ts', src)).toEqual([]);
  });
  it('exempts hosts and code outside engine/', () => {
    expect(rules('engine/host/worker.ts', 'Date.now()')).toEqual([]);
    expect(rules('app/x.ts', 'Math.random()')).toEqual([]);
  });
  it('forbids engine/ importing app/ or Node modules', () => {
    expect(rules('engine/a/b.ts', "import x from '../../app/store';\nimport fs from 'node:fs';")).toEqual(['1:engine/', '2:engine/']);
    expect(rules('engine/facade/engine.ts', "import { m } from '../etcd/server/member';")).toEqual([]);
  });
});
