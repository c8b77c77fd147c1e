// A revision is (main, sub): main is the store revision of a write txn, sub
// the position of the change inside it (server/mvcc/revision.go). We pack the
// pair into one number, main * SubSpan + sub, which keeps order, compares with
// `<` and costs no allocation. Mains stay below 2^33 and subs below 2^20.

export const SubSpan = 1048576; // 2^20 changes per txn
export type Rev = number;

export function packRev(main: number, sub = 0): Rev {
  if (sub >= SubSpan) throw new Error(`mvcc: txn has more than ${SubSpan} changes`);
  return main * SubSpan + sub;
}

export function revMain(r: Rev): number {
  return Math.floor(r / SubSpan);
}

export function revSub(r: Rev): number {
  return r % SubSpan;
}
