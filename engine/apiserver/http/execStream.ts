// The framing of an exec stream, as the channel.k8s.io protocols frame it
// (k8s.io/apimachinery/pkg/util/remotecommand, client-go's
// tools/remotecommand): every message starts with one byte naming its
// channel — 0 stdin, 1 stdout, 2 stderr, 3 the error channel (a Status when
// the command has ended), 4 resize — and v5.channel.k8s.io adds a close
// message (255, then the channel closed) for the end of stdin.

export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
const CLOSE = 255;

/** The WebSocket subprotocol kubectl v1.32 asks for first. */
export const EXEC_PROTOCOL = 'v5.channel.k8s.io';

/** The client closed stdin (Ctrl-D without a terminal, the end of piped input). */
export const CLOSE_STDIN = String.fromCharCode(CLOSE, STDIN);

export function frame(channel: number, data: string): string {
  return String.fromCharCode(channel) + data;
}

export function unframe(chunk: string): { channel: number; data: string } {
  return { channel: chunk.charCodeAt(0), data: chunk.slice(1) };
}

/** The error channel's Status (metav1.Status as JSON). */
export interface ExecStatus {
  kind?: string;
  apiVersion?: string;
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
}

/**
 * The error channel's last word (the kubelet's streaming server): Success, or
 * a NonZeroExitCode Failure whose ExitCode cause is the code, which kubectl
 * turns into "command terminated with exit code N".
 */
export function exitStatus(code: number, argv: readonly string[]): ExecStatus {
  if (code === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${argv.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  };
}

/** The exit code an error-channel Status reports (0 for Success); null when it is another failure. */
export function exitCodeOf(st: ExecStatus): number | null {
  if (st.status === 'Success') return 0;
  if (st.reason !== 'NonZeroExitCode') return null;
  const n = Number(st.details?.causes?.find((c) => c.reason === 'ExitCode')?.message);
  return Number.isInteger(n) ? n : null;
}

/** The body of an exec without stdin, as the kubelet answers it when the command has ended: {stdout, stderr, exitCode}. */
export const EXEC_CONTENT_TYPE = 'application/vnd.kubeglass.exec+json';
