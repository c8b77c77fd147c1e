// Cluster DNS as a person meets it: a pod reaches a Service by its name
// (CoreDNS behind kube-dns answers through the pod's search path), the
// Service's inspector shows the answer its name gets, and a CoreDNS pod's
// inspector shows what its process's caches hold.
import { expect, test } from '@playwright/test';
import { clickOnMap, FAST, kubectl, shot } from './helpers';

test('a pod reaches a Service by name, and the inspector shows the records CoreDNS answers', async ({ page }) => {
  await page.goto('/?speed=10');
  await page.getByRole('tab', { name: 'Cluster' }).click();
  // kubeadm's add-on: two CoreDNS pods, Ready once their informers have synced (/ready).
  await expect.poll(async () => (await kubectl(page, ['get', 'deployment', 'coredns', '-n', 'kube-system', '-o', 'jsonpath={.status.readyReplicas}'])).stdout, { timeout: 60_000, intervals: FAST }).toBe('2');
  expect((await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27'])).stderr).toBe('');
  expect((await kubectl(page, ['expose', 'deployment', 'web', '--port=80'])).stderr).toBe('');
  expect((await kubectl(page, ['run', 'client', '--image=busybox:1.36', '--', 'sleep', '3600'])).stderr).toBe('');
  await expect.poll(async () => (await kubectl(page, ['get', 'pod', 'client', '-o', 'jsonpath={.status.phase}'])).stdout, { timeout: 60_000, intervals: FAST }).toBe('Running');
  await expect.poll(async () => { const r = await kubectl(page, ['exec', 'client', '--', 'wget', '-qO-', 'http://web']); return r.stdout + r.stderr; }, { timeout: 30_000, intervals: FAST }).toContain('<title>Welcome to nginx!</title>');
  const ip = (await kubectl(page, ['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
  const resolv = await kubectl(page, ['exec', 'client', '--', 'cat', '/etc/resolv.conf']);
  expect(resolv.stdout).toBe('search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');

  // The Service's inspector: its name, as a CoreDNS pod answers it.
  await page.getByRole('button', { name: 'endpointslice-controller' }).click();
  await page.getByRole('button', { name: 'Inspect services default/web' }).first().click();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.locator('.obj-title')).toContainText('Service default/web');
  const dns = inspector.getByRole('region', { name: 'Cluster DNS' });
  await expect(dns).toContainText(/as kube-system\/coredns-[a-z0-9]+-[a-z0-9]{5} answers it/);
  const row = dns.getByRole('table', { name: 'DNS answer for web.default.svc.cluster.local.' }).getByRole('row').nth(1);
  await expect(row).toHaveText(`web.default.svc.cluster.local.30A${ip}`);
  await dns.scrollIntoViewIfNeeded();
  await shot(page, 'inspector-service-dns');

  // A CoreDNS pod, from the map: its process and the names its caches answer.
  const pod = (await kubectl(page, ['get', 'pods', '-n', 'kube-system', '-l', 'k8s-app=kube-dns', '-o', 'jsonpath={.items[0].metadata.name}'])).stdout;
  const key = `kube-system/${pod}`;
  await clickOnMap(page, 'pod', key);
  await expect(inspector.locator('.obj-title')).toContainText(`Pod kube-system/${pod}`);
  const caches = inspector.getByRole('region', { name: 'CoreDNS caches' });
  await expect(caches).toContainText(`process ${pod}.coredns`);
  await expect(caches).toContainText(/kubernetes plugin synced: \d+ Services in its caches; \/ready answers 200\./);
  const names = caches.getByRole('table', { name: 'Names CoreDNS answers' });
  await expect(names).toContainText('kube-dns.kube-system.svc.cluster.local.');
  await expect(names).toContainText('kubernetes.default.svc.cluster.local.');
  await expect(names).toContainText(ip);
  await caches.scrollIntoViewIfNeeded();
  await shot(page, 'inspector-coredns-caches');
});
