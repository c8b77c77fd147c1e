// The command tree and dispatch, as cobra finds commands (command.go Find,
// stripFlags, SuggestionsFor) and kubectl wires its global flags.
import type { KubectlEnv, KubectlResult } from '../types';
import { formatError, KubectlFailure, errs } from '../client/errors';
import { makeCtx, Output, type Ctx } from './context';
import { FlagError, FlagSet, HelpRequested, type FlagDef } from './flags';
import { COMMAND_FLAG_USAGE, FLAG_USAGE } from './flagUsage';
import { COMMAND_DOCS, exampleText, longText } from './commandDocs';

export interface CommandSpec {
  name: string;
  aliases?: string[];
  short: string;
  use: string;
  flags?: FlagDef[];
  subcommands?: CommandSpec[];
  /** Runs the command; may return an edit request (kubectl edit). */
  run?(ctx: Ctx, args: string[]): Promise<void | Pick<KubectlResult, 'edit' | 'context'>>;
  suggestFor?: string[];
  hidden?: boolean;
  /** Shown in root help under this heading. */
  group?: string;
}

/** kubectl's persistent flags (kubectl options); only the first few change behaviour here. */
export const GLOBAL_FLAGS: FlagDef[] = [
  { name: 'namespace', shorthand: 'n', kind: 'string' },
  { name: 'as', kind: 'string' },
  { name: 'as-group', kind: 'stringArray' },
  { name: 'as-uid', kind: 'string' },
  { name: 'v', shorthand: 'v', kind: 'int' },
  { name: 'request-timeout', kind: 'string', default: '0' },
  { name: 'cache-dir', kind: 'string' },
  { name: 'certificate-authority', kind: 'string' },
  { name: 'client-certificate', kind: 'string' },
  { name: 'client-key', kind: 'string' },
  { name: 'cluster', kind: 'string' },
  { name: 'context', kind: 'string' },
  { name: 'disable-compression', kind: 'bool' },
  { name: 'insecure-skip-tls-verify', kind: 'bool' },
  { name: 'kubeconfig', kind: 'string' },
  { name: 'match-server-version', kind: 'bool' },
  { name: 'password', kind: 'string' },
  { name: 'profile', kind: 'string', default: 'none' },
  { name: 'profile-output', kind: 'string', default: 'profile.pprof' },
  { name: 'server', shorthand: 's', kind: 'string' },
  { name: 'tls-server-name', kind: 'string' },
  { name: 'token', kind: 'string' },
  { name: 'user', kind: 'string' },
  { name: 'username', kind: 'string' },
  { name: 'vmodule', kind: 'string' },
  { name: 'warnings-as-errors', kind: 'bool' },
  { name: 'log-flush-frequency', kind: 'duration', default: '5s' },
];

/** Levenshtein distance, as cobra's ld(). */
function ld(s: string, t: string, ignoreCase: boolean): number {
  if (ignoreCase) {
    s = s.toLowerCase();
    t = t.toLowerCase();
  }
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let j = 1; j <= t.length; j++) {
    for (let i = 1; i <= s.length; i++) {
      if (s[i - 1] === t[j - 1]) d[i]![j] = d[i - 1]![j - 1]!;
      else d[i]![j] = Math.min(d[i - 1]![j]!, d[i]![j - 1]!, d[i - 1]![j - 1]!) + 1;
    }
  }
  return d[s.length]![t.length]!;
}

function suggestionsFor(typed: string, cmds: readonly CommandSpec[]): string[] {
  const out: string[] = [];
  for (const c of cmds) {
    if (c.hidden) continue;
    const close = ld(typed, c.name, true) <= 2;
    const prefix = c.name.toLowerCase().startsWith(typed.toLowerCase());
    if (close || prefix || (c.suggestFor ?? []).includes(typed)) out.push(c.name);
  }
  return out;
}

function findChild(cmds: readonly CommandSpec[] | undefined, name: string): CommandSpec | undefined {
  return cmds?.find((c) => c.name === name || (c.aliases ?? []).includes(name));
}

