// The Kubernetes control plane as a user meets it: kubectl in the terminal,
// YAML applied from the editor, and every request's chain of stages in the
// API server view.
import { expect, test, type Page } from '@playwright/test';
import { FAST, shot } from './helpers';

async function openTerminal(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Terminal' }).click();
  await expect(page.locator('.xterm-host[data-state="ready"]')).toBeVisible();
  await page.locator('.xterm-helper-textarea').focus();
}

async function run(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

const terminalText = (page: Page) => page.evaluate(() => window.__kubeglass!.terminalText());

/** What the terminal printed after the last prompt line that ran `line`. */
async function outputOf(page: Page, line: string): Promise<string> {
  const text = await terminalText(page);
  const at = text.lastIndexOf(`$ ${line}`);
  return at < 0 ? '' : text.slice(at + line.length + 2);
}

async function openEditor(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Editor' }).click();
  await expect(page.locator('.monaco-el[data-state="ready"]')).toBeVisible();
}

async function openApiServer(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'API server' }).click();
  await expect(page.getByRole('region', { name: 'API requests' })).toBeVisible();
}

test('kubectl get ns in the terminal lists the four system namespaces', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl get ns');
  await expect
    .poll(() => outputOf(page, 'kubectl get ns'), { message: 'kubectl get ns printed its table', intervals: FAST })
    .toMatch(/^NAME\s+STATUS\s+AGE/m);
  const out = await outputOf(page, 'kubectl get ns');
  for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) expect(out).toMatch(new RegExp(`^${ns}\\s+Active\\s`, 'm'));
  // History: the up arrow brings the command back.
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => terminalText(page)).toMatch(/\$ kubectl get ns\s*$/);
  await page.keyboard.press('Control+C');
  await shot(page, 'terminal');
});

test('kubectl get -w streams rows as objects change; a bundled example applies by name; Ctrl-C ends the watch', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl get cm -w');
  await expect.poll(() => outputOf(page, 'kubectl get cm -w'), { intervals: FAST }).toMatch(/^kube-root-ca\.crt\s+1\s/m);
  // The watch keeps running: a second shell line is typed ahead, so create through the editor instead.
  await openEditor(page);
  await page.getByRole('button', { name: 'Apply' }).click();
  await openTerminal(page);
  await expect.poll(() => outputOf(page, 'kubectl get cm -w'), { message: 'the new ConfigMap streamed in', intervals: FAST }).toMatch(/^game-config\s+2\s/m);
  await page.keyboard.press('Control+C');
  await run(page, 'kubectl apply -f examples/service.yaml');
  await expect.poll(() => outputOf(page, 'kubectl apply -f examples/service.yaml'), { intervals: FAST }).toContain('service/web created');
  await shot(page, 'terminal-watch');
});

test('kubectl exec -it runs an interactive shell in a pod: its prompt, commands with state, Ctrl-C, exit', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl run box --image=busybox:1.36 -- sleep 3600');
  await run(page, 'kubectl wait --for=condition=Ready pod/box --timeout=120s');
  await expect.poll(() => outputOf(page, 'kubectl wait --for=condition=Ready pod/box --timeout=120s'), { timeout: 60_000, intervals: FAST }).toContain('pod/box condition met');
  await run(page, 'kubectl exec -it box -- sh');
  await expect.poll(() => terminalText(page), { message: 'the shell prompts', intervals: FAST }).toMatch(/\/ # $/);
  await run(page, 'cd /tmp; echo "hello from $HOSTNAME" > note');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/\/tmp # $/);
  await run(page, 'cat note');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/^hello from box\s*\n\/tmp # $/m);
  await run(page, 'sleep 600');
  await page.keyboard.press('Control+C');
  await expect.poll(() => terminalText(page), { message: 'Ctrl-C ends the sleep, not the session', intervals: FAST }).toMatch(/sleep 600\s*\n\^C\s*\n\/tmp # $/);
  await shot(page, 'terminal-exec-it');
  await run(page, 'exit 3');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/command terminated with exit code 3\s*\n\$ $/);
  // Back in the playground's shell: its commands run again.
  await run(page, 'kubectl get pod box');
  await expect.poll(() => outputOf(page, 'kubectl get pod box'), { intervals: FAST }).toMatch(/^box\s+1\/1\s+Running\s+0\s/m);
});

