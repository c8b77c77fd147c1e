// A parser for the small POSIX sh subset container commands are written in
// (`sh -c "..."` in pod specs, `kubectl exec -- sh -c ...`, exec probes):
// lists with ; && || & and newlines, pipelines, redirections (> >> 2>&1
// 2>/dev/null), quoting ('…', "…", \), parameter expansion ($X, ${X},
// ${X:-d}), arithmetic $((…)), command substitution $(…) and `…`,
// assignments, while/until, for, if/elif/else, { … } and ( … ). The AST is
// plain data, so interpreter state that points into it snapshots cleanly.

export type WordPart =
  | { t: 'lit'; v: string; quoted: boolean }
  | { t: 'var'; name: string; quoted: boolean; fallback?: Word; op?: ':-' | '-' | ':=' | '=' | '#' }
  | { t: 'arith'; expr: string; quoted: boolean }
  | { t: 'sub'; list: List; quoted: boolean };

export type Word = WordPart[];

export interface Redirect {
  /** 1 stdout, 2 stderr. */
  fd: number;
  op: '>' | '>>' | '<' | 'dup';
  target: Word;
  /** For `2>&1`: the descriptor duplicated. */
  dupTo?: number;
}

export type Cmd =
  | { t: 'simple'; assigns: [string, Word][]; words: Word[]; redirs: Redirect[] }
  | { t: 'while'; until: boolean; cond: List; body: List; redirs: Redirect[] }
  | { t: 'for'; name: string; items: Word[] | null; body: List; redirs: Redirect[] }
  | { t: 'if'; clauses: { cond: List; body: List }[]; orElse: List | null; redirs: Redirect[] }
  | { t: 'group'; list: List; subshell: boolean; redirs: Redirect[] }
  | { t: 'pipe'; cmds: Cmd[]; negate: boolean };

export interface ListItem {
  cmd: Cmd;
  /** How it joins the next item: `;` (or newline), `&&`, `||`, `&` (background). */
  op: ';' | '&&' | '||' | '&';
}

export interface List {
  items: ListItem[];
}

export class ShellSyntaxError extends Error {}

type Tok = { k: 'word'; w: Word; raw: string } | { k: 'op'; v: string } | { k: 'nl' } | { k: 'eof' };

const RESERVED = new Set(['while', 'until', 'for', 'do', 'done', 'if', 'then', 'elif', 'else', 'fi', 'in', '{', '}', '!']);

