// The long descriptions and examples of `kubectl <command> --help`
// (cli/commandDocs.ts): every command has them, every example is a command
// line this kubectl accepts, and the help lays them out as kubectl v1.32 does.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../apiserver/registry/resources';
import { runKubectl } from '../index';
import { buildRoot } from '../cmd/registry';
import { splitCommandLine } from './complete';
import { COMMAND_DOCS, exampleText, longText } from './commandDocs';
import { FlagError, FlagSet, getStrings, getString, type ParsedFlags } from './flags';
import { findCommand, GLOBAL_FLAGS, type CommandSpec } from './root';

const run = (args: string[]) => runKubectl(args, { files: {}, namespace: 'default', now: () => 0, transport: {} as never });

/** Every command `kubectl --help` can reach, by path without "kubectl". */
function visibleCommands(): Map<string, CommandSpec> {
  const out = new Map<string, CommandSpec>();
  const walk = (c: CommandSpec, path: string) => {
    for (const s of c.subcommands ?? []) {
      if (s.hidden) continue;
      const p = path ? `${path} ${s.name}` : s.name;
      out.set(p, s);
      walk(s, p);
    }
  };
  walk(buildRoot(), '');
  return out;
}

/** kubectl v1.32 prints no Examples section for these command groups, so neither do we. */
const WITHOUT_EXAMPLES = new Set(['auth', 'certificate', 'config', 'create secret', 'create service', 'set', 'top']);
/** Commands not available here whose examples show what to use instead (other commands). */
const EXAMPLES_NAME_OTHER_COMMANDS = new Set<string>([]);

/** An example block: its comment lines and its command lines (a trailing backslash continues a line). */
function examples(text: string): { comments: string[]; commands: string[] }[] {
  if (!text.trim()) return [];
  return text
    .trim()
    .split(/\n[ \t]*\n/)
    .map((block) => {
      const lines = block.split('\n').map((l) => l.trim());
      const comments = lines.filter((l) => l.startsWith('#'));
      const commands: string[] = [];
      let cont = false;
      for (const l of lines.filter((x) => !x.startsWith('#'))) {
        if (cont) commands[commands.length - 1] += ` ${l.replace(/\\$/, '')}`;
        else commands.push(l.replace(/\\$/, ''));
        cont = l.endsWith('\\');
      }
      return { comments, commands };
    });
}

/** The kubectl invocations of a shell line: the words of each pipeline stage that runs kubectl, up to a redirection. */
function kubectlInvocations(line: string): string[][] {
  const words = splitCommandLine(line.replace(/<[^>\s]+>/g, 'x')).filter((w) => w !== '');
  const stages: string[][] = [[]];
  for (const w of words) {
    if (w === '|') stages.push([]);
    else stages[stages.length - 1]!.push(w);
  }
  return stages.filter((s) => s[0] === 'kubectl').map((s) => {
    const redirect = s.findIndex((w) => w.startsWith('>'));
    return (redirect < 0 ? s : s.slice(0, redirect)).slice(1);
  });
}

/** Whether a type argument (pods, deploy, deployments.v1.apps, rs.apps) names a resource the simulated API server serves. */
function servedType(t: string): boolean {
  const [name, ...rest] = t.split('.');
  const named = RESOURCES.filter((r) => r.resource === name || r.singularName === name || r.shortNames.includes(name!));
  if (rest.length === 0) return named.length > 0;
  const group = rest.join('.');
  const versioned = rest.length > 1 ? { version: rest[0]!, group: rest.slice(1).join('.') } : undefined;
  return named.some((r) => r.group === group || (versioned && r.version === versioned.version && r.group === versioned.group));
}

/** Commands whose first argument is a resource type (or TYPE/NAME). */
const TYPE_FIRST = new Set(['get', 'describe', 'delete', 'edit', 'label', 'annotate', 'patch', 'scale', 'autoscale', 'expose', 'explain', 'taint', 'wait', 'set env', 'set image', 'set resources', 'rollout status', 'rollout history', 'rollout undo', 'rollout restart', 'rollout pause', 'rollout resume']);
/** Commands whose arguments are a Pod's name or TYPE/NAME. */
const POD_OR_TYPED = new Set(['logs', 'exec', 'attach', 'port-forward']);
const TYPED_NAME = /^[a-z][a-z0-9.-]*\/[a-z0-9*][a-z0-9.-]*$/;