test('kubectl run -it --rm attaches to a new pod\'s shell, and deletes the pod when it exits', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl run -it --rm debug --image=busybox:1.36 --restart=Never -- sh');
  await expect.poll(() => terminalText(page), { message: 'kubectl attached', timeout: 60_000, intervals: FAST }).toMatch(/If you don't see a command prompt, try pressing enter\.\s*$/);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { message: 'a fresh prompt', intervals: FAST }).toMatch(/\/ # $/);
  await run(page, 'hostname');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/^debug\s*\n\/ # $/m);
  await shot(page, 'terminal-run-it');
  await run(page, 'exit');
  await expect.poll(() => terminalText(page), { message: 'the session ended and the pod went', intervals: FAST }).toMatch(/\/ # exit\s*\npod "debug" deleted\s*\n\$ $/);
});

test('a pod reaches another pod by its IP: wget in an attached shell gets nginx\'s page, and nginx logs the request', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl run web --image=nginx:1.27');
  await run(page, 'kubectl wait --for=condition=Ready pod/web --timeout=120s');
  await expect.poll(() => outputOf(page, 'kubectl wait --for=condition=Ready pod/web --timeout=120s'), { timeout: 60_000, intervals: FAST }).toContain('pod/web condition met');
  await run(page, 'kubectl get pod web -o jsonpath={.status.podIP}');
  await expect.poll(() => outputOf(page, 'kubectl get pod web -o jsonpath={.status.podIP}'), { intervals: FAST }).toMatch(/^\s*10\.244\.\d+\.\d+/);
  const ip = /10\.244\.\d+\.\d+/.exec(await outputOf(page, 'kubectl get pod web -o jsonpath={.status.podIP}'))![0];
  await run(page, 'kubectl run -it --rm client --image=busybox:1.36 --restart=Never -- sh');
  await expect.poll(() => terminalText(page), { message: 'kubectl attached', timeout: 60_000, intervals: FAST }).toMatch(/If you don't see a command prompt, try pressing enter\.\s*$/);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/\/ # $/);
  await run(page, `wget -qO- ${ip} | grep h1`);
  await expect.poll(() => terminalText(page), { message: 'nginx answered over the pod network', intervals: FAST }).toMatch(/^<h1>Welcome to nginx!<\/h1>\s*\n\/ # $/m);
  await run(page, `wget ${ip}:8080`);
  await expect.poll(() => terminalText(page), { message: 'nothing listens on 8080', intervals: FAST }).toMatch(new RegExp(`wget: can't connect to remote host \\(${ip.replace(/\./g, '\\.')}\\): Connection refused\\s*\\n/ # $`));
  await shot(page, 'terminal-pod-network');
  await run(page, 'exit 0');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/pod "client" deleted\s*\n\$ $/);
  await run(page, 'kubectl logs web --tail=1');
  await expect.poll(() => outputOf(page, 'kubectl logs web --tail=1'), { message: 'nginx logged the wget', intervals: FAST }).toMatch(/^\s*10\.244\.\d+\.\d+ - - \[[^\]]+\] "GET \/ HTTP\/1\.1" 200 \d+ "-" "Wget" "-"/);
});

