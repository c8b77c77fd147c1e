// Objects shared rather than copied are frozen, so that code which tried to
// change one throws instead of corrupting its other readers: the API server's
// watch-cache objects (an update starts from the cached object as
// GuaranteedUpdate's cachedExistingObject), and the decoded watch events the
// components' reflectors share (client/reflector.ts).
//
// Freezing is a check, not a behaviour: a correct engine runs the same with or
// without it, and it costs a third of a JSON.parse of what it freezes. So it is
// on where bugs are hunted (the unit, property and fault-injection tests turn it
// on in vitest.setup.ts) and off in the playground and the benchmarks, as
// Immer's auto-freeze and React's frozen props are development-only.

let checking = false;

/** Turns the read-only checks on or off (process-wide; tests turn them on). */
export function setReadonlyChecks(on: boolean): void {
  checking = on;
}

export function readonlyChecks(): boolean {
  return checking;
}

/**
 * Freezes a plain JSON value in place, deeply (once: a frozen root is taken as
 * done), when the read-only checks are on; else returns it untouched.
 */
export function deepFreeze<T>(v: T): T {
  if (!checking || typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  freezeTree(v as object);
  return v;
}

function freezeTree(o: object): void {
  Object.freeze(o);
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) {
      const x: unknown = o[i];
      if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) freezeTree(x);
    }
    return;
  }
  for (const k in o) {
    const x = (o as Record<string, unknown>)[k];
    if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) freezeTree(x);
  }
}
