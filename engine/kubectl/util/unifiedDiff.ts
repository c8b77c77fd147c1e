// `diff -u` of two texts, as GNU diff prints it (what kubectl diff runs), and
// with GNU diff's choices where several minimal diffs exist (diffutils
// src/analyze.c, io.c and gnulib's diffseq.h, in our words): the identical
// ends beyond the context are left out, lines with no match in the other file
// are set aside as changes, the rest is compared by the middle-snake search
// (minimal at these sizes), and runs of changes are then slid to join others.
// Hunks have 3 lines of context and merge when fewer than 7 lines part them.

const CONTEXT = 3;

function lines(text: string): string[] {
  if (text === '') return [];
  const xs = text.split('\n');
  if (xs[xs.length - 1] === '') xs.pop();
  return xs;
}

/** compareseq over x[xoff, xlim) and y[yoff, ylim): marks what is deleted from x and inserted into y. */
function compareseq(x: number[], y: number[], xoff: number, xlim: number, yoff: number, ylim: number, dx: boolean[], dy: boolean[], fd: Int32Array, bd: Int32Array, off: number): void {
  while (xoff < xlim && yoff < ylim && x[xoff] === y[yoff]) xoff++, yoff++;
  while (xoff < xlim && yoff < ylim && x[xlim - 1] === y[ylim - 1]) xlim--, ylim--;
  if (xoff === xlim) {
    for (; yoff < ylim; yoff++) dy[yoff] = true;
    return;
  }
  if (yoff === ylim) {
    for (; xoff < xlim; xoff++) dx[xoff] = true;
    return;
  }
  // The midpoint of a shortest edit script: forward and backward searches by diagonal until they meet.
  const dmin = xoff - ylim;
  const dmax = xlim - yoff;
  const fmid = xoff - yoff;
  const bmid = xlim - ylim;
  let fmin = fmid;
  let fmax = fmid;
  let bmin = bmid;
  let bmax = bmid;
  const odd = ((fmid - bmid) & 1) !== 0;
  fd[off + fmid] = xoff;
  bd[off + bmid] = xlim;
  let xmid = 0;
  let ymid = 0;
  search: for (;;) {
    if (fmin > dmin) fd[off + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) fd[off + ++fmax + 1] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      const tlo = fd[off + d - 1]!;
      const thi = fd[off + d + 1]!;
      let px = tlo < thi ? thi : tlo + 1;
      let py = px - d;
      while (px < xlim && py < ylim && x[px] === y[py]) px++, py++;
      fd[off + d] = px;
      if (odd && bmin <= d && d <= bmax && bd[off + d]! <= px) {
        xmid = px;
        ymid = py;
        break search;
      }
    }
    if (bmin > dmin) bd[off + --bmin - 1] = 0x7fffffff;
    else ++bmin;
    if (bmax < dmax) bd[off + ++bmax + 1] = 0x7fffffff;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      const tlo = bd[off + d - 1]!;
      const thi = bd[off + d + 1]!;
      let px = tlo < thi ? tlo : thi - 1;
      let py = px - d;
      while (xoff < px && yoff < py && x[px - 1] === y[py - 1]) px--, py--;
      bd[off + d] = px;
      if (!odd && fmin <= d && d <= fmax && px <= fd[off + d]!) {
        xmid = px;
        ymid = py;
        break search;
      }
    }
  }
  compareseq(x, y, xoff, xmid, yoff, ymid, dx, dy, fd, bd, off);
  compareseq(x, y, xmid, xlim, ymid, ylim, dx, dy, fd, bd, off);
}

const floorLog2 = (n: number) => 31 - Math.clz32(n);

/** discard_confusing_lines: 1 = matches nothing in the other file (a change for sure), 0 = compared. */
function discards(eq: number[], otherCount: Map<number, number>): Uint8Array {
  const end = eq.length;
  const out = new Uint8Array(end);
  const many = 5 << (end < 64 ? 0 : (floorLog2(end) >> 1) - 3);
  for (let i = 0; i < end; i++) {
    const n = otherCount.get(eq[i]!) ?? 0;
    if (n === 0) out[i] = 1;
    else if (n > many) out[i] = 2;
  }
  for (let i = 0; i < end; i++) {
    if (out[i] === 2) {
      out[i] = 0;
      continue;
    }
    if (out[i] === 0) continue;
    // A run of discardables from a sure one: provisional ones stand only inside it.
    let provisional = 0;
    let j = i;
    for (; j < end && out[j] !== 0; j++) if (out[j] === 2) provisional++;
    while (j > i && out[j - 1] === 2) out[--j] = 0, provisional--;
    const length = j - i;
    if (length >> 2 < provisional) {
      while (j > i) if (out[--j] === 2) out[j] = 0;
    } else {
      const minimum = length < 4 ? 2 : (1 << ((floorLog2(length) >> 1) - 1)) + 1;
      let consec = 0;
      for (j = 0; j < length; j++) {
        if (out[i + j] !== 2) consec = 0;
        else if (minimum === ++consec) j -= consec;
        else if (minimum < consec) out[i + j] = 0;
      }
      consec = 0;
      for (j = 0; j < length; j++) {
        if (j >= 8 && out[i + j] === 1) break;
        if (out[i + j] === 2) (consec = 0), (out[i + j] = 0);
        else if (out[i + j] === 0) consec = 0;
        else consec++;
        if (consec === 3) break;
      }
      i += length - 1;
      consec = 0;
      for (j = 0; j < length; j++) {
        if (j >= 8 && out[i - j] === 1) break;
        if (out[i - j] === 2) (consec = 0), (out[i - j] = 0);
        else if (out[i - j] === 0) consec = 0;
        else consec++;
        if (consec === 3) break;
      }
    }
  }
  return out;
}

