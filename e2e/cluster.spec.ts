// The Cluster view: worker nodes registering and turning Ready, a Deployment
// becoming a ReplicaSet and three Running pods on the map, the controllers'
// queues; and the map at 200 nodes.
import { expect, test, type Page } from '@playwright/test';
import { FAST, kubectl, shot } from './helpers';

async function openCluster(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Cluster' }).click();
  await expect(page.getByRole('tab', { name: 'Cluster' })).toHaveAttribute('aria-selected', 'true');
}

const nodeRows = (page: Page) => page.getByRole('table', { name: 'Nodes' }).locator('tbody tr');
const readyNodes = (page: Page) => page.getByRole('table', { name: 'Nodes' }).locator('tbody tr[data-status="Ready"]');
const pods = (page: Page) => page.getByRole('list', { name: 'Pods' }).locator('li');
const map = (page: Page) => page.getByRole('img', { name: /^Cluster map:/ });

test('three nodes turn Ready; a Deployment becomes three Running pods on the map; the controllers show their work', async ({ page }) => {
  await page.goto('/?speed=10');
  await openCluster(page);
  await expect(nodeRows(page)).toHaveCount(3);
  await expect(readyNodes(page)).toHaveCount(3);
  await expect(map(page)).toHaveAttribute('aria-label', /3 nodes \(3 Ready, 0 NotReady, 0 Unknown\)/);
  // The control plane in the strip, with leaders.
  await expect(map(page)).toHaveAttribute('aria-label', /control-plane components up/);
  const strip = page.getByRole('list', { name: 'Control plane' });
  await expect(strip.locator('[data-component="kube-scheduler-0"]')).toHaveAttribute('data-state', 'up, leader');
  await expect(strip.locator('[data-component="kube-apiserver-0"]')).toHaveAttribute('data-state', 'up');

  const out = await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3']);
  expect(out.stderr, out.stderr).toBe('');
  expect(out.stdout).toContain('deployment.apps/web created');

  // The Deployment's three pods, beside kube-system's two CoreDNS pods (kubeadm's DNS add-on).
  const running = page.getByRole('list', { name: 'Pods' }).locator('li[data-state="ready"][data-pod^="default/"]');
  await expect(running).toHaveCount(3, { timeout: 40_000 });
  await expect(running.first()).toContainText(/^default\/web-[a-z0-9]+-[a-z0-9]+ on node-/);
  await expect(pods(page)).toHaveCount(5);
  await expect(page.getByRole('list', { name: 'Pods' }).locator('li[data-pod^="kube-system/coredns-"]')).toHaveCount(2);
  await expect(map(page)).toHaveAttribute('aria-label', /5 pods \(5 running and ready/);

  // kube-controller-manager's replicaset controller has had work.
  const rs = page.getByRole('table', { name: 'Controller queues' }).locator('tr[data-controller="replicaset-controller"]');
  await expect(rs).toBeVisible();
  await expect.poll(async () => Number(await rs.locator('td[data-col="adds"]').innerText()), { intervals: FAST }).toBeGreaterThan(0);
  await rs.getByRole('button').click();
  await expect(page.getByRole('region', { name: 'Recent reconciles' })).toContainText('replicaset-controller');
  await expect(page.getByRole('region', { name: 'Recent reconciles' }).locator('li').first()).toContainText('default/web-');

  // Hovering a pod square tells its phase and owner; hovering a node its requests, labels and taints.
  await shot(page, 'cluster-3-nodes');
  const locate = (kind: 'node' | 'pod', name: string) => page.evaluate(([k, n]) => window.__kubeglassClusterMap!.locate(k, n), [kind, name] as const);
  const podName = (await running.first().getAttribute('data-pod'))!;
  const at = (await locate('pod', podName))!;
  expect(at).not.toBeNull();
  await page.mouse.move(at.x, at.y);
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText(`Pod ${podName}`);
  await expect(tip).toContainText('Running, Ready');
  await expect(tip).toContainText(/Owner\s*web-/);
  await shot(page, 'cluster-3-nodes-pod-tooltip');
  const nodeAt = (await locate('node', 'node-1'))!;
  await page.mouse.move(nodeAt.x, nodeAt.y);
  await expect(tip).toContainText('Node node-1');
  await expect(tip).toContainText('✓ Ready');
  await expect(tip).toContainText('CPU requested');
  await expect(tip).toContainText('kubernetes.io/hostname=node-1');
  await shot(page, 'cluster-3-nodes-node-tooltip');
  await page.mouse.move(0, 0);
  await expect(tip).toBeHidden();

  // A cordoned node shows its marker in the list (and ⊘ on the map).
  const cordon = await kubectl(page, ['cordon', 'node-2']);
  expect(cordon.stderr, cordon.stderr).toBe('');
  await expect(nodeRows(page).filter({ hasText: 'node-2' })).toContainText('unschedulable');
  await shot(page, 'cluster-3-nodes-cordoned');

  // A pod no node can fit waits in the unscheduled row, drawn hollow (pending).
  const big = `apiVersion: v1
kind: Pod
metadata:
  name: huge
  namespace: default
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests: {cpu: "100", memory: 64Mi}
`;
  const made = await kubectl(page, ['apply', '-f', 'huge.yaml'], { 'huge.yaml': big });
  expect(made.stderr, made.stderr).toBe('');
  const huge = page.getByRole('list', { name: 'Pods' }).locator('li[data-pod="default/huge"]');
  await expect(huge).toHaveAttribute('data-state', 'pending');
  await expect(huge).toContainText('unscheduled');
  await expect(map(page)).toHaveAttribute('aria-label', /1 unscheduled/);

  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'cluster-3-nodes-1280');
  // The other theme stays readable.
  const theme = await page.locator('html').getAttribute('data-theme');
  const other = theme === 'dark' ? 'light' : 'dark';
  await page.getByRole('button', { name: `Switch to ${other} theme` }).click();
  await shot(page, `cluster-3-nodes-${other}`);
});

