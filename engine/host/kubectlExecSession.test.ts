// `kubectl exec -i [-t]`: a stream both ways from the terminal's keys through
// kubectl, the API server's pods/exec proxy and the kubelet to a shell in the
// container, in virtual time.
import { describe, expect, it } from 'vitest';
import { call, controlPlane } from '../apiserver/testing/harness';
import { ApiBridge } from './apiBridge';
import { KubectlHost } from './kubectlHost';
import { kubectlRunner, settle } from './testing';
import { runUntil } from '../scheduler/testing/cluster';
import type { KubectlStream } from './protocol';
import type { Engine } from '../facade/engine';

const FRAMES = { stepMs: 20, maxFrames: 200_000 };

function cluster(seed: number) {
  const e = controlPlane(seed, { nodes: 1, etcdMembers: 1 });
  runUntil(e, () => (e.clusterView()?.nodes.filter((n) => n.ready === 'True').length ?? 0) === 1, 'nodes Ready', 60_000, 500);
  const bridge = new ApiBridge(e);
  const host = new KubectlHost(bridge, () => e.sim.now);
  return { e, bridge, host, kubectl: kubectlRunner(e, bridge, host, FRAMES) };
}

function pod(e: Engine, name: string, image: string, command?: string[]) {
  const r = call(e, 'POST', '/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image, ...(command ? { command } : {}) }] } });
  if (r.status !== 201) throw new Error(r.text);
  runUntil(e, () => call(e, 'GET', `/api/v1/namespaces/default/pods/${name}`).body.status?.phase === 'Running', `${name} Running`, 120_000, 200);
}

/** A session: what kubectl printed so far, keys to type, and frames run until something shows. */
function session(c: ReturnType<typeof cluster>, args: string[]) {
  const out: { stream: KubectlStream; text: string }[] = [];
  const result = c.host.run(args, {}, (stream, text) => out.push({ stream, text }));
  let settled = false;
  void result.finally(() => (settled = true));
  const text = () => out.filter((o) => o.stream !== 'attach').map((o) => o.text).join('');
  const frames = async (until: () => boolean, what: string, max = 5_000) => {
    for (let i = 0; i < max && !until(); i++) {
      c.e.advance(FRAMES.stepMs);
      c.bridge.poll();
      await new Promise((r) => setImmediate(r));
    }
    if (!until()) throw new Error(`${what}; output so far: ${JSON.stringify(text())}`);
  };
  return {
    out,
    text,
    type: (data: string) => c.host.input(data),
    frames,
    /** Runs until the output ends with `tail`. */
    until: (tail: string, what = `output ending ${JSON.stringify(tail)}`) => frames(() => text().endsWith(tail), what),
    result: () => settle(c.e, c.bridge, result, FRAMES),
    get settled() {
      return settled;
    },
  };
}

describe('kubectl exec -it', () => {
  it('runs an interactive busybox shell: prompt, commands with state, sleep in virtual time, Ctrl-C, and exit', { timeout: 120_000 }, async () => {
    const c = cluster(301);
    pod(c.e, 'box', 'busybox:1.36', ['sh', '-c', 'echo ready > /tmp/state; sleep 3600']);
    const s = session(c, ['exec', '-it', 'box', '--', 'sh']);
    await s.until('/ # ', 'the prompt');
    expect(s.out[0]).toEqual({ stream: 'attach', text: 'tty' });

    s.type('echo hello from $HOSTNAME\n');
    await s.until('hello from box\r\n/ # ');
    // The shell keeps its state between lines, and its prompt follows the directory.
    s.type('cd /tmp\n');
    await s.until('/tmp # ');
    s.type('cat state; X=42\n');
    await s.until('ready\r\n/tmp # ');
    // runc gives the process a HOME (root's) when the image sets none; `cd` alone goes there.
    s.type('echo $X $HOME; cd\n');
    await s.until('42 /root\r\n~ # ');
    // containerd sets TERM=xterm for a process with a terminal; runc's HOME comes last.
    s.type('env | tail -3\n');
    await s.until('KUBERNETES_PORT_443_TCP_ADDR=10.96.0.1\r\nTERM=xterm\r\nHOME=/root\r\n~ # ');

    // A command takes its virtual time: no prompt until it is done.
    s.type('sleep 5; echo woke\n');
    const typedAt = c.e.sim.now;
    await s.until('woke\r\n~ # ');
    expect(c.e.sim.now - typedAt).toBeGreaterThanOrEqual(5_000);
    expect(c.e.sim.now - typedAt).toBeLessThan(7_000);

    // Ctrl-C interrupts the foreground command: status 130, back at the prompt.
    s.type('sleep 100\n');
    await s.frames(() => c.e.sim.now > typedAt + 9_000, 'a while');
    s.type('\x03');
    await s.until('\r\n~ # ');
    s.type('echo $?\n');
    await s.until('130\r\n~ # ');

    // A line the shell cannot parse is its error, and the session goes on.
    s.type('echo "unterminated\n');
    await s.frames(() => /sh: .+\r\n~ # $/.test(s.text()), 'the syntax error');

    s.type('exit 4\n');
    expect(await s.result()).toMatchObject({ exitCode: 4 });
    expect(s.text()).toMatch(/~ # command terminated with exit code 4\n$/);
  });

  it('gives bash its Debian prompt, sends Ctrl-D as the end of input, and kills nothing else in the container', { timeout: 120_000 }, async () => {
    const c = cluster(302);
    pod(c.e, 'web', 'nginx:1.27');
    const s = session(c, ['exec', '-it', 'web', '--', 'bash']);
    await s.until('root@web:/# ');
    s.type('cat /etc/os-release | head -1\n');
    await s.until('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\r\nroot@web:/# ');
    s.type('\x04');
    expect(await s.result()).toMatchObject({ exitCode: 0 });
    expect(s.text()).toMatch(/root@web:\/# exit\r\n$/);
    // The exec'd shell was its own process: nginx still serves.
    expect(call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status.containerStatuses[0].restartCount).toBe(0);
    expect(await c.kubectl('exec', 'web', '--', 'cat', '/etc/os-release')).toMatchObject({ exitCode: 0 });
  });
});

describe('kubectl exec -i (no TTY)', () => {
  it('reads commands from stdin without a prompt, keeps stderr apart, and ends at Ctrl-D with the last status', { timeout: 120_000 }, async () => {
    const c = cluster(303);
    pod(c.e, 'box', 'busybox:1.36', ['sleep', '3600']);
    const s = session(c, ['exec', '-i', 'box', '--', 'sh']);
    await s.frames(() => s.out.some((o) => o.stream === 'attach'), 'attach');
    expect(s.out[0]).toEqual({ stream: 'attach', text: 'pipe' });
    s.type('echo one\nls /nope\n');
    await s.frames(() => s.out.some((o) => o.stream === 'stderr' && o.text.includes('No such file')), 'the error');
    expect(s.out.filter((o) => o.stream === 'stdout').map((o) => o.text).join('')).toBe('one\n');
    expect(s.out.find((o) => o.stream === 'stderr')?.text).toBe('ls: /nope: No such file or directory\n');
    s.type('\x04');
    // What kubectl printed streamed to the terminal as it came; the result carries the exit status.
    expect(await s.result()).toMatchObject({ exitCode: 1 });
    expect(s.text()).toBe('one\nls: /nope: No such file or directory\ncommand terminated with exit code 1\n');
  });

  it('without a terminal to read (-it from a script) says it cannot use a TTY and runs with empty stdin', { timeout: 120_000 }, async () => {
    const c = cluster(304);
    pod(c.e, 'box', 'busybox:1.36', ['sleep', '3600']);
    // No terminal, no TERM: the container's own environment, runc's HOME last.
    const env = (await c.kubectl('exec', 'box', '--', 'env')).stdout.trim().split('\n');
    expect([env[0], env[1], env.at(-1), env.some((l) => l.startsWith('TERM='))]).toEqual(['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'HOSTNAME=box', 'HOME=/root', false]);
    // kubectlRunner passes no output callback: nothing to read keys from.
    expect(await c.kubectl('exec', '-it', 'box', '--', 'sh')).toEqual({ stdout: '', stderr: 'Unable to use a TTY - input is not a terminal or the right kind of file\n', exitCode: 0 });
    // -t without -i asks for no TTY at all (SetupTTY), so kubectl says nothing about it.
    expect(await c.kubectl('exec', '-t', 'box', '--', 'echo', 'hi')).toEqual({ stdout: 'hi\n', stderr: '', exitCode: 0 });
  });

  it('ends the session when the container goes away, with the exit code of a killed process', { timeout: 120_000 }, async () => {
    const c = cluster(305);
    pod(c.e, 'box', 'busybox:1.36', ['sleep', '3600']);
    const s = session(c, ['exec', '-it', 'box', '--', 'sh']);
    await s.until('/ # ');
    expect(call(c.e, 'DELETE', '/api/v1/namespaces/default/pods/box', { gracePeriodSeconds: 0 }).status).toBe(200);
    expect(await s.result()).toMatchObject({ exitCode: 137 });
    expect(s.text()).toBe('/ # command terminated with exit code 137\n');
  });
});

describe('kubectl run -i and kubectl attach', () => {
  it('run -it --rm: attaches to the shell once the pod runs, returns its exit code, and deletes the pod', { timeout: 120_000 }, async () => {
    const c = cluster(311);
    const s = session(c, ['run', '-it', '--rm', 'debug', '--image=busybox:1.36', '--restart=Never', '--', 'sh']);
    await s.until("If you don't see a command prompt, try pressing enter.\n", 'the attach hint');
    // The container keeps stdin open, so its shell waits at its prompt instead of exiting.
    const pod = call(c.e, 'GET', '/api/v1/namespaces/default/pods/debug').body;
    expect(pod.spec.containers[0]).toMatchObject({ stdin: true, stdinOnce: true, tty: true });
    expect(pod.status.phase).toBe('Running');
    // A container with a TTY has TERM=xterm from the start, before the image's environment.
    expect((await c.kubectl('exec', 'debug', '--', 'env')).stdout).toMatch(/^TERM=xterm\nPATH=/);
    // The prompt came before the attach: Enter brings a fresh one.
    s.type('\n');
    await s.until('/ # ');
    s.type('echo hi from $HOSTNAME\n');
    await s.until('hi from debug\r\n/ # ');
    s.type('exit 3\n');
    const exitedAt = c.e.sim.now;
    expect(await s.result()).toMatchObject({ exitCode: 3 });
    // The kubelet's next PLEG relist (1 s) sees the exit the input caused: the pod is Failed at once, not at some later sync.
    expect(c.e.sim.now - exitedAt).toBeLessThan(3_000);
    // No resume hint: a pod that never restarts its container cannot be attached to again.
    expect(s.text()).toMatch(/\/ # pod "debug" deleted\npod default\/debug terminated \(Error\)\n$/);
    expect(call(c.e, 'GET', '/api/v1/namespaces/default/pods/debug').status).toBe(404);
  });

  it('run -i without a terminal: a container that exits before the attach falls back to its log, and its exit code is kubectl\'s', { timeout: 120_000 }, async () => {
    const c = cluster(312);
    const r = await c.kubectl('run', '-i', '--rm', 'y', '--image=busybox:1.36', '--restart=Never', '--', 'sh', '-c', 'echo hi; exit 3');
    // The pod was Running and Ready when kubectl looked, but its process had already ended: the kubelet has nothing to attach to.
    expect(r).toEqual({
      stdout: 'hi\npod "y" deleted\n',
      stderr: 'If you don\'t see a command prompt, try pressing enter.\nwarning: couldn\'t attach to pod/y, falling back to streaming logs: unable to upgrade connection: container not found ("y")\npod default/y terminated (Error)\n',
      exitCode: 3,
    });
  });

  it('validates as RunOptions.Validate does', { timeout: 120_000 }, async () => {
    const c = cluster(313);
    expect((await c.kubectl('run', 'z', '--image=busybox', '-t')).stderr).toBe("error: -i/--stdin is required for containers with -t/--tty=true\nSee 'kubectl run -h' for help and examples\n");
    expect((await c.kubectl('run', 'z', '--image=busybox', '--rm')).stderr).toBe("error: --rm should only be used for attached containers\nSee 'kubectl run -h' for help and examples\n");
    expect((await c.kubectl('run', 'z', '--image=busybox', '-i', '--dry-run=client')).stderr).toBe(
      "error: --dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)\nSee 'kubectl run -h' for help and examples\n",
    );
    // --attach=false keeps -i from attaching: the pod is only created, with its stdin open.
    const out = await c.kubectl('run', 'z', '--image=busybox', '-i', '-t', '--attach=false', '--dry-run=client', '-o', 'json', '--', 'sh');
    expect(JSON.parse(out.stdout).spec.containers[0]).toEqual({ name: 'z', image: 'busybox', args: ['sh'], resources: {}, stdin: true, stdinOnce: true, tty: true });
    const open = await c.kubectl('run', 'z', '--image=busybox', '-i', '--leave-stdin-open', '--attach=false', '--dry-run=client', '-o', 'json', '--', 'sh');
    expect(JSON.parse(open.stdout).spec.containers[0]).toEqual({ name: 'z', image: 'busybox', args: ['sh'], resources: {}, stdin: true });
  });

  it('attach -it reaches the main process again after a session ended it and the kubelet restarted it', { timeout: 120_000 }, async () => {
    const c = cluster(314);
    const first = session(c, ['run', '-it', 'keep', '--image=busybox:1.36', '--', 'sh']);
    await first.until("If you don't see a command prompt, try pressing enter.\n");
    first.type('\n');
    await first.until('/ # ');
    first.type('exit\n');
    // restartPolicy Always: no exit code to wait for.
    expect(await first.result()).toMatchObject({ exitCode: 0 });
    expect(first.text()).toMatch(/Session ended, resume using 'kubectl attach keep -c keep -i -t' command when the pod is running\n$/);
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/keep').body.status?.containerStatuses?.[0]?.restartCount === 1, 'restarted', 60_000, 200);
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/keep').body.status?.containerStatuses?.[0]?.state?.running !== undefined, 'running again', 60_000, 200);
    const again = session(c, ['attach', 'keep', '-c', 'keep', '-i', '-t']);
    await again.until("If you don't see a command prompt, try pressing enter.\n");
    again.type('\n');
    await again.until('/ # ');
    again.type('echo back\n');
    await again.until('back\r\n/ # ');
    // The kubelet's log has what the session showed (a TTY's output goes to the container log).
    expect((await c.kubectl('logs', 'keep')).stdout).toContain('back');
    // Without -i, attach shows only output; a completed pod cannot be attached to.
    expect((await c.kubectl('attach', 'nope')).stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
  });
});

describe('kubectl debug (ephemeral containers)', () => {
  it('adds an ephemeral container to a running pod, attaches to its shell, and leaves the pod\'s own containers alone', { timeout: 120_000 }, async () => {
    const c = cluster(321);
    pod(c.e, 'web', 'nginx:1.27');
    const s = session(c, ['debug', '-it', 'web', '--image=busybox:1.36', '--target=app']);
    await s.until("If you don't see a command prompt, try pressing enter.\n", 'the attach hint');
    const name = /Defaulting debug container name to (debugger-[bcdfghjklmnpqrstvwxz2456789]{5})\.\n/.exec(s.text())?.[1];
    expect(name).toBeDefined();
    expect(s.text()).toBe(
      'Targeting container "app". If you don\'t see processes from this container it may be because the container runtime doesn\'t support this feature.\n' +
        '--profile=legacy is deprecated and will be removed in the future. It is recommended to explicitly specify a profile, for example "--profile=general".\n' +
        `Defaulting debug container name to ${name}.\n` +
        "If you don't see a command prompt, try pressing enter.\n",
    );
    const spec = call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.spec.ephemeralContainers;
    expect(spec).toEqual([{ image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', name, resources: {}, stdin: true, targetContainerName: 'app', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', tty: true }]);
    s.type('\n');
    await s.until('/ # ');
    // Its own image's file system: busybox, not nginx.
    s.type('hostname; ls /usr/share/nginx\n');
    await s.until('web\r\nls: /usr/share/nginx: No such file or directory\r\n/ # ');
    // exit takes the last command's status (ls failed): the container ends with 1, kubectl debug with 0.
    s.type('exit\n');
    expect(await s.result()).toMatchObject({ exitCode: 0 });
    expect(s.text()).toMatch(new RegExp(`Session ended, the ephemeral container will not be restarted but may be reattached using 'kubectl attach web -c ${name} -i -t' if it is still running\\n$`));
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status?.ephemeralContainerStatuses?.[0]?.state?.terminated !== undefined, 'the debug container terminated', 10_000, 200);
    const st = call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status;
    expect(st.ephemeralContainerStatuses[0]).toMatchObject({ name, ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error' } } });
    expect(st.ephemeralContainerStatuses[0].started).toBeUndefined();
    expect(st.containerStatuses[0]).toMatchObject({ name: 'app', ready: true, restartCount: 0 });
    // Never restarted.
    c.e.advance(30_000);
    expect(call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status.ephemeralContainerStatuses[0].restartCount).toBe(0);
  });

  it('without -i adds the container and returns; the API server refuses to remove or change one', { timeout: 120_000 }, async () => {
    const c = cluster(322);
    pod(c.e, 'web', 'nginx:1.27');
    // A settled pod: the kubelet has nothing of its own left to do for it, so only the spec's change wakes its worker.
    c.e.advance(120_000);
    expect(await c.kubectl('debug', 'web', '--image=busybox:1.36', '--profile=general', '-c', 'probe', '--', 'sleep', '3600')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status?.ephemeralContainerStatuses?.[0]?.state?.running !== undefined, 'probe running', 30_000, 200);
    expect((await c.kubectl('exec', 'web', '-c', 'probe', '--', 'hostname')).stdout).toBe('web\n');
    expect((await c.kubectl('describe', 'pod', 'web')).stdout).toMatch(/\nEphemeral Containers:\n {2}probe:\n/);
    const path = '/api/v1/namespaces/default/pods/web/ephemeralcontainers';
    const removed = call(c.e, 'PATCH', path, [{ op: 'remove', path: '/spec/ephemeralContainers/0' }], { headers: { 'content-type': 'application/json-patch+json' } });
    expect(removed.status).toBe(422);
    expect(removed.body.message).toBe('Pod "web" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "probe" may not be removed\n');
    const probed = call(c.e, 'PATCH', path, { spec: { ephemeralContainers: [{ name: 'p2', image: 'busybox:1.36', readinessProbe: { exec: { command: ['true'] } } }] } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    expect(probed.status).toBe(422);
    expect(probed.body.message).toMatch(/spec\.ephemeralContainers\[\d\]\.readinessProbe: Forbidden: cannot be set for an Ephemeral Container/);
    const spaced = call(c.e, 'PATCH', path, { spec: { ephemeralContainers: [{ name: 'p4', image: ' busybox:1.36' }] } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    expect(spaced.body.message).toMatch(/spec\.ephemeralContainers\[\d\]\.image: Invalid value: " busybox:1\.36": must not have leading or trailing whitespace/);
    // Only spec.ephemeralContainers changes through the subresource: a label in the same patch is dropped.
    const labelled = call(c.e, 'PATCH', path, { metadata: { labels: { x: 'y' } }, spec: { ephemeralContainers: [{ name: 'p3', image: 'busybox:1.36', command: ['sleep', '1'] }] } }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
    expect(labelled.status).toBe(200);
    expect(labelled.body.metadata.labels?.x).toBeUndefined();
    // A strategic merge without $setElementOrder puts the patch's new items first.
    expect(labelled.body.spec.ephemeralContainers.map((e: any) => e.name)).toEqual(['p3', 'probe']);
    // kubectl debug sends the order it wants: its container comes last.
    expect(await c.kubectl('debug', 'web', '--image=busybox:1.36', '--profile=general', '-c', 'last', '--', 'sleep', '5')).toMatchObject({ exitCode: 0 });
    expect(call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.spec.ephemeralContainers.map((e: any) => e.name)).toEqual(['p3', 'probe', 'last']);
    expect((await c.kubectl('debug', 'web')).stderr).toBe('error: you must specify --image when not using --copy-to.\n');
    expect((await c.kubectl('debug', 'web', '--image=busybox', '-t')).stderr).toBe('error: -i/--stdin is required for containers with -t/--tty=true\n');
    expect((await c.kubectl('debug', 'web', '--image=busybox', '--profile=bogus')).stderr).toBe('error: unknown profile: bogus\n');
  });
});

describe('kubectl debug --copy-to', () => {
  it('copies the pod without its labels, node and probes, adds or changes a container, and attaches to it', { timeout: 120_000 }, async () => {
    const c = cluster(331);
    const r = call(c.e, 'POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 } } }] },
    });
    expect(r.status).toBe(201);
    runUntil(c.e, () => call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.status?.phase === 'Running', 'web Running', 60_000, 200);

    const added = await c.kubectl('debug', 'web', '--copy-to=web-copy', '--image=busybox:1.36', '--profile=general', '--attach=false', '--', 'sleep', '100');
    const name = /^Defaulting debug container name to (debugger-\w{5})\.\n$/.exec(added.stderr)?.[1];
    expect(name, added.stderr).toBeDefined();
    const copy = call(c.e, 'GET', '/api/v1/namespaces/default/pods/web-copy').body;
    expect(copy.metadata.labels).toBeUndefined();
    expect(copy.spec.shareProcessNamespace).toBeUndefined();
    expect(copy.spec.containers.map((x: any) => [x.name, x.image, x.command ?? null])).toEqual([
      ['app', 'nginx:1.27', null],
      [name, 'busybox:1.36', ['sleep', '100']],
    ]);
    expect(copy.spec.containers[0].readinessProbe).toBeUndefined();

    const images = await c.kubectl('debug', 'web', '--copy-to=web-bb', '--set-image=*=busybox:1.36', '--share-processes=true', '--profile=general');
    expect(images).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const bb = call(c.e, 'GET', '/api/v1/namespaces/default/pods/web-bb').body.spec;
    expect([bb.containers.map((x: any) => x.image), bb.shareProcessNamespace]).toEqual([['busybox:1.36'], true]);

    // -c names a container of the pod: the copy runs it with the new command, and kubectl attaches to it.
    const s = session(c, ['debug', 'web', '-it', '--copy-to=web-sh', '--container=app', '--profile=general', '--', 'sh']);
    await s.until("If you don't see a command prompt, try pressing enter.\n", 'the attach hint');
    s.type('\n');
    await s.until('# ');
    s.type('nginx -v\n');
    await s.until('nginx version: nginx/1.27.5\r\n# ');
    s.type('exit\n');
    expect(await s.result()).toMatchObject({ exitCode: 0 });
    expect(s.text()).toMatch(/Session ended, resume using 'kubectl attach web-sh -c app -i -t' command when the pod is running\n$/);
    expect(call(c.e, 'GET', '/api/v1/namespaces/default/pods/web').body.spec.containers[0].command).toBeUndefined();
  });
});
