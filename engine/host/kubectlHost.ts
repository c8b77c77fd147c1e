// kubectl in a host: runs the kubectl module against the simulation through
// the API bridge, keeps `kubectl edit` sessions waiting for the editor, and
// applies a multi-document YAML buffer one document at a time.
import { epochMs } from '../apiserver/http/time';
import { parseAllDocuments } from 'yaml';
import { completeKubectl, runKubectl, type EditRequest, type KubectlEnv, type KubectlResult } from '../kubectl';
import type { ApiBridge } from './apiBridge';
import type { ApplyDocResult, KubectlOutput, KubectlStream } from './protocol';

export class KubectlHost {
  private readonly edits = new Map<number, EditRequest>();
  private nextEdit = 1;
  /** The context's namespace (`kubectl config set-context --current --namespace=x` changes it). */
  private namespace = 'default';

  constructor(
    private readonly bridge: ApiBridge,
    private readonly now: () => number,
  ) {}

  private env(files: Record<string, string>): KubectlEnv {
    return { transport: this.bridge, files, now: () => epochMs() + this.now(), namespace: this.namespace, server: 'https://10.0.0.10:6443', tty: true, sleep: (ms) => this.bridge.sleep(ms, this.now) };
  }

  /** Ctrl-C for each running command (the terminal runs one at a time). */
  private readonly interrupts = new Set<() => void>();

  /**
   * Runs one command line. With `onOutput`, output is streamed as kubectl
   * produces it (a watch prints as events come) and the answer carries only
   * what was not streamed.
   */
  async run(args: string[], files: Record<string, string> = {}, onOutput?: (stream: KubectlStream, text: string) => void): Promise<KubectlOutput> {
    const a = args[0] === 'kubectl' ? args.slice(1) : args;
    // Commands typed while the cluster boots run once it is up.
    await this.bridge.whenReady();
    const env = this.env(files);
    const streamed = { stdout: '', stderr: '' };
    if (onOutput) {
      env.onOutput = (stream, text) => {
        streamed[stream] += text;
        onOutput(stream, text);
      };
      // The terminal passes its keys on from here (input()), raw for a TTY session.
      env.onAttach = (tty) => onOutput('attach', tty ? 'tty' : 'pipe');
      env.input = { subscribe: (cb) => this.listenInput(cb) };
    }
    let stop!: () => void;
    env.interrupt = new Promise<void>((resolve) => (stop = resolve));
    this.interrupts.add(stop);
    try {
      const out = this.output(await runKubectl(a, env));
      if (out.stdout.startsWith(streamed.stdout)) out.stdout = out.stdout.slice(streamed.stdout.length);
      if (out.stderr.startsWith(streamed.stderr)) out.stderr = out.stderr.slice(streamed.stderr.length);
      return out;
    } finally {
      this.interrupts.delete(stop);
    }
  }

  private readonly inputs = new Set<(data: string) => void>();

  private listenInput(cb: (data: string) => void): () => void {
    this.inputs.add(cb);
    return () => this.inputs.delete(cb);
  }

  /** What the user typed while a command reads the terminal (kubectl exec -i). */
  input(data: string): void {
    for (const cb of [...this.inputs]) cb(data);
  }

  /** Ends the running commands' watches (Ctrl-C). */
  interrupt(): void {
    for (const stop of [...this.interrupts]) stop();
  }

  async editDone(editId: number, text: string): Promise<KubectlOutput> {
    const e = this.edits.get(editId);
    if (!e) return { stdout: '', stderr: 'error: this edit session has ended\n', exitCode: 1 };
    this.edits.delete(editId);
    return this.output(await e.resume(text));
  }

  async complete(line: string): Promise<string[]> {
    await this.bridge.whenReady();
    return completeKubectl(line, this.env({}));
  }

  private output(r: KubectlResult): KubectlOutput {
    if (r.context?.namespace) this.namespace = r.context.namespace;
    const out: KubectlOutput = { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
    if (r.edit) {
      const id = this.nextEdit++;
      this.edits.set(id, r.edit);
      out.edit = { editId: id, path: r.edit.path, content: r.edit.content };
    }
    return out;
  }

  /** Every document of the buffer through `kubectl apply`, each answered at its first line. */
  async apply(text: string): Promise<ApplyDocResult[]> {
    await this.bridge.whenReady();
    const docs = parseAllDocuments(text, { uniqueKeys: false });
    const list = Array.isArray(docs) ? docs : [docs];
    const lineOf = lineIndex(text);
    const results: ApplyDocResult[] = [];
    let index = 0;
    for (const doc of list) {
      const start = doc.range?.[0] ?? 0;
      const line = lineOf(firstContent(text, start));
      if (doc.errors.length > 0) {
        const err = doc.errors[0]!;
        const pos = err.linePos?.[0];
        results.push({ index, line, ok: false, message: `error: error parsing editor: error converting YAML to JSON: yaml: line ${pos?.line ?? line}: ${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, errorLine: pos?.line, errorColumn: pos?.col });
        index++;
        continue;
      }
      const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
      if (value === null || value === undefined) continue; // an empty document
      const body = doc.toString();
      const r = await runKubectl(['apply', '-f', 'editor'], this.env({ editor: body }));
      const msg = (r.exitCode === 0 ? r.stdout : r.stderr || r.stdout).trim();
      results.push({ index, line, ok: r.exitCode === 0, message: msg });
      index++;
    }
    return results;
  }
}

function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The first non-blank, non-comment, non-separator position at or after `from`. */
function firstContent(text: string, from: number): number {
  let i = from;
  for (;;) {
    const end = text.indexOf('\n', i);
    const line = text.slice(i, end < 0 ? text.length : end).trim();
    if (line !== '' && !line.startsWith('#') && line !== '---') return i;
    if (end < 0) return from;
    i = end + 1;
  }
}
