// The streams of kubectl exec -i and kubectl attach (client-go's
// tools/remotecommand over v5.channel.k8s.io): the terminal's keys go out on
// stdin as they are typed — raw with a TTY, so Ctrl-C and Ctrl-D reach the
// container's terminal; without one Ctrl-D closes stdin — and stdout, stderr
// and the error channel's Status come back, until the server ends the stream.
import type { Ctx } from '../cli/context';
import { errs, fail } from '../client/errors';
import { statusFromResponse } from '../client/rest';
import { CLOSE_STDIN, ERROR, exitCodeOf, frame, STDERR, STDIN, STDOUT, unframe, type ExecStatus } from '../../apiserver/http/execStream';

/** How a stream ended: the error channel's Status, none (the stream broke), Ctrl-C, or no stream to be had. */
export type StreamEnd = { status: ExecStatus | null } | 'interrupt' | 'unsupported';

export async function remoteStream(ctx: Ctx, path: string, query: Record<string, string | string[]>, tty: boolean): Promise<StreamEnd> {
  let status: ExecStatus | null = null;
  const s = ctx.client.stream('POST', path, { query: query as Record<string, string> }, (chunk) => {
    const { channel, data } = unframe(chunk);
    if (channel === STDOUT) ctx.io.out(data);
    else if (channel === STDERR) ctx.io.err(data);
    else if (channel === ERROR) status = JSON.parse(data) as ExecStatus;
  });
  if (!s) return 'unsupported';
  const input = query.stdin === 'true' ? ctx.env.input : undefined;
  let unsubscribe = () => {};
  if (input) {
    ctx.env.onAttach?.(tty);
    unsubscribe = input.subscribe((data) => {
      if (tty) return s.send(frame(STDIN, data));
      // A pipe has no Ctrl-D: the terminal's EOF closes it.
      const eof = data.indexOf('\x04');
      const text = eof < 0 ? data : data.slice(0, eof);
      if (text) s.send(frame(STDIN, text));
      if (eof >= 0) s.send(CLOSE_STDIN);
    });
  } else if (query.stdin === 'true') s.send(CLOSE_STDIN);
  const interrupted = ctx.env.interrupt?.then(() => 'interrupt' as const);
  const end = await Promise.race([s.done, ...(interrupted ? [interrupted] : [])]);
  unsubscribe();
  if (end === 'interrupt') {
    s.cancel();
    return 'interrupt';
  }
  if (end && end.status !== 101) {
    // The upgrade was refused: the server's error, or a command that could not start.
    const st = statusFromResponse(end, 'POST');
    if (st.code === 500) fail(errs.plain(st.message ?? ''));
    fail(errs.plain(`unable to upgrade connection: ${st.message ?? ''}`));
  }
  return { status };
}

/** An exec's end as kubectl reports it: nothing for 0, "command terminated with exit code N" otherwise. */
export function exitWith(end: Exclude<StreamEnd, 'unsupported'>): void {
  if (end === 'interrupt') return;
  const st = end.status;
  // The stream broke before the error channel spoke (the kubelet or the connection went away).
  if (!st) fail(errs.plain('websocket: close 1006 (abnormal closure): unexpected EOF'));
  const code = exitCodeOf(st);
  if (code === null) fail(errs.plain(st.message ?? 'error executing remote command'));
  if (code !== 0) fail(errs.raw(`command terminated with exit code ${code}`, code));
}
