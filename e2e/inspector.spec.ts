// The object inspector: click a pod on the map to see its live YAML (as
// kubectl get -o yaml prints it), follow its owner links up to the
// Deployment and back down, read each object's events (kubectl describe's
// Type, Reason, Age, From, Message), and watch the YAML follow a change.
import { expect, test } from '@playwright/test';
import { clickOnMap, FAST, kubectl, shot, webServiceAndClient } from './helpers';

test('inspect a pod from the map, follow owners up and dependents down, see events and live YAML', async ({ page }) => {
  await page.goto('/?speed=10');
  await page.getByRole('tab', { name: 'Cluster' }).click();
  const created = await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2']);
  expect(created.stderr, created.stderr).toBe('');
  const ready = page.getByRole('list', { name: 'Pods' }).locator('li[data-state="ready"][data-pod^="default/"]');
  await expect(ready).toHaveCount(2, { timeout: 40_000 });
  const podKey = (await ready.first().getAttribute('data-pod'))!;
  const podName = podKey.split('/')[1]!;

  // Click the pod's square.
  const at = (await page.evaluate((k) => window.__kubeglassClusterMap!.locate('pod', k), podKey))!;
  await page.mouse.click(at.x, at.y);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.locator('.obj-title')).toContainText(`Pod ${podKey}`);
  const yaml = inspector.getByLabel(`YAML of Pod ${podName}`);
  await expect(yaml).toContainText('apiVersion: v1\nkind: Pod\nmetadata:');
  await expect(yaml).toContainText(`name: ${podName}`);
  await expect(yaml).toContainText('nodeName: node-');
  await expect(yaml).toContainText('phase: Running');
  await expect(yaml).not.toContainText('managedFields');
  // The YAML is exactly what the in-page kubectl prints.
  const printed = await kubectl(page, ['get', 'pod', podName, '-o', 'yaml']);
  expect((await yaml.innerText()).trim()).toBe(printed.stdout.trim());
  const events = inspector.getByRole('table', { name: `Events of Pod ${podName}` });
  await expect(events.locator('thead th')).toHaveText(['Type', 'Reason', 'Age', 'From', 'Message']);
  await expect(events.locator('tbody[data-reason="Scheduled"]')).toContainText(`default-schedulerSuccessfully assigned ${podKey} to node-`);
  await expect(events.locator('tbody[data-reason="Started"]')).toContainText('kubelet');
  await shot(page, 'inspector-pod');

  // Up: the ReplicaSet, then the Deployment.
  const owners = inspector.getByRole('region', { name: 'Owners' });
  await owners.getByRole('button', { name: /^Inspect ReplicaSet web-/ }).click();
  await expect(inspector.locator('.obj-title')).toContainText('ReplicaSet default/web-');
  const owned = inspector.getByRole('region', { name: 'Owned' });
  await expect(owned.getByRole('button', { name: /^Inspect Pod web-/ })).toHaveCount(2);
  await expect(inspector.getByRole('region', { name: 'Events' })).toContainText('SuccessfulCreate');
  await inspector.getByRole('region', { name: 'Owners' }).getByRole('button', { name: 'Inspect Deployment web' }).click();
  await expect(inspector.locator('.obj-title')).toContainText('Deployment default/web');
  const depYaml = inspector.getByLabel('YAML of Deployment web');
  await expect(depYaml).toContainText('replicas: 2');
  await expect(inspector.getByRole('region', { name: 'Events' })).toContainText(/ScalingReplicaSet.*deployment-controller.*Scaled up replica set web-[a-z0-9]+ from 0 to 2/);
  await shot(page, 'inspector-deployment');

  // Live: a scale shows up in the YAML and the events without reselecting.
  const scaled = await kubectl(page, ['scale', 'deployment', 'web', '--replicas=3']);
  expect(scaled.stderr, scaled.stderr).toBe('');
  await expect(depYaml).toContainText('replicas: 3');
  await expect(inspector.getByRole('region', { name: 'Events' })).toContainText('from 2 to 3');

  // Down again, to a pod; then "Show on map" highlights it there.
  await inspector.getByRole('region', { name: 'Owned' }).getByRole('button', { name: /^Inspect ReplicaSet web-/ }).click();
  await inspector.getByRole('region', { name: 'Owned' }).getByRole('button', { name: /^Inspect Pod web-/ }).first().click();
  await expect(inspector.locator('.obj-title')).toContainText('Pod default/web-');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('tab', { name: 'Events' }).click();
  await inspector.getByRole('button', { name: 'Show on map' }).click();
  await expect(page.getByRole('tab', { name: 'Cluster' })).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'inspector-pod-1280');

  // A node, clicked on the map: its YAML, events and fault buttons.
  await clickOnMap(page, 'node', 'node-2');
  await expect(inspector.locator('.obj-title')).toContainText('Node node-2');
  await expect(inspector.getByLabel('YAML of Node node-2')).toContainText('kind: Node');
  await expect(inspector.getByRole('group', { name: 'Faults for node-2' }).getByRole('button', { name: 'Lose the node node-2' })).toBeVisible();
  await expect(inspector.getByRole('region', { name: 'Events' })).toContainText(/NodeReady|Starting|RegisteredNode/);
  await shot(page, 'inspector-node-1280');
});

