// A subset of Go's text/template, enough for `kubectl -o go-template=...`
// (cli-runtime printers/template.go adds base64encode/base64decode): field
// chains, variables, pipelines, if/else, range/else, with/else, and the
// builtins index, len, printf, print, println, eq/ne/lt/le/gt/ge, and/or/not.
import { goFmtV, goQuoteString } from './goJson';

export class TemplateError extends Error {}

type V = unknown;

type Node =
  | { type: 'text'; text: string }
  | { type: 'action'; pipe: Pipe }
  | { type: 'if' | 'with'; pipe: Pipe; then: Node[]; else: Node[] }
  | { type: 'range'; pipe: Pipe; vars: string[]; body: Node[]; else: Node[] };

interface Pipe {
  decl: string[];
  cmds: Arg[][];
}

type Arg =
  | { t: 'field'; base: 'dot' | string; path: string[] }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'nil' }
  | { t: 'ident'; name: string }
  | { t: 'sub'; pipe: Pipe };

// ---------- lexing actions

function tokenizeAction(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += c === '"' && src[j] === '\\' ? 2 : 1;
      out.push(src.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (c === '(' || c === ')' || c === '|' || c === ',') {
      out.push(c);
      i++;
      continue;
    }
    if (src.startsWith(':=', i) || (c === '=' && src[i + 1] !== '=')) {
      out.push(c === ':' ? ':=' : '=');
      i += c === ':' ? 2 : 1;
      continue;
    }
    let j = i;
    while (j < src.length && !/[\s()|,]/.test(src[j]!) && !src.startsWith(':=', j)) j++;
    out.push(src.slice(i, j));
    i = j;
  }
  return out;
}

function parseArgToken(tok: string): Arg {
  if (tok.startsWith('"')) return { t: 'str', v: JSON.parse(tok) as string };
  if (tok.startsWith('`')) return { t: 'str', v: tok.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(tok)) return { t: 'num', v: Number(tok) };
  if (tok === 'true' || tok === 'false') return { t: 'bool', v: tok === 'true' };
  if (tok === 'nil') return { t: 'nil' };
  if (tok === '.') return { t: 'field', base: 'dot', path: [] };
  if (tok.startsWith('.')) return { t: 'field', base: 'dot', path: tok.slice(1).split('.') };
  if (tok.startsWith('$')) {
    const [v, ...rest] = tok.split('.');
    return { t: 'field', base: v!, path: rest };
  }
  return { t: 'ident', name: tok };
}

function parsePipe(tokens: string[]): Pipe {
  const decl: string[] = [];
  let toks = tokens;
  const assign = toks.findIndex((t) => t === ':=' || t === '=');
  if (assign > 0 && toks.slice(0, assign).every((t) => t.startsWith('$') || t === ',')) {
    decl.push(...toks.slice(0, assign).filter((t) => t !== ','));
    toks = toks.slice(assign + 1);
  }
  const cmds: Arg[][] = [];
  let cur: Arg[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t === '|') {
      cmds.push(cur);
      cur = [];
    } else if (t === '(') {
      let depth = 1;
      let j = i + 1;
      for (; j < toks.length && depth > 0; j++) {
        if (toks[j] === '(') depth++;
        if (toks[j] === ')') depth--;
      }
      cur.push({ t: 'sub', pipe: parsePipe(toks.slice(i + 1, j - 1)) });
      i = j - 1;
    } else cur.push(parseArgToken(t));
  }
  cmds.push(cur);
  return { decl, cmds };
}

// ---------- parsing the template

interface Raw {
  kind: 'text' | 'action';
  text: string;
}

