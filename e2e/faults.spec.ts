// Faults from the UI and their real effects: a node lost from the map's menu
// goes Unknown after the grace period and its pods are replaced elsewhere
// (the clock controls speed virtual time up); a scheduler crashed from the
// control-plane strip; an API server cut off from etcd in the inspector;
// every fault listed with Heal.
import { expect, test, type Page } from '@playwright/test';
import { FAST, kubectl, setSpeed, shot } from './helpers';

async function openCluster(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Cluster' }).click();
  await expect(page.getByRole('tab', { name: 'Cluster' })).toHaveAttribute('aria-selected', 'true');
}

const nodeRow = (page: Page, name: string) => page.getByRole('table', { name: 'Nodes' }).locator(`tbody tr[data-node="${name}"]`);
/** The scenario's own pods (kube-system's CoreDNS pods run beside them). */
const readyPods = (page: Page) => page.getByRole('list', { name: 'Pods' }).locator('li[data-state="ready"][data-pod^="default/"]');
const faultsBar = (page: Page) => page.getByRole('region', { name: 'Faults in effect' });

test('node loss from the map: Unknown after the grace period, pods replaced on the other nodes, then healed', async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto('/?speed=10');
  await openCluster(page);
  await expect(page.getByRole('table', { name: 'Nodes' }).locator('tbody tr[data-status="Ready"]')).toHaveCount(3, { timeout: 30_000 });
  const out = await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=3']);
  expect(out.stderr, out.stderr).toBe('');
  await expect(readyPods(page)).toHaveCount(3, { timeout: 40_000 });
  const victim = (await readyPods(page).first().getAttribute('data-node'))!;
  expect(victim).toMatch(/^node-\d$/);

  // Right-click the node's tile: its fault menu.
  const at = (await page.evaluate((n) => window.__kubeglassClusterMap!.locate('node', n), victim))!;
  await page.mouse.click(at.x, at.y, { button: 'right' });
  const menu = page.getByRole('menu', { name: `Faults for ${victim}` });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem')).toHaveText([/Lose the node/, /Partition from the API servers/, /Restart the kubelet/, /Stop the kubelet/, /Inspect/]);
  await shot(page, 'faults-node-menu');
  await menu.getByRole('menuitem', { name: `Lose the node ${victim}` }).click();
  await expect(menu).toBeHidden();
  const item = faultsBar(page).locator('li[data-fault="node-loss"]');
  await expect(item).toContainText(`${victim} lost: the machine is gone`);
  const chips = page.getByRole('list', { name: 'Control plane' });
  await expect(chips).toBeVisible();

  // node-monitor-grace-period (50 s), then the 300 s tolerations: run the clock at ×100.
  await setSpeed(page, 100);
  await expect(nodeRow(page, victim)).toHaveAttribute('data-status', 'Unknown', { timeout: 30_000 });
  await expect(page.getByRole('img', { name: /^Cluster map:/ })).toHaveAttribute('aria-label', /1 Unknown/);
  await shot(page, 'faults-node-unknown');
  await expect(nodeRow(page, victim)).toContainText('node.kubernetes.io/unreachable:NoExecute');
  // The pods are evicted after their 300 s toleration; the ReplicaSet's replacements run elsewhere.
  await expect
    .poll(async () => (await readyPods(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).filter((n) => n !== victim).length, { timeout: 60_000, intervals: [250] })
    .toBe(3);
  await setSpeed(page, 10);
  await shot(page, 'faults-node-rescheduled');

  // Heal: the machine boots again and its node turns Ready.
  await item.getByRole('button', { name: /^Heal fault/ }).click();
  await expect(faultsBar(page)).toContainText('No faults in effect');
  await expect(nodeRow(page, victim)).toHaveAttribute('data-status', 'Ready', { timeout: 40_000 });
});

