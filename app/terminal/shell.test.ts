import { describe, expect, it } from 'vitest';
import type { KubectlOutput } from '../../engine/host/protocol';
import { PAUSED_NOTICE, Shell, type EditHandle, type ShellDeps } from './shell';

/** Strips escape sequences so assertions read like the screen. */
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');

interface Harness {
  shell: Shell;
  out: () => string;
  raw: () => string;
  fail(err: Error): void;
  calls: { args: string[]; files: Record<string, string> }[];
  completions: string[];
  history: () => string[];
  setPlaying(p: boolean): void;
  answer(o: KubectlOutput): void;
  edits: { content: string; finish(text: string | null): void }[];
  editDone: { id: number; text: string }[];
}

function harness(opts: { playing?: boolean; history?: string[]; complete?: string[] } = {}): Harness {
  let written = '';
  let playing = opts.playing ?? true;
  let saved = opts.history ?? [];
  const listeners = new Set<(p: boolean) => void>();
  const calls: Harness['calls'] = [];
  const completions: string[] = [];
  const edits: Harness['edits'] = [];
  const editDone: Harness['editDone'] = [];
  let pending: ((o: KubectlOutput) => void) | null = null;
  let pendingFail: ((e: Error) => void) | null = null;
  const deps: ShellDeps = {
    kubectl: (args, files) => {
      calls.push({ args, files });
      return new Promise((r, j) => {
        pending = r;
        pendingFail = j;
      });
    },
    editDone: (id, text) => {
      editDone.push({ id, text });
      return new Promise((r) => (pending = r));
    },
    complete: (line) => {
      completions.push(line);
      return Promise.resolve(opts.complete ?? []);
    },
    editorText: () => 'kind: ConfigMap',
    openEdit: (edit) => {
      let finish!: (t: string | null) => void;
      const done = new Promise<string | null>((r) => (finish = r));
      edits.push({ content: edit.content, finish });
      const h: EditHandle = { done, cancel: () => finish(null) };
      return h;
    },
    isPlaying: () => playing,
    onPlayingChange: (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    loadHistory: () => saved,
    saveHistory: (h) => (saved = [...h]),
    pauseNoticeDelayMs: 0,
  };
  const shell = new Shell(deps);
  shell.attach({ write: (s) => (written += s), cols: () => 80 });
  return {
    shell,
    out: () => plain(written),
    raw: () => written,
    fail(err) {
      pendingFail?.(err);
    },
    calls,
    completions,
    history: () => saved,
    setPlaying(p) {
      playing = p;
      for (const l of listeners) l(p);
    },
    answer(o) {
      const p = pending;
      pending = null;
      p?.(o);
    },
    edits,
    editDone,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Shell', () => {
  it('runs kubectl with shell quoting and the editor buffer, prints stdout and stderr, then prompts again', async () => {
    const h = harness();
    h.shell.input(`kubectl get cm -l 'app in (a,b)'\r`);
    expect(h.calls).toEqual([{ args: ['get', 'cm', '-l', 'app in (a,b)'], files: { editor: 'kind: ConfigMap' } }]);
    expect(h.shell.busy).toBe(true);
    h.answer({ stdout: 'NAME   DATA\nx      1\n', stderr: 'Warning: something\n', exitCode: 0 });
    await tick();
    expect(h.shell.busy).toBe(false);
    expect(h.out()).toContain('NAME   DATA\nx      1\nWarning: something\n$ ');
    expect(h.history()).toEqual([`kubectl get cm -l 'app in (a,b)'`]);
  });

  it('colours stderr red', async () => {
    const h = harness();
    h.shell.input('k get secrets\r');
    h.answer({ stdout: '', stderr: 'Error from server (Forbidden): no\nsecond line\n', exitCode: 1 });
    await tick();
    expect(h.calls[0]!.args).toEqual(['get', 'secrets']);
    expect(h.raw()).toContain('\x1b[31mError from server (Forbidden): no\x1b[0m\r\n\x1b[31msecond line\x1b[0m\r\n');
  });

  it('says when a command waits on a paused simulation, and when it pauses later', async () => {
    const h = harness({ playing: false });
    h.shell.input('kubectl get ns\r');
    expect(h.out()).not.toContain(PAUSED_NOTICE);
    await tick();
    expect(h.out()).toContain(PAUSED_NOTICE);
    h.answer({ stdout: 'ok\n', stderr: '', exitCode: 0 });
    await tick();

    const h2 = harness();
    h2.shell.input('kubectl get ns\r');
    expect(h2.out()).not.toContain(PAUSED_NOTICE);
    h2.setPlaying(false);
    expect(h2.out()).toContain(PAUSED_NOTICE);
  });

  it('keeps input typed while a command runs for the next prompt; Ctrl-C disowns the command', async () => {
    const h = harness();
    h.shell.input('kubectl get ns\rkubectl get pods\r');
    expect(h.calls).toHaveLength(1);
    h.answer({ stdout: 'a\n', stderr: '', exitCode: 0 });
    await tick();
    expect(h.calls.map((c) => c.args)).toEqual([['get', 'ns'], ['get', 'pods']]);
    h.shell.input('\x03');
    expect(h.shell.busy).toBe(false);
    h.answer({ stdout: 'late\n', stderr: '', exitCode: 0 });
    await tick();
    expect(h.out()).not.toContain('late');
  });

  it('has clear, help, history and an unknown-command message', () => {
    const h = harness({ history: ['kubectl get ns'] });
    h.shell.input('help\r');
    expect(h.out()).toContain('kubectl apply -f editor');
    h.shell.input('history\r');
    expect(h.out()).toMatch(/1 {2}kubectl get ns\n\s+2 {2}help/);
    h.shell.input('ls\r');
    expect(h.out()).toContain('ls: command not found');
    h.shell.input(`kubectl 'get\r`);
    expect(h.out()).toContain('unexpected EOF');
    expect(h.calls).toHaveLength(0);
  });

  it('help images lists what the fake runtime runs', () => {
    const h = harness();
    h.shell.input('help images\r');
    expect(h.out()).toContain('kubeglass/ignore-sigterm');
    expect(h.out()).toContain('polinux/stress');
    expect(h.calls).toHaveLength(0);
  });

  it('recalls history with the up arrow', () => {
    const h = harness({ history: ['kubectl get ns'] });
    h.shell.input('\x1b[A\r');
    expect(h.calls[0]!.args).toEqual(['get', 'ns']);
  });

  it('completes through kubectl with the full line, and the command word locally', async () => {
    const h = harness({ complete: ['namespaces'] });
    h.shell.input('k get na\t');
    await tick();
    expect(h.completions).toEqual(['kubectl get na']);
    h.shell.input('\r');
    expect(h.calls[0]!.args).toEqual(['get', 'namespaces']);

    const h2 = harness();
    h2.shell.input('cle\t\r');
    expect(h2.completions).toEqual([]);
    expect(h2.out()).not.toContain('command not found');
  });

  it('runs kubectl edit through the editor: Save sends the text, Cancel sends it back unchanged', async () => {
    const h = harness();
    h.shell.input('kubectl edit cm x\r');
    h.answer({ stdout: '', stderr: '', exitCode: 0, edit: { editId: 3, path: '/tmp/kubectl-edit-1.yaml', content: 'data: {}' } });
    await tick();
    expect(h.out()).toContain('Editing /tmp/kubectl-edit-1.yaml in the Editor');
    h.edits[0]!.finish('data: {a: b}');
    await tick();
    expect(h.editDone).toEqual([{ id: 3, text: 'data: {a: b}' }]);
    // An invalid edit re-opens the editor, as kubectl does.
    h.answer({ stdout: '', stderr: '', exitCode: 0, edit: { editId: 4, path: '/tmp/kubectl-edit-2.yaml', content: '# error\ndata: {}' } });
    await tick();
    h.edits[1]!.finish(null);
    await tick();
    expect(h.editDone[1]).toEqual({ id: 4, text: '# error\ndata: {}' });
    h.answer({ stdout: 'Edit cancelled, no changes made.\n', stderr: '', exitCode: 0 });
    await tick();
    expect(h.shell.busy).toBe(false);
    expect(h.out()).toContain('Edit cancelled, no changes made.\n$ ');
  });

  it('prints a failed call as an error', async () => {
    const h = harness();
    h.shell.input('kubectl get ns\r');
    h.fail(new Error('Error: worker: init() has not been called'));
    await tick();
    expect(h.out()).toContain('worker: init() has not been called\n$ ');
    expect(h.shell.busy).toBe(false);
  });
});