function split(src: string): Raw[] {
  const out: Raw[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    if (open < 0) {
      out.push({ kind: 'text', text: src.slice(i) });
      break;
    }
    let text = src.slice(i, open);
    let start = open + 2;
    if (src[start] === '-' && /\s/.test(src[start + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      start += 2;
    }
    if (text) out.push({ kind: 'text', text });
    const close = src.indexOf('}}', start);
    if (close < 0) throw new TemplateError('unclosed action');
    let body = src.slice(start, close);
    let next = close + 2;
    if (/\s-$/.test(body)) {
      body = body.slice(0, -2);
      while (next < src.length && /\s/.test(src[next]!)) next++;
    }
    out.push({ kind: 'action', text: body.trim() });
    i = next;
  }
  return out;
}

function parseNodes(raws: Raw[], pos: { i: number }, stopAt: string[]): { nodes: Node[]; stop: string } {
  const nodes: Node[] = [];
  while (pos.i < raws.length) {
    const r = raws[pos.i++]!;
    if (r.kind === 'text') {
      nodes.push({ type: 'text', text: r.text });
      continue;
    }
    const t = r.text;
    if (t.startsWith('/*')) continue;
    const word = t.split(/\s+/)[0]!;
    if (stopAt.includes(word)) {
      pos.i--;
      return { nodes, stop: word };
    }
    if (word === 'if' || word === 'with' || word === 'range') {
      nodes.push(parseControl(word, t.slice(word.length).trim(), raws, pos));
      continue;
    }
    nodes.push({ type: 'action', pipe: parsePipe(tokenizeAction(t)) });
  }
  return { nodes, stop: '' };
}

function parseControl(word: string, rest: string, raws: Raw[], pos: { i: number }): Node {
  const thenNodes = parseNodes(raws, pos, ['else', 'end']).nodes;
  let elseNodes: Node[] = [];
  const stopper = raws[pos.i++]?.text ?? 'end';
  if (stopper.split(/\s+/)[0] === 'else') {
    const elseRest = stopper.slice(4).trim();
    const w = elseRest.split(/\s+/)[0];
    if (w === 'if' || w === 'with') elseNodes = [parseControl(w, elseRest.slice(w.length).trim(), raws, pos)];
    else {
      elseNodes = parseNodes(raws, pos, ['end']).nodes;
      pos.i++;
    }
  }
  const pipe = parsePipe(tokenizeAction(rest));
  if (word === 'range') return { type: 'range', pipe: { decl: [], cmds: pipe.cmds }, vars: pipe.decl, body: thenNodes, else: elseNodes };
  return { type: word as 'if' | 'with', pipe, then: thenNodes, else: elseNodes };
}

// ---------- evaluation

function truth(v: V): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

const NO_VALUE = Symbol('no value');

function printValue(v: V): string {
  if (v === NO_VALUE) return '<no value>';
  return goFmtV(v);
}

function sprintf(format: string, args: V[]): string {
  let i = 0;
  return format.replace(/%([-+# 0]*\d*(?:\.\d+)?)([vsdqtfx%])/g, (_m, _flags: string, verb: string) => {
    if (verb === '%') return '%';
    const a = args[i++];
    switch (verb) {
      case 'q':
        return goQuoteString(String(a));
      case 'd':
        return String(Math.trunc(Number(a)));
      case 'f':
        return Number(a).toFixed(6);
      case 'x':
        return typeof a === 'number' ? a.toString(16) : Array.from(new TextEncoder().encode(String(a))).map((b) => b.toString(16).padStart(2, '0')).join('');
      default:
        return printValue(a);
    }
  });
}

function base64decode(s: string): string {
  try {
    const bin = atob(s);
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    throw new TemplateError(`base64decode: illegal base64 data`);
  }
}

class Exec {
  out = '';
  constructor(private readonly root: V) {}

  run(nodes: Node[], dot: V, vars: Map<string, V>): void {
    for (const n of nodes) {
      switch (n.type) {
        case 'text':
          this.out += n.text;
          break;
        case 'action': {
          const v = this.pipe(n.pipe, dot, vars);
          if (n.pipe.decl.length === 0) this.out += printValue(v);
          break;
        }
        case 'if':
        case 'with': {
          const v = this.pipe(n.pipe, dot, vars);
          if (truth(v === NO_VALUE ? undefined : v)) this.run(n.then, n.type === 'with' ? v : dot, new Map(vars));
          else this.run(n.else, dot, new Map(vars));
          break;
        }
        case 'range': {
          const v = this.pipe(n.pipe, dot, vars);
          const entries: [V, V][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : v && typeof v === 'object' ? Object.keys(v as object).sort().map((k) => [k, (v as Record<string, V>)[k]]) : [];
          if (entries.length === 0) {
            this.run(n.else, dot, new Map(vars));
            break;
          }
          for (const [k, x] of entries) {
            const scope = new Map(vars);
            if (n.vars.length === 1) scope.set(n.vars[0]!, x);
            if (n.vars.length === 2) {
              scope.set(n.vars[0]!, k);
              scope.set(n.vars[1]!, x);
            }
            this.run(n.body, x, scope);
          }
          break;
        }
      }
    }
  }

  pipe(p: Pipe, dot: V, vars: Map<string, V>): V {
    let v: V = undefined;
    let first = true;
    for (const cmd of p.cmds) {
      v = this.command(cmd, dot, vars, first ? undefined : { v });
      first = false;
    }
    for (const d of p.decl) vars.set(d, v);
    return v;
  }

  arg(a: Arg, dot: V, vars: Map<string, V>): V {
    switch (a.t) {
      case 'str':
      case 'num':
      case 'bool':
        return a.v;
      case 'nil':
        return null;
      case 'sub':
        return this.pipe(a.pipe, dot, vars);
      case 'ident':
        return this.call(a.name, [], dot);
      case 'field': {
        let cur: V = a.base === 'dot' ? dot : a.base === '$' ? this.root : vars.get(a.base);
        for (const k of a.path) {
          if (cur === NO_VALUE || cur === null || cur === undefined) return NO_VALUE;
          if (typeof cur !== 'object' || Array.isArray(cur)) throw new TemplateError(`can't evaluate field ${k} in type ${Array.isArray(cur) ? '[]interface {}' : typeof cur}`);
          const o = cur as Record<string, V>;
          cur = Object.prototype.hasOwnProperty.call(o, k) ? o[k] : NO_VALUE;
        }
        return cur;
      }
    }
  }

  command(cmd: Arg[], dot: V, vars: Map<string, V>, piped?: { v: V }): V {
    const head = cmd[0];
    if (!head) throw new TemplateError('empty command');
    if (head.t === 'ident') {
      const args = cmd.slice(1).map((a) => this.arg(a, dot, vars));
      if (piped) args.push(piped.v);
      return this.call(head.name, args, dot);
    }
    if (piped) throw new TemplateError(`can't give argument to non-function`);
    return this.arg(head, dot, vars);
  }

  call(name: string, args: V[], dot: V): V {
    const clean = (x: V) => (x === NO_VALUE ? undefined : x);
    switch (name) {
      case 'index': {
        let cur = clean(args[0]);
        for (const k of args.slice(1)) {
          if (cur === null || cur === undefined) return NO_VALUE;
          cur = Array.isArray(cur) ? cur[Number(k)] : (cur as Record<string, V>)[String(k)];
          if (cur === undefined) return NO_VALUE;
        }
        return cur;
      }
      case 'len': {
        const x = clean(args[0]);
        if (typeof x === 'string' || Array.isArray(x)) return x.length;
        if (x && typeof x === 'object') return Object.keys(x).length;
        throw new TemplateError(`len of type ${typeof x}`);
      }
      case 'printf':
        return sprintf(String(args[0] ?? ''), args.slice(1));
      case 'print':
        return args.map((a) => printValue(a)).join('');
      case 'println':
        return `${args.map((a) => printValue(a)).join(' ')}\n`;
      case 'not':
        return !truth(clean(args[0]));
      case 'and':
        return args.find((a) => !truth(clean(a))) ?? args[args.length - 1];
      case 'or':
        return args.find((a) => truth(clean(a))) ?? args[args.length - 1];
      case 'eq':
        return args.slice(1).some((a) => clean(a) === clean(args[0]));
      case 'ne':
        return clean(args[0]) !== clean(args[1]);
      case 'lt':
        return (clean(args[0]) as number) < (clean(args[1]) as number);
      case 'le':
        return (clean(args[0]) as number) <= (clean(args[1]) as number);
      case 'gt':
        return (clean(args[0]) as number) > (clean(args[1]) as number);
      case 'ge':
        return (clean(args[0]) as number) >= (clean(args[1]) as number);
      case 'base64decode':
        return base64decode(String(clean(args[0]) ?? ''));
      case 'base64encode': {
        const bytes = new TextEncoder().encode(String(clean(args[0]) ?? ''));
        let bin = '';
        for (const b of bytes) bin += String.fromCharCode(b);
        return btoa(bin);
      }
      case 'html':
      case 'js':
      case 'urlquery':
        return String(clean(args[0]) ?? '');
    }
    void dot;
    throw new TemplateError(`function "${name}" not defined`);
  }
}

/** Executes a template against a JSON value; throws TemplateError with Go-like messages. */
export function executeGoTemplate(template: string, data: V): string {
  const raws = split(template);
  const { nodes } = parseNodes(raws, { i: 0 }, []);
  const ex = new Exec(data);
  ex.run(nodes, data, new Map([['$', data]]));
  return ex.out;
}
