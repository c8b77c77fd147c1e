// Shared helpers for the Playwright specs: read the latest view through the
// page's debug hook, find the leader, run kubectl, take screenshots.
import { expect, type Page } from '@playwright/test';
import type { EtcdMemberView } from '../engine/facade/types';
import type { KubeglassDebugHook } from '../app/debugHook';
import type { KubectlOutput } from '../engine/host/protocol';

type View = ReturnType<KubeglassDebugHook['view']>;

/** Poll quickly: the page updates every frame. */
export const FAST = [50, 100, 200];

export async function view(page: Page): Promise<View> {
  return page.evaluate(() => {
    const v = window.__kubeglass!.view();
    return JSON.parse(JSON.stringify(v)) as typeof v;
  });
}

export async function members(page: Page): Promise<EtcdMemberView[]> {
  const v = await view(page);
  return v.memberOrder.map((n) => v.members[n]!).filter(Boolean);
}

/** The up member that believes it leads in the highest term, or null. */
export async function leader(page: Page): Promise<EtcdMemberView | null> {
  let best: EtcdMemberView | null = null;
  for (const m of await members(page)) if (m.role === 'leader' && (!best || m.term > best.term)) best = m;
  return best;
}

export async function waitForLeader(page: Page, opts: { not?: string; minTerm?: number } = {}): Promise<EtcdMemberView> {
  let found: EtcdMemberView | null = null;
  await expect
    .poll(
      async () => {
        found = await leader(page);
        return found !== null && found.name !== opts.not && found.term >= (opts.minTerm ?? 0);
      },
      { message: 'a leader is elected', intervals: FAST },
    )
    .toBe(true);
  return found!;
}

/** The ring's button for a member (its accessible name starts with "etcd-N:"). */
export function memberButton(page: Page, name: string) {
  return page.getByRole('button', { name: new RegExp(`^${name}: `) });
}

/** Opens the dock's etcd client tab and returns its region. */
export async function etcdClient(page: Page) {
  await page.getByRole('tab', { name: 'etcd client' }).click();
  return page.getByRole('region', { name: 'etcd client' });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

export async function setSpeed(page: Page, speed: number): Promise<void> {
  await page.getByRole('combobox', { name: 'Speed' }).selectOption(String(speed));
  await expect.poll(async () => (await view(page)).clock.speed, { intervals: FAST }).toBe(speed);
}

/** `kubectl ARGS` in the page's simulation (files: what `-f NAME` reads), once its hook is up. */
export async function kubectl(page: Page, args: string[], files: Record<string, string> = {}): Promise<KubectlOutput> {
  await expect.poll(() => page.evaluate(() => !!window.__kubeglassScheduler), { intervals: FAST }).toBe(true);
  return page.evaluate(([a, f]) => window.__kubeglassScheduler!.kubectl(a, f), [args, files] as const);
}

/**
 * The Service scenario several specs start from: Deployment `web` (two nginx pods) exposed on 80, and a busybox
 * `client` pod; it returns once both endpoints are ready and the client runs.
 */
export async function webServiceAndClient(page: Page): Promise<void> {
  expect((await kubectl(page, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2'])).stderr).toBe('');
  expect((await kubectl(page, ['expose', 'deployment', 'web', '--port=80'])).stderr).toBe('');
  expect((await kubectl(page, ['run', 'client', '--image=busybox:1.36', '--', 'sleep', '3600'])).stderr).toBe('');
  await expect.poll(async () => (await kubectl(page, ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[0].endpoints[*].conditions.ready}'])).stdout, { timeout: 60_000, intervals: FAST }).toBe('true true');
  await expect.poll(async () => (await kubectl(page, ['get', 'pod', 'client', '-o', 'jsonpath={.status.phase}'])).stdout, { timeout: 60_000, intervals: FAST }).toBe('Running');
}

/** Clicks a node or pod (`namespace/name`) on the cluster map: the map goes to it first, so it is where a click lands. */
export async function clickOnMap(page: Page, kind: 'node' | 'pod', name: string): Promise<void> {
  expect(await page.evaluate(([k, n]) => window.__kubeglassClusterMap!.focus(k, n), [kind, name] as const)).toBe(true);
  await expect.poll(() => page.evaluate(([k, n]) => window.__kubeglassClusterMap!.locate(k, n), [kind, name] as const)).not.toBeNull();
  const at = (await page.evaluate(([k, n]) => window.__kubeglassClusterMap!.locate(k, n), [kind, name] as const))!;
  await page.mouse.click(at.x, at.y);
}