test("a node's inspector shows its kube-proxy and the iptables rules it wrote for a Service, with the client's packets counted", async ({ page }) => {
  await page.goto('/?speed=10');
  await page.getByRole('tab', { name: 'Cluster' }).click();
  await webServiceAndClient(page);
  const ip = (await kubectl(page, ['get', 'service', 'web', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
  const node = (await kubectl(page, ['get', 'pod', 'client', '-o', 'jsonpath={.spec.nodeName}'])).stdout;
  // The rules reach the client's node within kube-proxy's sync (at most a second after a burst).
  await expect.poll(async () => { const r = await kubectl(page, ['exec', 'client', '--', 'wget', '-qO-', ip]); return r.stdout + r.stderr; }, { timeout: 30_000, intervals: FAST }).toContain('<title>Welcome to nginx!</title>');

  await clickOnMap(page, 'node', node);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.locator('.obj-title')).toContainText(`Node ${node}`);
  const section = inspector.getByRole('region', { name: 'kube-proxy and iptables' });
  await expect(section.getByTestId('kube-proxy-state')).toContainText(/^up, synced · last sync \S+: \d+ service ports, \d+ endpoints/);
  await section.getByLabel('Filter iptables rules').fill('default/web');
  const rules = section.getByLabel(`iptables-save -c -t nat on ${node}`);
  // The client's connection counted on its node's rule. Each kube-proxy sync rewrites KUBE-SERVICES and its counters
  // start again at zero (as a real iptables-restore of the chain does), and the cluster may still be settling (CoreDNS
  // becoming ready moves kube-dns's endpoints): connect again until a count shows.
  const counted = new RegExp(`\\[[1-9]\\d*:\\d+\\] -A KUBE-SERVICES -d ${ip.replace(/\./g, '\\.')}/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-`);
  await expect
    .poll(
      async () => {
        // What the rules show now (an earlier round's connection included), then one more connection for the next read.
        const text = (await rules.textContent()) ?? '';
        await kubectl(page, ['exec', 'client', '--', 'wget', '-qO-', ip]);
        return text;
      },
      { timeout: 30_000, intervals: FAST },
    )
    .toMatch(counted);
  await expect(rules).toContainText('-m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-');
  await expect(rules).not.toContainText('default/kubernetes');
  await inspector.getByRole('region', { name: 'kube-proxy and iptables' }).scrollIntoViewIfNeeded();
  await shot(page, 'inspector-node-iptables');
  await section.getByLabel('iptables table').selectOption('filter');
  await section.getByLabel('Filter iptables rules').fill('');
  await expect(section.getByLabel(`iptables-save -c -t filter on ${node}`)).toContainText('-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT');
  await section.getByLabel('iptables table').selectOption('nat');

  // The Service, reached from the EndpointSlice controller's reconciles: its chain, and its rules on a node.
  await page.getByRole('button', { name: 'endpointslice-controller' }).click();
  await page.getByRole('button', { name: 'Inspect services default/web' }).first().click();
  await expect(inspector.locator('.obj-title')).toContainText('Service default/web');
  const chains = inspector.getByRole('region', { name: 'kube-proxy chains' });
  await expect(chains).toContainText(/default\/web → KUBE-SVC-[A-Z2-7]{16} · rules on node-1 node-2 node-3/);
  const chain = /KUBE-SVC-[A-Z2-7]{16}/.exec((await chains.textContent()) ?? '')![0];
  await shot(page, 'inspector-service-chains');
  await chains.getByRole('button', { name: `${chain} on ${node}` }).click();
  await expect(inspector.locator('.obj-title')).toContainText(`Node ${node}`);
  await expect(section.getByLabel('Filter iptables rules')).toHaveValue(chain);
  await expect(section.getByLabel(`iptables-save -c -t nat on ${node}`)).toContainText(`-A KUBE-SVC-`);
  await expect(section.getByLabel(`iptables-save -c -t nat on ${node}`)).not.toContainText('KUBE-POSTROUTING');
});
