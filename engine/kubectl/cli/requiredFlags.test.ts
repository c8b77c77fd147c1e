import { describe, expect, it } from 'vitest';
import { checkRequiredFlags } from './requiredFlags';
import { KubectlFailure } from '../client/errors';
import type { ParsedFlags } from './flags';

const flags = (changed: string[]) => ({ changed: new Set(changed) }) as unknown as ParsedFlags;

describe('cobra required flags', () => {
  it('lists every missing one, sorted', () => {
    let caught: unknown;
    try {
      checkRequiredFlags(flags([]), ['schedule', 'image']);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(KubectlFailure);
    expect((caught as KubectlFailure).err).toEqual({ type: 'Error', message: 'required flag(s) "image", "schedule" not set' });
  });

  it('passes when they were given', () => {
    expect(() => checkRequiredFlags(flags(['image']), ['image'])).not.toThrow();
  });
});