test('kubectl debug -it adds an ephemeral container to a running pod and attaches to its shell', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl run web --image=nginx:1.27');
  await run(page, 'kubectl wait --for=condition=Ready pod/web --timeout=120s');
  await expect.poll(() => outputOf(page, 'kubectl wait --for=condition=Ready pod/web --timeout=120s'), { timeout: 60_000, intervals: FAST }).toContain('pod/web condition met');
  await run(page, 'kubectl debug -it web --image=busybox:1.36 --target=web --profile=general');
  await expect.poll(() => terminalText(page), { message: 'kubectl attached to the debug container', timeout: 60_000, intervals: FAST }).toMatch(/Defaulting debug container name to debugger-\w{5}\.\s*\nIf you don't see a command prompt, try pressing enter\.\s*$/);
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/\/ # $/);
  await run(page, 'ls /usr/share/nginx');
  await expect.poll(() => terminalText(page), { message: 'the debug container has its own image', intervals: FAST }).toMatch(/ls: \/usr\/share\/nginx: No such file or directory\s*\n\/ # $/);
  await shot(page, 'terminal-debug-it');
  await run(page, 'exit');
  await expect.poll(() => terminalText(page), { intervals: FAST }).toMatch(/Session ended, the ephemeral container will not be restarted but may be reattached using 'kubectl attach web -c debugger-\w{5} -i -t' if it is still running\s*\n\$ $/);
  await run(page, 'kubectl get pod web -o jsonpath={.status.ephemeralContainerStatuses[0].state.terminated.exitCode}');
  await expect.poll(() => outputOf(page, 'kubectl get pod web -o jsonpath={.status.ephemeralContainerStatuses[0].state.terminated.exitCode}'), { message: 'the debug container ended with ls\'s status', intervals: FAST }).toMatch(/^\s*1\s*\n/);
});

test('a command waits while the simulation is paused, and says so', async ({ page }) => {
  await page.goto('/?speed=10&paused=1');
  await openTerminal(page);
  await run(page, 'kubectl get ns');
  await expect.poll(() => terminalText(page)).toContain('waiting — the simulation is paused; press Play');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect.poll(() => outputOf(page, 'kubectl get ns'), { intervals: FAST }).toMatch(/^kube-system\s+Active/m);
});

test('applying a ConfigMap from the editor shows "created" inline and its request, stage by stage', async ({ page }) => {
  await page.goto('/?speed=10');
  await openApiServer(page);
  await openEditor(page);
  await page.getByRole('combobox', { name: 'Load an example' }).selectOption('configmap');
  await page.getByRole('button', { name: /^Apply/ }).click();
  const result = page.getByTestId('apply-result');
  await expect(result).toHaveCount(1);
  await expect(result).toHaveText(/configmap\/game-config created/);
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('apply-summary')).toContainText('1 applied');

  // The create request in the API server view.
  await page.getByRole('combobox', { name: 'Verb' }).selectOption('create');
  await page.getByRole('combobox', { name: 'Resource' }).selectOption('configmaps');
  // A create names no object in its URL (RequestInfo), only the namespace.
  const row = page.getByRole('button', { name: /^Inspect request \d+: kubernetes-admin create configmaps default(\/game-config)? 201$/ }).first();
  await expect(row).toBeVisible();
  await row.click();
  const details = page.getByRole('region', { name: 'Inspector' });
  await expect(details.getByText('201 Created')).toBeVisible();
  const stages = details.getByRole('list', { name: 'Request stages' }).getByRole('listitem');
  await expect(stages.first()).toHaveAccessibleName(/^Authentication .*: allowed$/);
  await expect(details.getByRole('listitem', { name: /^Authorization .*: allowed$/ })).toBeVisible();
  await expect(details.getByRole('listitem', { name: /^Validation .*: ok$/ })).toBeVisible();
  await expect(details.getByRole('listitem', { name: /^Storage etcd: ok$/ })).toBeVisible();
  await expect(details.getByTestId('etcd-key')).toHaveText('/registry/configmaps/default/game-config');
  await expect(details.getByTestId('etcd-revision')).toHaveText(/^\d+$/);
  await shot(page, 'editor-apply-results');
  await shot(page, 'apiserver-panel');

  // The other theme stays readable.
  const theme = await page.locator('html').getAttribute('data-theme');
  const other = theme === 'dark' ? 'light' : 'dark';
  await page.getByRole('button', { name: `Switch to ${other} theme` }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', other);
  await shot(page, `apiserver-panel-${other}`);
});

test('a request alice may not make shows the stage that refused it, with its exact message', async ({ page }) => {
  await page.goto('/?speed=10');
  await openTerminal(page);
  await run(page, 'kubectl --as alice get secrets');
  await expect.poll(() => outputOf(page, 'kubectl --as alice get secrets'), { intervals: FAST }).toContain('Error from server (Forbidden)');
  await shot(page, 'terminal-forbidden');

  await openApiServer(page);
  await page.getByRole('button', { name: /denied/ }).click();
  await page.getByRole('combobox', { name: 'User' }).selectOption('alice');
  await expect(page.getByRole('button', { name: /^Inspect request \d+: alice .* 403$/ }).first()).toBeVisible();
  // The refused request whose message kubectl printed.
  const out = await outputOf(page, 'kubectl --as alice get secrets');
  const rec = await page.evaluate(
    (printed) => window.__kubeglass!.requests().find((r) => r.user === 'alice' && r.code === 403 && !!r.message && printed.includes(r.message)),
    out,
  );
  expect(rec, 'kubectl printed the message of one of alice\'s refused requests').toBeTruthy();
  await page.locator(`tr[data-request-id="${rec!.id}"] button`).click();
  const failing = rec!.stages.find((s) => s.decision === 'denied' || s.decision === 'error')!;
  expect(failing).toBeTruthy();
  const details = page.getByRole('region', { name: 'Inspector' });
  await expect(details.getByText('403 Forbidden')).toBeVisible();
  const box = details.getByTestId('failing-stage');
  await expect(box).toContainText(failing.name);
  if (failing.message) await expect(box.locator('.req-failure-msg')).toHaveText(failing.message);
  await expect(details.locator('.stage.failing')).toHaveCount(1);
  await expect(details.locator('.stage.failing')).toHaveAccessibleName(new RegExp(`: ${failing.decision}$`));
  await shot(page, 'apiserver-denied');
});

test('PodSecurity refuses a privileged Pod: the error sits at the Pod, the Namespace is created', async ({ page }) => {
  await page.goto('/?speed=10');
  await openEditor(page);
  await page.getByRole('combobox', { name: 'Load an example' }).selectOption('restricted-pod');
  await page.keyboard.press('Control+Enter');
  const results = page.getByTestId('apply-result');
  await expect(results).toHaveCount(2);
  await expect(results.nth(0)).toHaveText(/namespace\/locked-down created/);
  await expect(results.nth(1)).toHaveAttribute('data-ok', 'false');
  await expect(results.nth(1)).toContainText('violates PodSecurity "restricted:latest"');
  await shot(page, 'editor-podsecurity');
});

test('the editor keeps its text across a reload', async ({ page }) => {
  await page.goto('/?speed=10');
  await openEditor(page);
  await page.locator('.monaco-el .view-line').first().getByText('#').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('# marker-7f3a');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => window.__kubeglass!.editorText())).toContain('# marker-7f3a\n');
  await page.reload();
  await openEditor(page);
  await expect(page.locator('.monaco-el .view-lines')).toContainText('marker-7f3a');
  expect(await page.evaluate(() => window.__kubeglass!.editorText())).toMatch(/^# marker-7f3a\n/);
});

