// kube-scheduler as a user meets it in the Scheduler view: fake nodes created
// through the API with a status (as KWOK does), pods, and each decision's
// scoring table; a FailedScheduling pod placed once a node is added, a tainted
// node avoided, a high-priority pod preempting a lower one, the profile editor
// refusing an invalid configuration, and the table at 500 nodes.
import { expect, test, type Page } from '@playwright/test';
import { FAST, kubectl, shot } from './helpers';

interface NodeSpec {
  name: string;
  cpu?: string;
  memory?: string;
  taint?: string;
}

/** A Node with status (allocatable cpu/memory/pods and Ready), as KWOK and kube-scheduler-simulator create them. */
function nodeYaml(n: NodeSpec): string {
  const cpu = n.cpu ?? '4';
  const memory = n.memory ?? '32Gi';
  const taint = n.taint ? /^([^=]+)=([^:]*):(\w+)$/.exec(n.taint) : null;
  return `apiVersion: v1
kind: Node
metadata:
  name: ${n.name}
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    kubernetes.io/hostname: ${n.name}
    kubernetes.io/os: linux
${taint ? `spec:\n  taints:\n  - key: ${taint[1]}\n    value: "${taint[2]}"\n    effect: ${taint[3]}\n` : ''}status:
  capacity: {cpu: "${cpu}", memory: ${memory}, pods: "110"}
  allocatable: {cpu: "${cpu}", memory: ${memory}, pods: "110"}
  conditions:
  - type: Ready
    status: "True"
    reason: KubeletReady
    message: kubelet is posting ready status
`;
}

function podYaml(name: string, cpu: string, extra = ''): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: default
spec:
  terminationGracePeriodSeconds: 0