/** shift_boundaries: slide each run of changes over identical lines to join its neighbours (flags have a false sentinel at each end). */
function shiftBoundaries(eqs: [number[], number[]], changed: [boolean[], boolean[]]): void {
  for (let f = 0; f < 2; f++) {
    const ch = changed[f]!;
    const other = changed[1 - f]!;
    const eq = eqs[f]!;
    // Flags are offset by one: ch[k + 1] is line k.
    const c = (k: number) => ch[k + 1]!;
    const set = (k: number, v: boolean) => (ch[k + 1] = v);
    const o = (k: number) => other[k + 1]!;
    const iEnd = eq.length;
    let i = 0;
    let j = 0;
    for (;;) {
      while (i < iEnd && !c(i)) {
        while (o(j++));
        i++;
      }
      if (i === iEnd) break;
      let start = i;
      while (c(++i));
      while (o(j)) j++;
      let runlength: number;
      let corresponding: number;
      do {
        runlength = i - start;
        while (start && eq[start - 1] === eq[i - 1]) {
          set(--start, true);
          set(--i, false);
          while (c(start - 1)) start--;
          while (o(--j));
        }
        corresponding = o(j - 1) ? i : iEnd;
        while (i !== iEnd && eq[start] === eq[i]) {
          set(start++, false);
          set(i++, true);
          while (c(i)) i++;
          while (o(++j)) corresponding = i;
        }
      } while (runlength !== i - start);
      while (corresponding < i) {
        set(--start, true);
        set(--i, false);
        while (o(--j));
      }
    }
  }
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** The edit script GNU diff would print, as context, deleted and inserted lines in order. */
function editScript(a: string[], b: string[]): Op[] {
  // The identical ends, less the context kept beside the changes, are not analysed (find_identical_ends).
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const lo = Math.max(0, prefix - CONTEXT);
  const skipEnd = Math.max(0, suffix - CONTEXT);
  const ra = a.slice(lo, a.length - skipEnd);
  const rb = b.slice(lo, b.length - skipEnd);
  // Equivalence classes of lines.
  const classes = new Map<string, number>();
  const cls = (s: string) => {
    let k = classes.get(s);
    if (k === undefined) classes.set(s, (k = classes.size + 1));
    return k;
  };
  const ea = ra.map(cls);
  const eb = rb.map(cls);
  const count = (xs: number[]) => {
    const m = new Map<number, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
    return m;
  };
  const da = discards(ea, count(eb));
  const db = discards(eb, count(ea));
  const ca = new Array<boolean>(ea.length + 2).fill(false);
  const cb = new Array<boolean>(eb.length + 2).fill(false);
  const keptA: number[] = [];
  const realA: number[] = [];
  ea.forEach((e, k) => (da[k] ? (ca[k + 1] = true) : (keptA.push(e), realA.push(k))));
  const keptB: number[] = [];
  const realB: number[] = [];
  eb.forEach((e, k) => (db[k] ? (cb[k + 1] = true) : (keptB.push(e), realB.push(k))));
  const dx = new Array<boolean>(keptA.length).fill(false);
  const dy = new Array<boolean>(keptB.length).fill(false);
  const diags = keptA.length + keptB.length + 3;
  const fd = new Int32Array(diags + 2);
  const bd = new Int32Array(diags + 2);
  compareseq(keptA, keptB, 0, keptA.length, 0, keptB.length, dx, dy, fd, bd, keptB.length + 1);
  dx.forEach((v, k) => v && (ca[realA[k]! + 1] = true));
  dy.forEach((v, k) => v && (cb[realB[k]! + 1] = true));
  shiftBoundaries([ea, eb], [ca, cb]);
  // build_script, walked forward, with the skipped ends as context.
  const ops: Op[] = [];
  for (let k = 0; k < lo; k++) ops.push({ kind: ' ', line: a[k]! });
  let i = 0;
  let j = 0;
  while (i < ea.length || j < eb.length) {
    if (ca[i + 1] || cb[j + 1]) {
      while (ca[i + 1]) ops.push({ kind: '-', line: ra[i++]! });
      while (cb[j + 1]) ops.push({ kind: '+', line: rb[j++]! });
      continue;
    }
    ops.push({ kind: ' ', line: ra[i]! });
    i++;
    j++;
  }
  for (let k = a.length - skipEnd; k < a.length; k++) ops.push({ kind: ' ', line: a[k]! });
  return ops;
}

const range = (start: number, count: number) => (count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`);

/** The unified diff body (hunks only); empty when the texts are the same. */
export function unifiedHunks(before: string, after: string): string {
  const ops = editScript(lines(before), lines(after));
  const changed = ops.map((o, k) => (o.kind !== ' ' ? k : -1)).filter((k) => k >= 0);
  if (changed.length === 0) return '';
  let out = '';
  let k = 0;
  while (k < changed.length) {
    // A hunk: from the first change's context to the last change whose context touches the next.
    let end = k;
    while (end + 1 < changed.length && changed[end + 1]! - changed[end]! <= 2 * CONTEXT + 1) end++;
    const from = Math.max(0, changed[k]! - CONTEXT);
    const to = Math.min(ops.length - 1, changed[end]! + CONTEXT);
    let aStart = 1;
    let bStart = 1;
    for (let x = 0; x < from; x++) {
      if (ops[x]!.kind !== '+') aStart++;
      if (ops[x]!.kind !== '-') bStart++;
    }
    let aCount = 0;
    let bCount = 0;
    let body = '';
    for (let x = from; x <= to; x++) {
      const o = ops[x]!;
      if (o.kind !== '+') aCount++;
      if (o.kind !== '-') bCount++;
      body += `${o.kind}${o.line}\n`;
    }
    out += `@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@\n${body}`;
    k = end + 1;
  }
  return out;
}