test('control-plane faults from the strip and the inspector, healed from the list', async ({ page }) => {
  await page.goto('/?speed=5');
  await openCluster(page);
  const strip = page.getByRole('list', { name: 'Control plane' });
  await expect(strip.locator('[data-component="kube-scheduler-0"]')).toHaveAttribute('data-state', 'up, leader', { timeout: 30_000 });
  await strip.getByRole('button', { name: 'Faults for kube-scheduler-0' }).click();
  await page.getByRole('menu', { name: 'Faults for kube-scheduler-0' }).getByRole('menuitem', { name: 'Crash kube-scheduler-0' }).click();
  await expect(strip.locator('[data-component="kube-scheduler-0"]')).toHaveAttribute('data-state', 'down');
  await expect(faultsBar(page).locator('li[data-fault="crash"]')).toContainText('kube-scheduler-0 crashed');

  // The API server, in the inspector: cut it off from etcd.
  await strip.getByRole('button', { name: /^kube-apiserver-0: up/ }).click();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText('kube-apiserver-0');
  await inspector.getByRole('button', { name: 'Cut off from etcd kube-apiserver-0' }).click();
  await expect(faultsBar(page).locator('li[data-fault="cut"]')).toContainText('kube-apiserver-0 ✂ etcd: no traffic either way');
  await expect(inspector.getByRole('button', { name: 'Reconnect to etcd kube-apiserver-0' })).toBeVisible();
  await expect(inspector).toContainText('Faults in effect (1)');
  await shot(page, 'faults-control-plane');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'faults-control-plane-1280');

  await faultsBar(page).getByRole('button', { name: 'Heal all faults' }).click();
  await expect(faultsBar(page)).toContainText('No faults in effect');
  await expect(strip.locator('[data-component="kube-scheduler-0"]')).toHaveAttribute('data-state', /^up/);
  await expect(inspector.getByRole('button', { name: 'Cut off from etcd kube-apiserver-0' })).toBeVisible();
});

test('a short node partition: the kubelet\'s HTTP traffic is held by TCP, shown in the timeline and the message inspector, and delivered after the heal', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/?speed=2');
  await openCluster(page);
  await expect(page.getByRole('table', { name: 'Nodes' }).locator('tbody tr[data-status="Ready"]')).toHaveCount(3, { timeout: 30_000 });
  // Only what did not arrive: drops and held messages.
  await page.getByRole('checkbox', { name: 'Show deliveries' }).uncheck();
  await page.getByRole('checkbox', { name: 'Show faults & commands' }).uncheck();
  const at = (await page.evaluate(() => window.__kubeglassClusterMap!.locate('node', 'node-1')))!;
  await page.mouse.click(at.x, at.y, { button: 'right' });
  await page.getByRole('menu', { name: 'Faults for node-1' }).getByRole('menuitem', { name: /Partition from the API servers/ }).click();
  await expect(faultsBar(page).locator('li[data-fault="partition-node"]')).toBeVisible();
  // The kubelet renews its Lease every 10 s: that request is held on the cut, not dropped.
  const recent = page.getByRole('region', { name: 'Recent events' });
  const held = recent.locator('tr.k-held', { hasText: 'node-1 → kube-apiserver' }).first();
  await expect(held).toBeVisible({ timeout: 30_000 });
  // Stop the clock: the kubelet would close the connection (and drop what it held) after its 10 s heartbeat timeout.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(held).toContainText('partitioned');
  await held.getByRole('button', { name: /^Inspect message \d+ Http/ }).click();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText('held by TCP for a retransmission (partitioned)');
  await shot(page, 'faults-partition-held');
  // Healed before that: the held request gets through at a retransmission.
  await faultsBar(page).getByRole('button', { name: 'Heal all faults' }).click();
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(inspector).toContainText('delivered', { timeout: 30_000 });
  await expect(inspector.locator('li', { hasText: /deliver node-1 → kube-apiserver-0/ })).toBeVisible();
  await shot(page, 'faults-partition-delivered');
});
