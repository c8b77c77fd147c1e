// kubectl in a host: runs the kubectl module against the simulation through
// the API bridge, keeps `kubectl edit` sessions waiting for the editor, and
// applies a multi-document YAML buffer one document at a time.
import { parseAllDocuments } from 'yaml';
import { runKubectl, type EditRequest, type KubectlResult } from '../kubectl';
import { completeKubectl } from '../kubectl/complete';
import type { ApiBridge } from './apiBridge';
import type { ApplyDocResult, KubectlOutput } from './protocol';

export class KubectlHost {
  private readonly edits = new Map<number, EditRequest>();
  private nextEdit = 1;

  constructor(
    private readonly bridge: ApiBridge,
    private readonly now: () => number,
  ) {}

  private env(files: Record<string, string>) {
    return { transport: this.bridge, files, now: this.now, namespace: 'default' };
  }

  async run(args: string[], files: Record<string, string> = {}): Promise<KubectlOutput> {
    const a = args[0] === 'kubectl' ? args.slice(1) : args;
    return this.output(await runKubectl(a, this.env(files)));
  }

  async editDone(editId: number, text: string): Promise<KubectlOutput> {
    const e = this.edits.get(editId);
    if (!e) return { stdout: '', stderr: 'error: this edit session has ended\n', exitCode: 1 };
    this.edits.delete(editId);
    return this.output(await e.resume(text));
  }

  complete(line: string): Promise<string[]> {
    return Promise.resolve(completeKubectl(line, this.env({}))).then((r) => r as string[]);
  }

  private output(r: KubectlResult): KubectlOutput {
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