test('the map at 200 nodes', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/?speed=10&nodes=200');
  await openCluster(page);
  await expect(nodeRows(page)).toHaveCount(200, { timeout: 60_000 });
  await expect(readyNodes(page)).toHaveCount(200, { timeout: 60_000 });
  const out = await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=40']);
  expect(out.stderr, out.stderr).toBe('');
  await expect(page.getByRole('list', { name: 'Pods' }).locator('li[data-state="ready"][data-pod^="default/"]')).toHaveCount(40, { timeout: 60_000 });
  await shot(page, 'cluster-200-nodes');
  // Zooming in shows names and pods one by one; panning moves along.
  const canvas = page.getByTestId('cluster-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -300);
  await expect(page.getByTestId('cl-zoom-level')).toContainText(/medium|full/);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2 - 150, { steps: 5 });
  await page.mouse.up();
  await shot(page, 'cluster-200-nodes-zoomed');
  await page.getByRole('button', { name: 'Fit the whole cluster' }).click();
  await expect(page.getByTestId('cl-zoom-level')).toContainText(/pods|dots/);
  // Find a node by name (the keyboard's way in): it opens in the inspector and the map goes to it.
  const find = page.getByRole('searchbox', { name: 'Node or pod name' });
  await find.fill('node-150');
  await find.press('Enter');
  await expect(page.getByRole('region', { name: 'Inspector' }).locator('.obj-title')).toContainText('Node node-150');
  await expect(page.getByTestId('cl-zoom-level')).toContainText(/full/);
  await expect.poll(() => page.evaluate(() => window.__kubeglassClusterMap!.locate('node', 'node-150'))).not.toBeNull();
  await shot(page, 'cluster-200-nodes-found');
  await find.fill('no-such-thing');
  await find.press('Enter');
  await expect(page.getByRole('search', { name: 'Find on the map' })).toContainText('not found');
});
