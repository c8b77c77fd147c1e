// "Trace a packet" in a node's inspector: a connection's first packet through
// the node's iptables as `-j TRACE` logs it. From a pod to a Service's cluster
// IP it goes KUBE-SERVICES → KUBE-SVC → KUBE-SEP and is DNATed to one of the
// endpoints; to a port the Service lacks nothing DNATs it and the policies
// accept it; bad input is an inline error. Tracing changes no counter.
import { expect, test } from '@playwright/test';
import { clickOnMap, FAST, kubectl, shot, webServiceAndClient } from './helpers';

const re = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test("trace a packet from a pod to a Service's cluster IP through its node's iptables, then to a port the Service lacks", async ({ page }) => {
  await page.goto('/?speed=10');
  await page.getByRole('tab', { name: 'Cluster' }).click();
  await webServiceAndClient(page);
  const slice = ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o'];
  const endpoints = (await kubectl(page, [...slice, 'jsonpath={.items[0].endpoints[*].addresses[0]}'])).stdout.split(' ');
  const ip = (await kubectl(page, ['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
  const node = (await kubectl(page, ['get', 'pod', 'client', '-o', 'jsonpath={.spec.nodeName}'])).stdout;
  const clientIP = (await kubectl(page, ['get', 'pod', 'client', '-o', 'jsonpath={.status.podIP}'])).stdout;
  expect(endpoints).toHaveLength(2);

  await clickOnMap(page, 'node', node);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.locator('.obj-title')).toContainText(`Node ${node}`);
  const rules = inspector.getByLabel(`iptables-save -c -t nat on ${node}`);
  // kube-proxy's sync reaches the node within a second or so.
  await expect(rules).toContainText(`"default/web cluster IP"`);

  const tracer = inspector.getByRole('region', { name: 'Trace a packet' });
  await tracer.getByLabel('Trace from').selectOption({ label: `default/client (${clientIP})` });
  await tracer.getByLabel('Destination IP').fill(ip);
  await tracer.getByLabel('Protocol').selectOption('tcp');
  await tracer.getByLabel('Destination port').fill('80');
  await tracer.getByRole('button', { name: 'Trace', exact: true }).click();

  const verdict = tracer.getByTestId('trace-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'ACCEPT');
  await expect(verdict.getByTestId('trace-dnat')).toHaveText(new RegExp(`DNAT ${re(ip)}:80 → (${endpoints.map(re).join('|')}):80$`));
  const table = tracer.getByRole('table', { name: `TRACE of tcp ${clientIP} to ${ip}:80` });
  const steps = await table.locator('tbody').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-step')!));
  expect(steps[0]).toBe('nat:PREROUTING:rule:1');
  const idx = (p: RegExp) => steps.findIndex((s) => p.test(s));
  const services = idx(/^nat:KUBE-SERVICES:rule:\d+$/);
  const svc = idx(/^nat:KUBE-SVC-[A-Z2-7]{16}:rule:\d+$/);
  const sep = idx(/^nat:KUBE-SEP-[A-Z2-7]{16}:rule:\d+$/);
  expect([services, svc, sep]).toEqual([1, 2, 3]);
  const sepRow = table.locator('tbody').nth(sep);
  await expect(sepRow.locator('.trace-rule .ipt-line')).toContainText(new RegExp(`-j DNAT --to-destination (${endpoints.map(re).join('|')}):80$`));
  await expect(sepRow.locator('.trace-change')).toContainText(/→ DNAT to 10\.244\.\d+\.\d+:80/);
  await expect(table.locator('tbody').nth(services).locator('.trace-rule')).toContainText(`-A KUBE-SERVICES -d ${ip}/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-`);
  // The rules the trace hit are marked in the iptables text above.
  await expect(rules.locator('.ipt-traced').first()).toBeVisible();
  expect(await rules.locator('.ipt-traced').count()).toBeGreaterThanOrEqual(4);
  // The form, the verdict and the first steps at the top of the inspector.
  await tracer.getByRole('heading', { name: /Trace a packet/ }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
  await shot(page, 'inspector-iptables-trace');

  // A port the Service lacks: KUBE-SERVICES returns, PREROUTING's policy accepts, nothing DNATs it.
  await tracer.getByLabel('Destination port').fill('81');
  await tracer.getByRole('button', { name: 'Trace', exact: true }).click();
  await expect(tracer.getByRole('table', { name: `TRACE of tcp ${clientIP} to ${ip}:81` })).toBeVisible();
  await expect(verdict).toHaveAttribute('data-verdict', 'ACCEPT');
  await expect(verdict.getByTestId('trace-dnat')).toHaveText('· no DNAT');
  const missed = await tracer.locator('table.trace-steps tbody').evaluateAll((bs) => bs.map((b) => b.getAttribute('data-step')!));
  expect(missed.slice(0, 3)).toEqual(['nat:PREROUTING:rule:1', expect.stringMatching(/^nat:KUBE-SERVICES:return:\d+$/), 'nat:PREROUTING:policy:2']);
  expect(missed).toContain('filter:FORWARD:policy:5');
  expect(missed.at(-1)).toMatch(/^nat:POSTROUTING:policy:\d+$/);
  expect(missed.some((s) => /KUBE-SVC-|KUBE-SEP-/.test(s))).toBe(false);
  await tracer.locator('table.trace-steps').evaluate((t) => t.scrollIntoView({ block: 'start' }));
  await shot(page, 'inspector-iptables-trace-miss');

  // Bad input: an inline error, and the form still works.
  await tracer.getByLabel('Destination IP').fill('10.96.0.300');
  await tracer.getByRole('button', { name: 'Trace', exact: true }).click();
  await expect(tracer.getByRole('alert')).toHaveText('destination "10.96.0.300" is not an IPv4 address');
  await tracer.getByLabel('Destination IP').fill(ip);
  await tracer.getByLabel('Destination port').fill('70000');
  await tracer.getByRole('button', { name: 'Trace', exact: true }).click();
  await expect(tracer.getByRole('alert')).toHaveText('port must be between 1 and 65535 (got 70000)');
  await tracer.getByLabel('Trace from').selectOption('outside');
  await tracer.getByLabel('Source IP').fill(clientIP);
  await tracer.getByLabel('Destination port').fill('80');
  await tracer.getByRole('button', { name: 'Trace', exact: true }).click();
  await expect(tracer.getByRole('alert')).toContainText(`${clientIP} is in ${node}'s pod range`);
  await tracer.getByLabel('Source IP').fill('192.168.1.10');
  await tracer.getByRole('button', { name: 'Trace', exact: true }).click();
  await expect(tracer.getByRole('alert')).toHaveCount(0);
  await expect(verdict).toHaveAttribute('data-verdict', 'ACCEPT');
  await expect(tracer.locator('.trace-change').filter({ hasText: 'MASQUERADE' })).toHaveCount(1);

  // Tracing counted nothing: no connection was made to the Service, and its rule's counters stay at zero.
  await expect(rules).toContainText(new RegExp(`\\[0:0\\] -A KUBE-SERVICES -d ${re(ip)}/32 `));
});
