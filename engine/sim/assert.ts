/** Closes a switch over a discriminated union: a new member becomes a type error. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
