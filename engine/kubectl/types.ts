// kubectl's contract with its host: a transport to the API server, the files
// `-f` can name, the virtual clock, and what a run produces.
import type { ApiRequest, ApiResponse } from '../apiserver/types';

export interface KubectlTransport {
  request(req: ApiRequest): Promise<ApiResponse>;
  /** A watch: each JSON event line is passed to onLine; done settles when the server ends the stream (null) or refuses it (the response). */
  watch(req: ApiRequest, onLine: (line: string) => void): { cancel(): void; done: Promise<ApiResponse | null> };
  /** A stream both ways (an upgraded exec): chunks as they come, `send` writes to it. Absent: the transport cannot. */
  stream?(req: ApiRequest, onChunk: (chunk: string) => void): { send(chunk: string): void; cancel(): void; done: Promise<ApiResponse | null> };
}

/** What the user types while a command reads the terminal (`kubectl exec -i`). */
export interface KubectlInput {
  /** Calls back with each piece of input (text, Ctrl-C as \x03, Ctrl-D as \x04); returns an unsubscribe. */
  subscribe(cb: (data: string) => void): () => void;
}

export interface KubectlEnv {
  transport: KubectlTransport;
  /** What `-f NAME` can read: bundled examples and the editor buffer. A key `dir/x.yaml` makes `-f dir` a directory. */
  files: Record<string, string>;
  /** Virtual time in ms (ages, timestamps). */
  now(): number;
  /** The context's namespace (default "default"). */
  namespace?: string;
  /** The context's user, shown in messages; the server decides who we are. */
  user?: string;
  /** The API server URL the kubeconfig names (cluster-info prints it). */
  server?: string;
  /** The terminal's keyboard, for commands that attach stdin (-i). Absent: stdin is empty. */
  input?: KubectlInput;
  /** kubectl now reads the terminal: the host passes keys through (raw for a TTY session) until the command ends. */
  onAttach?(tty: boolean): void;
  /** What `-f -` reads. */
  stdin?: string;
  /** Streaming output (watches): called with each chunk as it is produced; the result still carries the whole text. */
  onOutput?(stream: 'stdout' | 'stderr', text: string): void;
  /** Settles when the user interrupts (Ctrl-C): ends a watch. */
  interrupt?: Promise<void>;
  /** Stdout is a terminal (the in-page one), not a pipe: commands that print differently for people (create token's newline) do. */
  tty?: boolean;
  /** Waits `ms` of the cluster's (virtual) time: kubectl's time.Sleep and poll intervals (drain). Absent: no wait. */
  sleep?(ms: number): Promise<void>;
}

/** kubectl edit hands the UI a buffer; resume() continues with the edited text (or the same text to cancel). */
export interface EditRequest {
  /** The temp file name kubectl would use (`/tmp/kubectl-edit-xxxx.yaml`). */
  path: string;
  content: string;
  resume(edited: string): Promise<KubectlResult>;
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  edit?: EditRequest;
  /** The kubeconfig context changed (`config set-context --current --namespace=x`): use this namespace from now on. */
  context?: { namespace: string };
}