${extra}  containers:
  - name: app
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: ${cpu}, memory: 64Mi}
`;
}

/** kubectl through the page's worker, with in-memory files (`-f NAME`). */
async function create(page: Page, docs: string[]): Promise<void> {
  const out = await kubectl(page, ['create', '-f', 'objects.yaml'], { 'objects.yaml': docs.join('---\n') });
  expect(out.stderr, out.stderr).toBe('');
  expect(out.exitCode).toBe(0);
}

async function openScheduler(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Scheduler' }).click();
  await expect(page.getByRole('group', { name: 'kube-scheduler' })).toContainText(/leader/);
}

async function showPod(page: Page, pod: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Pod' }).fill(pod);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Scheduling decision' }).getByRole('heading', { name: pod })).toBeVisible();
}

const table = (page: Page) => page.getByRole('region', { name: 'Scoring table' });
const row = (page: Page, node: string) => table(page).locator(`tr[data-node="${node}"]`);
/** Back to the table's left edge (hovering a cell may have scrolled it sideways). */
const scrollHome = (page: Page) => table(page).evaluate((el) => el.scrollTo({ left: 0, top: 0 }));
const outcome = (page: Page) => page.getByRole('status', { name: 'Outcome' });

test('a pod short of cpu waits with Insufficient cpu, avoids the tainted node, and is placed when a node is added', async ({ page }) => {
  await page.goto('/?speed=10&nodes=0');
  await openScheduler(page);
  await create(page, [
    nodeYaml({ name: 'node-1', cpu: '2', memory: '8Gi' }),
    nodeYaml({ name: 'node-2', cpu: '2', memory: '8Gi' }),
    nodeYaml({ name: 'node-3', cpu: '2', memory: '16Gi' }),
    nodeYaml({ name: 'node-4', cpu: '4', memory: '8Gi' }),
    nodeYaml({ name: 'node-5', cpu: '8', memory: '32Gi', taint: 'dedicated=infra:NoSchedule' }),
  ]);
  await expect(page.getByTestId('sched-nodes')).toHaveText('5 nodes');

  // (b) A small pod goes anywhere but the tainted node.
  await create(page, [podYaml('web', '500m')]);
  await showPod(page, 'default/web');
  await expect(outcome(page)).toContainText(/Scheduled on node-[1-4]/);
  await expect(row(page, 'node-5')).toContainText('TaintToleration: node(s) had untolerated taint {dedicated: infra}');
  await expect(row(page, 'node-5').locator('td.f-fail')).toBeVisible();
  await expect(table(page).locator('tr.winner')).toHaveCount(1);
  const winner = (await table(page).locator('tr.winner').getAttribute('data-node'))!;
  expect(winner).not.toBe('node-5');
  // Best first: the winner heads the table, with the highest total.
  await expect(table(page).locator('tbody tr[data-node]').first()).toHaveAttribute('data-node', winner);

  // Raw / normalized / weighted: TaintToleration has weight 3, so weighted = 3 × normalized.
  const cell = row(page, winner).locator('td[data-score="TaintToleration"]');
  await page.getByRole('radio', { name: 'Normalized' }).click();
  const normalized = Number(await cell.innerText());
  await page.getByRole('radio', { name: 'Weighted' }).click();
  await expect(cell).toHaveText(String(normalized * 3));

  // Hovering a score explains it with its numbers.
  await row(page, winner).locator('td[data-score="NodeResourcesFit"]').hover();
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText('NodeResourcesFit');
  await expect(tip).toContainText('LeastAllocated');
  await expect(tip).toContainText('weighted');
  // Worked through with this node's numbers: the pod's 500m on the node's 2 or 4 CPUs (with what its pods,
  // a CoreDNS one perhaps, request already).
  await expect(tip).toContainText(/cpu: node (\d+)m \+ this pod 500m = \d+m of [24]000m → /);
  await shot(page, 'scheduler-score-tooltip');
  // Every score plugin explains itself with its inputs, not only LeastAllocated.
  await row(page, winner).locator('td[data-score="TaintToleration"]').hover();
  await expect(tip).toContainText('no PreferNoSchedule taint left untolerated → raw 0');
  await expect(tip).toContainText('max(raw) = 0 → every node gets 100');
  await row(page, winner).locator('td[data-score="NodeResourcesBalancedAllocation"]').hover();
  await expect(tip).toContainText(/std = \|[0-9.]+ − [0-9.]+\| \/ 2 = [0-9.]+ → \(1 − std\) × 100 = \d+/);
  await row(page, winner).locator('td[data-score="ImageLocality"]').hover();
  await expect(tip).toContainText('none of the pod’s images is on the node');
  await page.mouse.move(0, 0);
  await expect(tip).toBeHidden();

  // Sorting by node name.
  await table(page).getByRole('button', { name: 'Sort by Node name' }).click();
  await expect(table(page).locator('tbody tr[data-node]').first()).toHaveAttribute('data-node', 'node-1');
  await expect(table(page).getByRole('columnheader', { name: 'Sort by Node name' })).toHaveAttribute('aria-sort', 'ascending');
  await scrollHome(page);
  await shot(page, 'scheduler-5-nodes');
  // The other theme stays readable.
  const theme = await page.locator('html').getAttribute('data-theme');
  const other = theme === 'dark' ? 'light' : 'dark';
  await page.getByRole('button', { name: `Switch to ${other} theme` }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', other);
  await shot(page, `scheduler-5-nodes-${other}`);

  // A preferred node affinity: NodeAffinity scores, and its hover names the matched term.
  await create(page, [podYaml('picky', '100m', '  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: 10\n        preference:\n          matchExpressions:\n          - {key: kubernetes.io/hostname, operator: In, values: [node-2]}\n')]);
  await showPod(page, 'default/picky');
  await expect(outcome(page)).toContainText('Scheduled on node-2');
  await page.getByRole('radio', { name: 'Raw' }).click();
  await row(page, 'node-2').locator('td[data-score="NodeAffinity"]').hover();
  await expect(tip).toContainText('matched: weight 10 · kubernetes.io/hostname In [node-2]');
  await expect(tip).toContainText('normalized = 10 × 100 / 10 = 100');
  await shot(page, 'scheduler-node-affinity-tooltip');
  await page.mouse.move(0, 0);
  await scrollHome(page);

  // (a) A pod needing 6 CPUs fits nowhere: FailedScheduling with the aggregated message.
  await create(page, [podYaml('big', '6')]);
  await showPod(page, 'default/big');
  await expect(outcome(page)).toContainText('Unschedulable');
  const msg = page.getByLabel('FailedScheduling message');
  await expect(msg).toContainText('0/5 nodes are available');
  await expect(msg).toContainText('Insufficient cpu');
  await expect(msg).toContainText('untolerated taint');
  await expect(row(page, 'node-1')).toContainText('NodeResourcesFit: Insufficient cpu');
  // It waits in the queue, parked by the plugins that rejected it.
  const queue = page.getByRole('region', { name: 'Scheduling queue' });
  const waiting = queue.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Show decisions for default/big' }) });
  await expect(waiting).toContainText(/NodeResourcesFit|TaintToleration/);
  await shot(page, 'scheduler-unschedulable');

  // A node with room arrives: the pod is moved back to the active queue and placed there.
  await create(page, [nodeYaml({ name: 'node-6', cpu: '8', memory: '32Gi' })]);
  await expect(outcome(page)).toContainText('Scheduled on node-6', { timeout: 30_000 });
  // Both cycles are kept; the newest is shown.
  await expect(page.getByRole('combobox', { name: 'Cycle' }).locator('option')).toHaveCount(2);
  await expect(row(page, 'node-6')).toHaveClass(/winner/);
  await shot(page, 'scheduler-placed-after-node-added');

  // A smaller window: nothing spills out, the table scrolls inside its region.
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect.poll(() => page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }))).toEqual({ w: 1280, h: 720 });
  await expect(row(page, 'node-6')).toBeVisible();
  await shot(page, 'scheduler-1280x720');
});

test('a high-priority pod preempts a lower-priority one: candidates and victims are shown', async ({ page }) => {
  await page.goto('/?speed=10&nodes=0');
  await openScheduler(page);
  await create(page, [
    nodeYaml({ name: 'node-a', cpu: '2', memory: '8Gi' }),
    nodeYaml({ name: 'node-b', cpu: '2', memory: '8Gi' }),
    `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: low\nvalue: 100\n`,
    `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: high\nvalue: 100000\n`,
  ]);
  await create(page, [podYaml('low-1', '1500m', '  priorityClassName: low\n'), podYaml('low-2', '1500m', '  priorityClassName: low\n')]);
  const recent = page.getByRole('region', { name: 'Recent scheduling cycles' });
  await expect(recent.getByRole('button', { name: /default\/low-1 Scheduled/ })).toBeVisible();
  await expect(recent.getByRole('button', { name: /default\/low-2 Scheduled/ })).toBeVisible();

  await create(page, [podYaml('vip', '1500m', '  priorityClassName: high\n')]);
  // Its first cycle fails and preempts: open that cycle from the recent list.
  await recent.getByRole('button', { name: /default\/vip Unschedulable/ }).first().click();
  const pre = page.getByRole('group', { name: 'Preemption' });
  await expect(pre).toContainText('nominated');
  await expect(pre.getByLabel('Victims')).toContainText(/default\/low-[12]/);
  await expect(pre.getByRole('table', { name: 'Preemption candidates' })).toContainText(/node-[ab]/);
  await expect(page.getByLabel('FailedScheduling message')).toContainText('Insufficient cpu');
  await shot(page, 'scheduler-preemption');

  // The victim goes; the pod is bound to its nominated node.
  const nominated = (await pre.locator('.pre-head b').innerText()).trim();
  const victim = (await pre.getByLabel('Victims').innerText()).trim().replace(/^default\//, '');
  await expect.poll(async () => (await kubectl(page, ['get', 'pod', victim])).stderr, { intervals: [200, 500, 1000] }).toContain('NotFound');
  await expect
    .poll(async () => (await kubectl(page, ['get', 'pod', 'vip', '-o', 'jsonpath={.spec.nodeName}'])).stdout, { intervals: [200, 500, 1000], timeout: 30_000 })
    .toBe(nominated);
  // Following the newest cycle again: its decision names the node (the nominated node, tried first, passed).
  await page.getByRole('combobox', { name: 'Cycle' }).selectOption({ index: 0 });
  await expect(outcome(page)).toContainText('nominated node');
  await expect(outcome(page)).toContainText(`Scheduled on ${nominated}`);
  await expect(row(page, nominated)).toHaveClass(/winner/);
});

test('the profile editor applies a configuration live and refuses an invalid one, keeping the text', async ({ page }) => {
  await page.goto('/?speed=10&nodes=0');
  await openScheduler(page);
  await page.getByRole('tab', { name: 'Profile' }).click();
  const host = page.locator('.profile-monaco-el[data-state="ready"]');
  await expect(host).toBeVisible();
  await expect(host.locator('.view-lines')).toContainText('KubeSchedulerConfiguration');
  // Replace everything with a config of an unknown kind.
  await host.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('apiVersion: kubescheduler.config.k8s.io/v1\nkind: Nope\n');
  await page.getByRole('button', { name: /^Apply/ }).click();
  const err = page.getByRole('alert', { name: 'Configuration error' });
  await expect(err).toBeVisible();
  await expect(err).not.toHaveText(/^\s*$/);
  await expect(host.locator('.view-lines')).toContainText('kind: Nope');
  expect(await page.evaluate(() => window.__kubeglassScheduler!.state().buffer)).toContain('kind: Nope');
  await shot(page, 'scheduler-profile-invalid');

  // The running configuration again, applied as it is.
  await page.getByRole('button', { name: 'Reload running' }).click();
  await expect(host.locator('.view-lines')).toContainText('KubeSchedulerConfiguration');
  await page.getByRole('button', { name: /^Apply/ }).click();
  await expect(page.getByRole('toolbar', { name: 'Scheduler profile actions' }).getByRole('status')).toContainText('applied');
  await expect(err).toBeHidden();
});

test('500 nodes: the table stays virtualised and readable', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/?speed=100&nodes=0');
  await openScheduler(page);
  const docs: string[] = [];
  for (let i = 1; i <= 500; i++) {
    const n = String(i).padStart(3, '0');
    docs.push(nodeYaml({ name: `node-${n}`, cpu: String(2 + (i % 7)), memory: `${8 + (i % 5) * 8}Gi`, ...(i % 50 === 0 ? { taint: 'dedicated=infra:NoSchedule' } : {}) }));
  }
  // In batches of 100 through the worker's kubectl.
  for (let i = 0; i < docs.length; i += 100) await create(page, docs.slice(i, i + 100));
  await expect(page.getByTestId('sched-nodes')).toHaveText('500 nodes', { timeout: 30_000 });
  await create(page, [podYaml('web-500', '1')]);
  await showPod(page, 'default/web-500');
  await expect(outcome(page)).toContainText(/Scheduled on node-\d{3}/, { timeout: 30_000 });
  const coverage = page.locator('.coverage');
  await expect(coverage).toContainText(/evaluated \d+ of 500 nodes/);
  const evaluated = Number(/evaluated (\d+)/.exec(await coverage.innerText())![1]);
  expect(evaluated).toBeGreaterThanOrEqual(100);
  // Only the visible rows are in the DOM.
  const drawn = await table(page).locator('tbody tr[data-node]').count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(Math.min(evaluated, 80));
  await shot(page, 'scheduler-500-nodes');
  // Scroll to the bottom: the last rows are drawn there.
  await table(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect.poll(() => table(page).locator('tbody tr[data-node]').count()).toBeLessThan(80);
  await table(page).getByRole('button', { name: 'Sort by Node name' }).click();
  await table(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(table(page).locator('tbody tr[data-node]').last()).toHaveAttribute('data-node', /node-\d{3}/);
  await shot(page, 'scheduler-500-nodes-scrolled');
});
