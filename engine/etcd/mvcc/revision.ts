// A revision is (main, sub): main is the store revision of a write txn, sub
// the position of the change inside it (server/mvcc/revision.go). We pack the
// pair into one number, main + sub / SubSpan, which keeps order, compares with
// `<` and costs no allocation. Mains stay below 2^33 and subs below 2^20, so
// the sum is exact in a double (53 bits).
//
// The sub goes in the fraction, not main * SubSpan + sub: the first change of
// a txn (every put, the common case) is then the integer main, which V8 keeps
// as a small integer (Smi) up to 2^30 revisions. main * 2^20 left the Smi range
// at revision 1,024: from there every revision was a boxed heap number, and the
// optimized code that had only seen small integers (the store's put, the key
// index) was thrown away and compiled again a few seconds into any load.

export const SubSpan = 1048576; // 2^20 changes per txn
export type Rev = number;

export function packRev(main: number, sub = 0): Rev {
  if (sub >= SubSpan) throw new Error(`mvcc: txn has more than ${SubSpan} changes`);
  return sub === 0 ? main : main + sub / SubSpan;
}

export function revMain(r: Rev): number {
  return Math.floor(r);
}

export function revSub(r: Rev): number {
  return (r - Math.floor(r)) * SubSpan;
}