/** cobra stripFlags: the first argument that is not a flag or a flag's value. */
function firstNonFlag(args: string[], flags: FlagSet): number {
  for (let i = 0; i < args.length; i++) {
    const s = args[i]!;
    if (s === '--') return -1;
    if (s.startsWith('--') && !s.includes('=')) {
      const f = flags.lookup(s.slice(2));
      if (!f || f.noOptDefVal === undefined) i++;
      continue;
    }
    if (s.startsWith('-') && s.length === 2) {
      const f = flags.lookupShort(s.slice(1));
      if (!f || f.noOptDefVal === undefined) i++;
      continue;
    }
    if (s !== '' && !s.startsWith('-')) return i;
  }
  return -1;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * A command's help, in kubectl's templates (templates/templates.go
 * MainHelpTemplate and MainUsageTemplate): the long description, aliases,
 * examples (cli/commandDocs.ts), then its subcommands and its flags, each
 * sorted by name as cobra and pflag sort them, names padded to the longest
 * (at least 11) plus three spaces.
 */
export function commandHelp(path: string, c: CommandSpec): string {
  const command = path.split(' ').slice(1).join(' ');
  const doc = COMMAND_DOCS[command];
  let s = `${doc ? longText(doc) : c.short}\n\n`;
  const aliases = c.aliases ?? [];
  if (aliases.length > 0) s += `Aliases:\n${[c.name, ...aliases].join(', ')}\n\n`;
  if (doc?.examples) s += `Examples:\n${exampleText(doc)}\n\n`;
  const subs = c.subcommands ?? [];
  if (subs.length > 0) {
    s += 'Available Commands:\n';
    const w = Math.max(11, ...subs.map((x) => x.name.length)) + 3;
    for (const sc of [...subs].sort(byName)) if (!sc.hidden) s += `  ${sc.name.padEnd(w)}${sc.short}\n`;
    s += '\n';
  }
  const flags = (c.flags ?? []).filter((f) => !f.hidden).sort(byName);
  if (flags.length > 0) {
    s += 'Options:\n';
    for (const f of flags) {
      const head = f.shorthand ? `-${f.shorthand}, --${f.name}` : `--${f.name}`;
      const def = f.default === undefined ? (f.kind === 'bool' ? 'false' : f.kind === 'int' ? '0' : f.kind.endsWith('Array') || f.kind.endsWith('Slice') ? '[]' : "''") : Array.isArray(f.default) ? `[${f.default.join(',')}]` : typeof f.default === 'string' ? `'${f.default}'` : String(f.default);
      s += `    ${head}=${def}:\n\t${flagUsage(command, f)}\n\n`;
    }
  }
  s += `Usage:\n  ${path} ${c.use}\n\n`;
  if (subs.length > 0) s += `Use "${path} <command> --help" for more information about a given command.\n`;
  s += 'Use "kubectl options" for a list of global command-line options (applies to all commands).\n';
  return s;
}

/** A flag's description: its own, the command's particular one, or the shared one (cli/flagUsage.ts). */
export function flagUsage(command: string, f: FlagDef): string {
  return f.usage ?? COMMAND_FLAG_USAGE[command]?.[f.name] ?? FLAG_USAGE[f.name] ?? '';
}

/**
 * cobra's Find: the command the arguments (after "kubectl") name, its path
 * from "kubectl", and the arguments left once the command names are taken
 * out; or the unknown name given where a top-level command belongs.
 */
export function findCommand(args: readonly string[], root: CommandSpec): { cmd: CommandSpec; path: string[]; rest: string[] } | { unknown: string } {
  const globals = new FlagSet(GLOBAL_FLAGS);
  let cmd = root;
  const path = ['kubectl'];
  let rest = [...args];
  for (;;) {
    const set = new FlagSet([...GLOBAL_FLAGS, ...(cmd === root ? [] : (cmd.flags ?? []))]);
    const i = firstNonFlag(rest, cmd === root ? globals : set);
    if (i < 0 || !cmd.subcommands || cmd.subcommands.length === 0) break;
    const child = findChild(cmd.subcommands, rest[i]!);
    if (!child) {
      if (cmd === root) return { unknown: rest[i]! };
      break;
    }
    cmd = child;
    path.push(child.name);
    rest = [...rest.slice(0, i), ...rest.slice(i + 1)];
  }
  return { cmd, path, rest };
}

export async function dispatch(argsIn: string[], env: KubectlEnv, root: CommandSpec): Promise<KubectlResult> {
  const io = new Output(env);
  const args = argsIn[0] === 'kubectl' ? argsIn.slice(1) : [...argsIn];
  const found = findCommand(args, root);
  if ('unknown' in found) {
    // `kubectl -n x` alone or with flags only still prints help; unknown names fail
    const typed = found.unknown;
    const sugg = suggestionsFor(typed, root.subcommands ?? []);
    let text = `error: unknown command "${typed}" for "kubectl"\n`;
    if (sugg.length > 0) text += `\nDid you mean this?\n${sugg.map((s) => `\t${s}\n`).join('')}`;
    io.err(text);
    return { stdout: io.stdout, stderr: io.stderr, exitCode: 1 };
  }
  const { cmd, rest } = found;
  const commandPath = found.path.join(' ');
  const flagSet = new FlagSet([...GLOBAL_FLAGS, ...(cmd.flags ?? [])]);
  let parsed;
  try {
    parsed = flagSet.parse(rest);
  } catch (e) {
    if (e instanceof HelpRequested) {
      io.out(cmd === root ? rootHelp(root) : commandHelp(commandPath, cmd));
      return { stdout: io.stdout, stderr: io.stderr, exitCode: 0 };
    }
    if (e instanceof FlagError) {
      io.err(`error: ${e.message}\nSee '${commandPath} --help' for usage.\n`);
      return { stdout: io.stdout, stderr: io.stderr, exitCode: 1 };
    }
    throw e;
  }
  if (!cmd.run) {
    io.out(cmd === root ? rootHelp(root) : commandHelp(commandPath, cmd));
    return { stdout: io.stdout, stderr: io.stderr, exitCode: 0 };
  }
  // cobra's ValidateRequiredFlags, before the command runs: every required flag not given, in pflag's sorted order.
  const missing = (cmd.flags ?? []).filter((f) => f.required && !parsed.changed.has(f.name)).map((f) => f.name).sort();
  if (missing.length > 0) {
    io.err(`error: required flag(s) "${missing.join('", "')}" not set\n`);
    return { stdout: io.stdout, stderr: io.stderr, exitCode: 1 };
  }
  const ctx = makeCtx(env, io, parsed, commandPath);
  try {
    const r = await cmd.run(ctx, parsed.args);
    return { stdout: io.stdout, stderr: io.stderr, exitCode: 0, ...(r && r.edit ? { edit: r.edit } : {}), ...(r && r.context ? { context: r.context } : {}) };
  } catch (e) {
    if (e instanceof KubectlFailure) {
      const { text, exitCode } = formatError(e.err);
      io.err(text);
      return { stdout: io.stdout, stderr: io.stderr, exitCode };
    }
    throw e;
  }
}

export function rootHelp(root: CommandSpec): string {
  const groups: string[] = [];
  for (const c of root.subcommands ?? []) if (c.group && !groups.includes(c.group)) groups.push(c.group);
  let s = 'kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\n';
  for (const g of groups) {
    s += `${g}:\n`;
    for (const c of root.subcommands ?? []) if (c.group === g && !c.hidden) s += `  ${c.name.padEnd(16)}${c.short}\n`;
    s += '\n';
  }
  s += 'Usage:\n  kubectl [flags] [options]\n\nUse "kubectl <command> --help" for more information about a given command.\nUse "kubectl options" for a list of global command-line options (applies to all commands).\n';
  return s;
}

export { errs };