/** Splits the script into words and operators. */
function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = src.length;
  const isBlank = (c: string) => c === ' ' || c === '\t';
  while (i < n) {
    const c = src[i]!;
    if (isBlank(c)) {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '#') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      out.push({ k: 'nl' });
      i++;
      continue;
    }
    const three = src.slice(i, i + 3);
    const two = src.slice(i, i + 2);
    if (/^[0-9]>&$/.test(three) || /^[0-9]>>$/.test(three)) {
      out.push({ k: 'op', v: three });
      i += 3;
      continue;
    }
    if (/^[0-9]>$/.test(two) || /^[0-9]<$/.test(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if (['&&', '||', ';;', '>>', '>&'].includes(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if ('|&;()<>'.includes(c)) {
      out.push({ k: 'op', v: c });
      i++;
      continue;
    }
    const start = i;
    const { word, end } = readWord(src, i);
    i = end;
    out.push({ k: 'word', w: word, raw: src.slice(start, end) });
  }
  out.push({ k: 'eof' });
  return out;
}

/** Reads one word starting at `i` (stops at blanks and operators outside quotes). */
function readWord(src: string, i: number): { word: Word; end: number } {
  const parts: Word = [];
  let lit = '';
  const flush = (quoted: boolean) => {
    if (lit) parts.push({ t: 'lit', v: lit, quoted });
    lit = '';
  };
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || '|&;()<>'.includes(c)) break;
    if (c === '\\') {
      lit += src[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (c === "'") {
      flush(false);
      const close = src.indexOf("'", i + 1);
      if (close < 0) throw new ShellSyntaxError('Syntax error: Unterminated quoted string');
      parts.push({ t: 'lit', v: src.slice(i + 1, close), quoted: true });
      i = close + 1;
      continue;
    }
    if (c === '"') {
      flush(false);
      i++;
      let q = '';
      while (i < n && src[i] !== '"') {
        const d = src[i]!;
        if (d === '\\' && '"\\$`\n'.includes(src[i + 1] ?? '')) {
          q += src[i + 1];
          i += 2;
          continue;
        }
        if (d === '$' || d === '`') {
          if (q) parts.push({ t: 'lit', v: q, quoted: true });
          q = '';
          const r = readDollar(src, i, true);
          parts.push(r.part);
          i = r.end;
          continue;
        }
        q += d;
        i++;
      }
      if (i >= n) throw new ShellSyntaxError('Syntax error: Unterminated quoted string');
      parts.push({ t: 'lit', v: q, quoted: true });
      i++;
      continue;
    }
    if (c === '$' || c === '`') {
      const r = readDollar(src, i, false);
      if (r.part.t === 'lit') lit += r.part.v;
      else {
        flush(false);
        parts.push(r.part);
      }
      i = r.end;
      continue;
    }
    lit += c;
    i++;
  }
  flush(false);
  return { word: parts, end: i };
}

/** Finds the index just past the `)` closing a `(` at depth 1, skipping quotes. */
function matchParen(src: string, i: number): number {
  let depth = 1;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "'") {
      const close = src.indexOf("'", i + 1);
      i = close < 0 ? src.length : close + 1;
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '(') depth++;
    if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  throw new ShellSyntaxError('Syntax error: end of file unexpected (expecting ")")');
}

function readDollar(src: string, i: number, quoted: boolean): { part: WordPart; end: number } {
  if (src[i] === '`') {
    const close = src.indexOf('`', i + 1);
    if (close < 0) throw new ShellSyntaxError('Syntax error: EOF in backquote substitution');
    return { part: { t: 'sub', list: parseList(src.slice(i + 1, close)), quoted }, end: close + 1 };
  }
  const next = src[i + 1];
  if (src.startsWith('$((', i)) {
    const end = matchParen(src, i + 3);
    // end is past the inner `)`; the outer one follows.
    return { part: { t: 'arith', expr: src.slice(i + 3, end - 1), quoted }, end: end + 1 };
  }
  if (next === '(') {
    const end = matchParen(src, i + 2);
    return { part: { t: 'sub', list: parseList(src.slice(i + 2, end - 1)), quoted }, end };
  }
  if (next === '{') {
    const close = src.indexOf('}', i + 2);
    if (close < 0) throw new ShellSyntaxError('Syntax error: Missing }');
    const body = src.slice(i + 2, close);
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9#?$!@*])(?:(:-|-|:=|=)(.*))?$/s.exec(body);
    if (!m) throw new ShellSyntaxError(`Syntax error: Bad substitution`);
    const part: WordPart = { t: 'var', name: m[1]!, quoted };
    if (m[2]) {
      part.op = m[2] as ':-';
      part.fallback = readWord(m[3]!, 0).word;
    }
    return { part, end: close + 1 };
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9#?$!@*])/.exec(src.slice(i + 1));
  if (!m) return { part: { t: 'lit', v: '$', quoted }, end: i + 1 };
  return { part: { t: 'var', name: m[1]!, quoted }, end: i + 1 + m[1]!.length };
}

/** The unexpanded text of a literal-only word (for reserved words and names). */
function plain(w: Word): string | null {
  let s = '';
  for (const p of w) {
    if (p.t !== 'lit' || p.quoted) return null;
    s += p.v;
  }
  return s;
}

class Parser {
  private pos = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.pos]!;
  }

  private next(): Tok {
    return this.toks[this.pos++]!;
  }

  private isWord(tok: Tok, v: string): boolean {
    return tok.k === 'word' && plain(tok.w) === v;
  }

  /** Anything left (a stray `)`, `done`, `fi`) is an error. */
  end(): void {
    this.skipNewlines();
    const t = this.peek();
    if (t.k !== 'eof') throw new ShellSyntaxError(`Syntax error: ${describe(t)} unexpected`);
  }

  private skipNewlines(): void {
    while (this.peek().k === 'nl') this.pos++;
  }

  private expectWord(v: string): void {
    this.skipNewlines();
    const t = this.next();
    if (!this.isWord(t, v)) throw new ShellSyntaxError(`Syntax error: ${describe(t)} unexpected (expecting "${v}")`);
  }

  /** A list until one of the `stops` reserved words (or EOF / `)`). */
  list(stops: string[]): List {
    const items: ListItem[] = [];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (t.k === 'eof' || (t.k === 'op' && t.v === ')') || (t.k === 'word' && stops.includes(plain(t.w) ?? '\u0000'))) break;
      const cmd = this.pipeline();
      const sep = this.peek();
      let op: ListItem['op'] = ';';
      if (sep.k === 'op' && (sep.v === ';' || sep.v === '&&' || sep.v === '||' || sep.v === '&')) {
        op = sep.v as ListItem['op'];
        this.pos++;
      } else if (sep.k === 'nl') this.pos++;
      else if (!(sep.k === 'eof' || (sep.k === 'op' && sep.v === ')') || (sep.k === 'word' && stops.includes(plain(sep.w) ?? '\u0000'))))
        throw new ShellSyntaxError(`Syntax error: ${describe(sep)} unexpected`);
      items.push({ cmd, op });
      if (op === '&&' || op === '||') this.skipNewlines();
    }
    return { items };
  }

  private pipeline(): Cmd {
    let negate = false;
    if (this.isWord(this.peek(), '!')) {
      negate = true;
      this.pos++;
    }
    const cmds = [this.command()];
    while (this.peek().k === 'op' && (this.peek() as { v: string }).v === '|') {
      this.pos++;
      this.skipNewlines();
      cmds.push(this.command());
    }
    return cmds.length === 1 && !negate ? cmds[0]! : { t: 'pipe', cmds, negate };
  }

  private redirs(): Redirect[] {
    const out: Redirect[] = [];
    for (;;) {
      const t = this.peek();
      if (t.k !== 'op') return out;
      const m = /^([0-9]?)(>>|>&|>|<)$/.exec(t.v);
      if (!m) return out;
      this.pos++;
      const fd = m[1] ? Number(m[1]) : m[2] === '<' ? 0 : 1;
      const target = this.next();
      if (target.k !== 'word') throw new ShellSyntaxError(`Syntax error: ${describe(target)} unexpected`);
      if (m[2] === '>&') {
        out.push({ fd, op: 'dup', target: target.w, dupTo: Number(plain(target.w) ?? '1') });
        continue;
      }
      out.push({ fd, op: m[2] as '>' | '>>' | '<', target: target.w });
    }
  }

  private command(): Cmd {
    const t = this.peek();
    if (t.k === 'op' && t.v === '(') {
      this.pos++;
      const list = this.list([]);
      const close = this.next();
      if (close.k !== 'op' || close.v !== ')') throw new ShellSyntaxError(`Syntax error: ${describe(close)} unexpected (expecting ")")`);
      return { t: 'group', list, subshell: true, redirs: this.redirs() };
    }
    const kw = t.k === 'word' ? plain(t.w) : null;
    if (kw === 'while' || kw === 'until') {
      this.pos++;
      const cond = this.list(['do']);
      this.expectWord('do');
      const body = this.list(['done']);
      this.expectWord('done');
      return { t: 'while', until: kw === 'until', cond, body, redirs: this.redirs() };
    }
    if (kw === 'for') {
      this.pos++;
      const nameTok = this.next();
      const name = nameTok.k === 'word' ? plain(nameTok.w) : null;
      if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ShellSyntaxError(`Syntax error: Bad for loop variable`);
      let items: Word[] | null = null;
      this.skipNewlines();
      if (this.isWord(this.peek(), 'in')) {
        this.pos++;
        items = [];
        while (this.peek().k === 'word' && !this.isWord(this.peek(), 'do')) items.push((this.next() as { w: Word }).w);
        const sep = this.peek();
        if (sep.k === 'op' && sep.v === ';') this.pos++;
      } else if (this.peek().k === 'op' && (this.peek() as { v: string }).v === ';') this.pos++;
      this.expectWord('do');
      const body = this.list(['done']);
      this.expectWord('done');
      return { t: 'for', name, items, body, redirs: this.redirs() };
    }
    if (kw === 'if') {
      this.pos++;
      const clauses: { cond: List; body: List }[] = [];
      let orElse: List | null = null;
      const cond = this.list(['then']);
      this.expectWord('then');
      clauses.push({ cond, body: this.list(['elif', 'else', 'fi']) });
      for (;;) {
        this.skipNewlines();
        const k = this.next();
        const v = k.k === 'word' ? plain(k.w) : null;
        if (v === 'fi') break;
        if (v === 'elif') {
          const c = this.list(['then']);
          this.expectWord('then');
          clauses.push({ cond: c, body: this.list(['elif', 'else', 'fi']) });
          continue;
        }
        if (v === 'else') {
          orElse = this.list(['fi']);
          this.expectWord('fi');
          break;
        }
        throw new ShellSyntaxError(`Syntax error: ${describe(k)} unexpected (expecting "fi")`);
      }
      return { t: 'if', clauses, orElse, redirs: this.redirs() };
    }
    if (kw === '{') {
      this.pos++;
      const list = this.list(['}']);
      this.expectWord('}');
      return { t: 'group', list, subshell: false, redirs: this.redirs() };
    }
    if (kw && RESERVED.has(kw) && kw !== '!') throw new ShellSyntaxError(`Syntax error: "${kw}" unexpected`);
    // A simple command: assignments, words and redirections in any order.
    const assigns: [string, Word][] = [];
    const words: Word[] = [];
    const redirs: Redirect[] = [];
    for (;;) {
      const tok = this.peek();
      if (tok.k === 'word') {
        const eq = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(tok.raw);
        if (words.length === 0 && eq) {
          this.pos++;
          // The value is the word minus its `NAME=` prefix (which is always a plain literal).
          const w = structuredCloneWord(tok.w);
          stripPrefix(w, eq[0].length);
          assigns.push([eq[1]!, w]);
          continue;
        }
        this.pos++;
        words.push(tok.w);
        continue;
      }
      if (tok.k === 'op' && /^([0-9]?)(>>|>&|>|<)$/.test(tok.v)) {
        redirs.push(...this.redirs());
        continue;
      }
      break;
    }
    if (assigns.length === 0 && words.length === 0 && redirs.length === 0) throw new ShellSyntaxError(`Syntax error: ${describe(this.peek())} unexpected`);
    return { t: 'simple', assigns, words, redirs };
  }
}

function structuredCloneWord(w: Word): Word {
  return w.map((p) => ({ ...p }));
}

/** Drops the first `n` characters (all in leading unquoted literals) of a word. */
function stripPrefix(w: Word, n: number): void {
  while (n > 0 && w.length > 0) {
    const p = w[0]!;
    if (p.t !== 'lit') return;
    if (p.v.length <= n) {
      n -= p.v.length;
      w.shift();
    } else {
      w[0] = { ...p, v: p.v.slice(n) };
      n = 0;
    }
  }
}

function describe(t: Tok): string {
  if (t.k === 'eof') return 'end of file';
  if (t.k === 'nl') return 'newline';
  if (t.k === 'op') return `"${t.v}"`;
  return `"${t.raw}"`;
}

/** Parses a nested script (inside $(…) or `…`). */
function parseList(src: string): List {
  return parseScript(src);
}

/** Parses a whole script. Throws ShellSyntaxError with sh's message. */
export function parseScript(src: string): List {
  const p = new Parser(tokenize(src));
  const list = p.list([]);
  p.end();
  return list;
}