/** The resource types an invocation names that the simulation does not serve. */
function unservedTypes(command: string, p: ParsedFlags): string[] {
  const args = p.argsLenAtDash >= 0 ? p.args.slice(0, p.argsLenAtDash) : p.args;
  const types: string[] = [];
  if (TYPE_FIRST.has(command) || POD_OR_TYPED.has(command)) for (const a of args) if (TYPED_NAME.test(a)) types.push(a.split('/')[0]!);
  if (TYPE_FIRST.has(command) && args[0] && !args[0].includes('/') && getStrings(p, 'filename').length === 0) {
    types.push(...(command === 'explain' ? [args[0].split('.')[0]!] : args[0].split(',')));
  }
  if (command === 'auth can-i' && args[1] && !args[1].startsWith('/') && args[1] !== '*') types.push(args[1].split('/')[0]!);
  if (command === 'events' && getString(p, 'for')) types.push(getString(p, 'for').split('/')[0]!);
  if (command === 'create job' && getString(p, 'from')) types.push(getString(p, 'from').split('/')[0]!);
  if (command === 'set env' && getString(p, 'from')) types.push(getString(p, 'from').split('/')[0]!);
  return types.filter((t) => !servedType(t));
}

describe('command docs', () => {
  const commands = visibleCommands();

  it('give every command a long description and examples', () => {
    const missing: string[] = [];
    for (const [path] of commands) {
      const doc = COMMAND_DOCS[path];
      if (!doc || !doc.long.trim()) missing.push(`${path}: long`);
      else if (WITHOUT_EXAMPLES.has(path) ? doc.examples !== undefined : !doc.examples?.trim()) missing.push(`${path}: examples`);
    }
    expect(missing).toEqual([]);
    expect(commands.size).toBeGreaterThan(75);
  });

  it('describe only commands that exist', () => {
    expect(Object.keys(COMMAND_DOCS).filter((k) => !commands.has(k))).toEqual([]);
  });

  it('write each example as comment lines followed by command lines', () => {
    const bad: string[] = [];
    for (const [path, doc] of Object.entries(COMMAND_DOCS)) {
      for (const ex of examples(doc.examples ?? '')) {
        if (ex.comments.length === 0 || ex.commands.length === 0) bad.push(`${path}: ${JSON.stringify(ex)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('give examples that this kubectl parses, naming the documented command, its flags and served resource types', () => {
    const root = buildRoot();
    const problems: string[] = [];
    let checked = 0;
    for (const [path, doc] of Object.entries(COMMAND_DOCS)) {
      for (const ex of examples(doc.examples ?? '')) {
        let namesDocumented = false;
        for (const line of ex.commands) {
          const invocations = kubectlInvocations(line);
          if (invocations.length === 0) problems.push(`${path}: runs no kubectl: ${line}`);
          for (const args of invocations) {
            checked++;
            const found = findCommand(args, root);
            if ('unknown' in found) {
              problems.push(`${path}: unknown command "${found.unknown}": ${line}`);
              continue;
            }
            const named = found.path.slice(1).join(' ');
            if (named === path || named.startsWith(`${path} `)) namesDocumented = true;
            if (!found.cmd.run) problems.push(`${path}: "${named}" does not run: ${line}`);
            let parsed: ParsedFlags;
            try {
              parsed = new FlagSet([...GLOBAL_FLAGS, ...(found.cmd.flags ?? [])]).parse(found.rest);
            } catch (e) {
              problems.push(`${path}: ${e instanceof FlagError ? e.message : String(e)}: ${line}`);
              continue;
            }
            const required = (found.cmd.flags ?? []).filter((f) => f.required && !parsed.changed.has(f.name)).map((f) => f.name);
            if (required.length > 0) problems.push(`${path}: required flag(s) ${required.join(', ')} not set: ${line}`);
            const unserved = unservedTypes(named, parsed);
            if (unserved.length > 0) problems.push(`${path}: resource type(s) ${unserved.join(', ')} not served: ${line}`);
          }
        }
        if (!namesDocumented && !EXAMPLES_NAME_OTHER_COMMANDS.has(path)) problems.push(`${path}: example runs no "kubectl ${path}": ${ex.commands.join(' / ')}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(250);
  });
});

describe('help layout', () => {
  it('renders long text as templates.LongDesc does: later paragraphs start with a space, list items with "  *  "', () => {
    const doc = { long: '\n  First line.\n\n  Second\n  paragraph.\n\n  * one\n  * two\n    continued\n\n  1. first\n\n  Last.\n', footer: 'Unindented hint.' };
    expect(longText(doc)).toBe('First line.\n\n Second paragraph.\n\n  *  one\n  *  two continued\n\n  1.  first\n\n Last.\n\nUnindented hint.');
    expect(longText({ long: 'Only a sentence.' })).toBe('Only a sentence.');
  });

  it('renders examples as templates.Examples does: every line, blank ones too, indented by two spaces', () => {
    expect(exampleText({ long: '', examples: '\n      # Say hello\n      kubectl run a --image=nginx\n\n      # Two lines\n      kubectl get pods \\\n        -o wide\n    ' })).toBe(
      '  # Say hello\n  kubectl run a --image=nginx\n  \n  # Two lines\n  kubectl get pods \\\n  -o wide',
    );
  });

  // The layout of `kubectl run --help` from kubectl v1.32: the long description,
  // a blank line, "Examples:" with each line indented by two spaces and examples
  // separated by a line of two spaces, a blank line, then "Options:" and "Usage:".
  it('lays out run --help as kubectl v1.32 does', async () => {
    const r = await run(['run', '--help']);
    expect(r.exitCode).toBe(0);
    const out = r.stdout;
    expect(out.split('\n').filter((l) => /^[A-Z][A-Za-z ]*:$/.test(l))).toEqual(['Examples:', 'Options:', 'Usage:']);
    expect(out.startsWith(
      'Create a Pod that runs one container from the given image.\n' +
        '\n' +
        " The Pod is labelled run=NAME unless --labels is given. Arguments after -- are passed to the container: by default as the arguments of the image's entrypoint, or with --command as a command that replaces it.\n" +
        '\n' +
        " With -i the container keeps its stdin open and kubectl attaches to it once the Pod runs (-t adds a terminal); with --restart=Never or OnFailure it then waits for the Pod to finish and exits with the container's exit code, and --rm deletes the Pod at the end.\n" +
        '\n' +
        'Examples:\n' +
        '  # Start a Pod named web that runs nginx\n' +
        '  kubectl run web --image=nginx\n' +
        '  \n' +
        '  # Start a Pod whose container declares port 8080\n' +
        '  kubectl run api --image=nginx --port=8080\n' +
        '  \n',
    )).toBe(true);
    expect(out).toContain(
      '  # Start a shell in a new Pod, type into it, and delete the Pod when the shell exits\n' +
        '  kubectl run -it --rm debug --image=busybox --restart=Never -- sh\n' +
        '\n' +
        'Options:\n' +
        '    --allow-missing-template-keys=true:\n',
    );
    const lines = out.split('\n');
    const body = lines.slice(lines.indexOf('Examples:') + 1, lines.indexOf('Options:') - 1);
    expect(body.length).toBeGreaterThan(10);
    for (const l of body) expect(l === '  ' || /^ {2}(# |kubectl )/.test(l), JSON.stringify(l)).toBe(true);
    expect(out.endsWith('Usage:\n  kubectl run NAME --image=image [--env="key=value"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...] [options]\n\nUse "kubectl options" for a list of global command-line options (applies to all commands).\n')).toBe(true);
  });

  it('lays out a list in the long text, then examples before the subcommands, as kubectl rollout --help does', async () => {
    const r = await run(['rollout', '--help']);
    expect(r.stdout.split('\n').filter((l) => /^[A-Z][A-Za-z ]*:$/.test(l))).toEqual(['Examples:', 'Available Commands:', 'Usage:']);
    expect(r.stdout).toContain('\n\n The subcommands work on these types:\n\n  *  deployments\n  *  daemonsets\n  *  statefulsets\n\n Only Deployments can be paused and resumed.\n\nExamples:\n  # ');
    expect(r.stdout).toContain('  kubectl rollout restart deployment --selector=app=web\n\nAvailable Commands:\n  history ');
  });

  it('lists aliases between the long text and the examples, unindented, as cobra nameAndAliases does', async () => {
    const r = await run(['create', 'deployment', '--help']);
    expect(r.stdout).toContain('\n\nAliases:\ndeployment, deploy\n\nExamples:\n  # ');
    const top = await run(['top', 'pod', '--help']);
    expect(top.stdout.split('\n').filter((l) => /^[A-Z][A-Za-z ]*:$/.test(l))).toEqual(['Aliases:', 'Examples:', 'Options:', 'Usage:']);
    expect(top.stdout).toContain('\n\nAliases:\npod, pods, po\n\n');
    const svc = await run(['create', 'service', '--help']);
    expect(svc.stdout.startsWith('Create a Service; the subcommand says which type.\n\nAliases:\nservice, svc\n\nAvailable Commands:\n')).toBe(true);
  });

  it('prints no Examples section where kubectl prints none, and an api-resources hint unindented after the long text', async () => {
    const auth = await run(['auth', '--help']);
    expect(auth.stdout.startsWith('Find out what you are allowed to do, and who the API server takes you for.\n\nAvailable Commands:\n')).toBe(true);
    const get = await run(['get', '--help']);
    expect(get.stdout).toContain('.\n\nRun "kubectl api-resources" to see every resource type the server offers.\n\nExamples:\n  # List the Pods in the current namespace\n  kubectl get pods\n  \n');
  });
});
