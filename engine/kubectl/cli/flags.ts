// Command-line flags as spf13/pflag parses them (flag.go parseArgs,
// parseLongArg, parseSingleShortArg) with its error texts, so
// `kubectl get -x` fails exactly like kubectl does.

export type FlagKind = 'bool' | 'string' | 'int' | 'float' | 'stringArray' | 'stringSlice' | 'duration';

export interface FlagDef {
  name: string;
  shorthand?: string;
  kind: FlagKind;
  default?: string | number | boolean | string[];
  /** pflag NoOptDefVal: the value a bare `--flag` takes (bools: "true"). */
  noOptDefVal?: string;
  usage?: string;
  hidden?: boolean;
  /** cobra's MarkFlagRequired: the command does not run without it (checked in cli/root.ts). */
  required?: true;
}

export type FlagValue = string | number | boolean | string[];

export interface ParsedFlags {
  values: Map<string, FlagValue>;
  /** Flags the user set explicitly (cmd.Flags().Changed). */
  changed: Set<string>;
  args: string[];
  /** Index in args where `--` appeared, or -1 (ArgsLenAtDash). */
  argsLenAtDash: number;
}

export class FlagError extends Error {}

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function flagDisplayName(f: FlagDef): string {
  return f.shorthand ? `-${f.shorthand}, --${f.name}` : `--${f.name}`;
}

/** Go's time.ParseDuration acceptance, in ms. */
export function parseGoDuration(s: string): number | undefined {
  if (s === '0') return 0;
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (!m) return undefined;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
  let total = 0;
  for (const part of s.replace(/^[-+]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * unit[part[2]!]!;
  return m[1] === '-' ? -total : total;
}

function defaultValue(f: FlagDef): FlagValue {
  if (f.default !== undefined) return Array.isArray(f.default) ? [...f.default] : f.default;
  switch (f.kind) {
    case 'bool':
      return false;
    case 'int':
    case 'float':
      return 0;
    case 'stringArray':
    case 'stringSlice':
      return [];
    default:
      return '';
  }
}

/** stringSlice values are CSV records (encoding/csv): `a,"b,c"` → [a, b,c]. */
function readCsv(v: string): string[] {
  if (v === '') return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (quoted) {
      if (c === '"' && v[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"' && cur === '') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

export class FlagSet {
  private readonly byName = new Map<string, FlagDef>();
  private readonly byShort = new Map<string, FlagDef>();

  constructor(defs: readonly FlagDef[]) {
    for (const d of defs) this.add(d);
  }

  add(d: FlagDef): void {
    const def = d.kind === 'bool' && d.noOptDefVal === undefined ? { ...d, noOptDefVal: 'true' } : d;
    this.byName.set(def.name, def);
    if (def.shorthand) this.byShort.set(def.shorthand, def);
  }

  lookup(name: string): FlagDef | undefined {
    return this.byName.get(name);
  }
  lookupShort(c: string): FlagDef | undefined {
    return this.byShort.get(c);
  }
  all(): FlagDef[] {
    return [...this.byName.values()];
  }

  parse(argv: readonly string[]): ParsedFlags {
    const values = new Map<string, FlagValue>();
    for (const d of this.byName.values()) values.set(d.name, defaultValue(d));
    const out: ParsedFlags = { values, changed: new Set(), args: [], argsLenAtDash: -1 };
    const set = (f: FlagDef, value: string) => {
      let v: FlagValue;
      switch (f.kind) {
        case 'bool':
          if (BOOL_TRUE.has(value)) v = true;
          else if (BOOL_FALSE.has(value)) v = false;
          else throw new FlagError(`invalid argument "${value}" for "${flagDisplayName(f)}" flag: strconv.ParseBool: parsing "${value}": invalid syntax`);
          break;
        case 'int':
          if (!/^[+-]?\d+$/.test(value)) throw new FlagError(`invalid argument "${value}" for "${flagDisplayName(f)}" flag: strconv.ParseInt: parsing "${value}": invalid syntax`);
          v = Number(value);
          break;
        case 'float':
          if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) throw new FlagError(`invalid argument "${value}" for "${flagDisplayName(f)}" flag: strconv.ParseFloat: parsing "${value}": invalid syntax`);
          v = Number(value);
          break;
        case 'duration':
          if (parseGoDuration(value) === undefined) throw new FlagError(`invalid argument "${value}" for "${flagDisplayName(f)}" flag: time: invalid duration "${value}"`);
          v = value;
          break;
        case 'stringArray': {
          const prev = out.changed.has(f.name) ? (values.get(f.name) as string[]) : [];
          v = [...prev, value];
          break;
        }
        case 'stringSlice': {
          const prev = out.changed.has(f.name) ? (values.get(f.name) as string[]) : [];
          v = [...prev, ...readCsv(value)];
          break;
        }
        default:
          v = value;
      }
      values.set(f.name, v);
      out.changed.add(f.name);
    };

    let args = [...argv];
    while (args.length > 0) {
      const s = args.shift()!;
      if (s.length === 0 || s[0] !== '-' || s.length === 1) {
        out.args.push(s);
        continue;
      }
      if (s[1] === '-') {
        if (s.length === 2) {
          out.argsLenAtDash = out.args.length;
          out.args.push(...args);
          break;
        }
        const name0 = s.slice(2);
        if (name0.length === 0 || name0[0] === '-' || name0[0] === '=') throw new FlagError(`bad flag syntax: ${s}`);
        const eq = name0.indexOf('=');
        const name = eq < 0 ? name0 : name0.slice(0, eq);
        const f = this.byName.get(name);
        if (!f) {
          if (name === 'help') throw new HelpRequested();
          throw new FlagError(`unknown flag: --${name}`);
        }
        let value: string;
        if (eq >= 0) value = name0.slice(eq + 1);
        else if (f.noOptDefVal !== undefined) value = f.noOptDefVal;
        else if (args.length > 0) value = args.shift()!;
        else throw new FlagError(`flag needs an argument: ${s}`);
        set(f, value);
        continue;
      }
      let shorthands = s.slice(1);
      while (shorthands.length > 0) {
        const c = shorthands[0]!;
        const f = this.byShort.get(c);
        if (!f) {
          if (c === 'h') throw new HelpRequested();
          throw new FlagError(`unknown shorthand flag: '${c}' in -${shorthands}`);
        }
        let value: string;
        let rest = '';
        if (shorthands.length > 2 && shorthands[1] === '=') value = shorthands.slice(2);
        else if (f.noOptDefVal !== undefined) {
          value = f.noOptDefVal;
          rest = shorthands.slice(1);
        } else if (shorthands.length > 1) value = shorthands.slice(1);
        else if (args.length > 0) value = args.shift()!;
        else throw new FlagError(`flag needs an argument: '${c}' in -${shorthands}`);
        set(f, value);
        shorthands = rest;
      }
      args = [...args];
    }
    return out;
  }
}

export class HelpRequested extends Error {}

export function getString(p: ParsedFlags, name: string): string {
  const v = p.values.get(name);
  return typeof v === 'string' ? v : v === undefined ? '' : String(v);
}
export function getBool(p: ParsedFlags, name: string): boolean {
  return p.values.get(name) === true;
}
export function getInt(p: ParsedFlags, name: string): number {
  const v = p.values.get(name);
  return typeof v === 'number' ? v : 0;
}
export function getStrings(p: ParsedFlags, name: string): string[] {
  const v = p.values.get(name);
  return Array.isArray(v) ? v : [];
}
