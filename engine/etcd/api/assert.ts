// Closes switches over discriminated unions: a new member becomes a compile error.
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
