// The events stream: every event newest first, with upstream's reasons and
// messages, filtered by object, type and reason; a row opens its object.
import { expect, test } from '@playwright/test';
import { FAST, kubectl, shot } from './helpers';

test('the events stream, filtered by reason, type and object', async ({ page }) => {
  await page.goto('/?speed=10');
  const created = await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2']);
  expect(created.stderr, created.stderr).toBe('');
  // A pod no node can fit: a Warning.
  const big = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: huge\n  namespace: default\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n    resources:\n      requests: {cpu: "100"}\n';
  const huge = await page.evaluate((y) => window.__kubeglassScheduler!.kubectl(['apply', '-f', 'huge.yaml'], { 'huge.yaml': y }), big);
  expect(huge.stderr, huge.stderr).toBe('');
  await page.getByRole('tab', { name: 'Events' }).click();
  const table = page.getByRole('table', { name: 'Events' });
  await expect(table.locator('thead th')).toHaveText(['Last seen', 'Type', 'Reason', 'Object', 'Message', 'Source', 'Count']);
  // The Deployment's two pods start (kube-system's CoreDNS pods started at boot: their events are here too).
  await expect(table.locator('tbody tr[data-reason="Started"]').filter({ hasText: 'pod/web-' })).toHaveCount(2, { timeout: 40_000 });
  await expect(table.locator('tbody tr[data-reason="Started"]').filter({ hasText: 'pod/coredns-' })).toHaveCount(2);
  const reasons = await table.locator('tbody tr[data-reason]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reason')));
  expect(reasons).toEqual(expect.arrayContaining(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started', 'SuccessfulCreate', 'ScalingReplicaSet', 'FailedScheduling']));
  await shot(page, 'events-all');

  const reason = page.getByRole('combobox', { name: 'Filter events by reason' });
  await reason.selectOption('Scheduled');
  await expect(table.locator('tbody tr[data-reason]')).toHaveCount(4);
  const web = table.locator('tbody tr[data-reason]').filter({ hasText: 'pod/web-' });
  await expect(web).toHaveCount(2);
  await expect(web.first()).toContainText(/Normal\s*Scheduled\s*pod\/web-/);
  await expect(web.first()).toContainText('Successfully assigned default/web-');
  await expect(table.locator('tbody tr[data-reason]').filter({ hasText: 'Successfully assigned kube-system/coredns-' })).toHaveCount(2);
  await expect(page.getByTestId('events-count')).toContainText('4 matching events');

  await reason.selectOption('');
  await page.getByRole('combobox', { name: 'Filter events by type' }).selectOption('Warning');
  await expect(table.locator('tbody tr[data-reason]')).toHaveCount(1);
  await expect(table.locator('tbody tr[data-reason]').first()).toContainText(/Warning\s*FailedScheduling\s*pod\/huge/);
  await expect(table.locator('tbody tr[data-reason]').first()).toContainText('0/3 nodes are available: 3 Insufficient cpu.');
  // In a panel this narrow the message has a line of its own under its row, whole and visible.
  const warningMessage = table.locator('tbody tr.ev-msg-row').first();
  await expect(warningMessage).toBeVisible();
  await expect(warningMessage).toContainText('0/3 nodes are available: 3 Insufficient cpu.');
  const box = (await warningMessage.boundingBox())!;
  const wrap = (await page.locator('.ev-table-wrap').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(wrap.x + wrap.width + 1);
  await shot(page, 'events-warnings');

  await page.getByRole('combobox', { name: 'Filter events by type' }).selectOption('');
  await page.getByRole('combobox', { name: 'Filter events by object kind' }).selectOption('Deployment');
  await page.getByRole('searchbox', { name: 'Filter events by object name', exact: true }).fill('web');
  await expect(table.locator('tbody tr[data-reason]')).toHaveCount(1);
  const row = table.locator('tbody tr[data-reason]').first();
  await expect(row).toContainText(/ScalingReplicaSet\s*deployment\/web\s*Scaled up replica set web-[a-z0-9]+ from 0 to 2\s*deployment-controller/);
  await row.getByRole('button', { name: 'deployment/web' }).click();
  await expect(page.getByRole('region', { name: 'Inspector' }).locator('.obj-title')).toContainText('Deployment default/web');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'events-filtered-1280');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table.locator('tbody tr[data-reason]').filter({ hasText: 'Scheduled' }).first()).toBeVisible();

  // A wide panel keeps the message and source in their columns.
  await page.setViewportSize({ width: 1920, height: 900 });
  await expect(table.locator('thead th.ev-msg')).toBeVisible();
  await expect(table.locator('tbody tr.ev-msg-row').first()).toBeHidden();
  await expect(table.locator('tbody tr[data-reason] td.ev-msg').first()).toBeVisible();
  await shot(page, 'events-wide');
});