test('the workspace fits a 1280x720 window', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?speed=10');
  await openApiServer(page);
  await openTerminal(page);
  await run(page, 'kubectl get ns');
  await expect.poll(() => outputOf(page, 'kubectl get ns'), { intervals: FAST }).toMatch(/^kube-system\s+Active/m);
  // Nothing spills out of the window.
  const overflow = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
  expect(overflow).toEqual({ w: 1280, h: 720 });
  await shot(page, 'workspace-1280x720');
  await openEditor(page);
  await page.getByRole('combobox', { name: 'Load an example' }).selectOption('configmap');
  await page.getByRole('button', { name: /^Apply/ }).click();
  await expect(page.getByTestId('apply-result')).toHaveText(/configmap\/game-config (created|unchanged|configured)/);
  await shot(page, 'editor-1280x720');
});

test('kubectl edit opens the object in the editor; Save sends it back', async ({ page }) => {
  await page.goto('/?speed=10');
  await openEditor(page);
  await page.getByRole('combobox', { name: 'Load an example' }).selectOption('configmap');
  await page.getByRole('button', { name: /^Apply/ }).click();
  await expect(page.getByTestId('apply-result')).toHaveAttribute('data-ok', 'true');
  await openTerminal(page);
  await run(page, 'kubectl edit configmap game-config');
  // The editor opens by itself, in edit mode.
  const bar = page.getByRole('toolbar', { name: 'kubectl edit' });
  await expect(bar).toBeVisible();
  await expect(bar).toContainText('editing');
  const line = page.locator('.monaco-el .view-line', { hasText: /player\.lives:\s"3"/ });
  await expect(line).toBeVisible();
  // Click the text itself: a view line is as wide as the longest line.
  await line.getByText('player.lives').click();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('5');
  await shot(page, 'editor-kubectl-edit');
  await bar.getByRole('button', { name: /^Save/ }).click();
  await expect(bar).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Terminal' })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => outputOf(page, 'kubectl edit configmap game-config'), { intervals: FAST }).toContain('configmap/game-config edited');
});
