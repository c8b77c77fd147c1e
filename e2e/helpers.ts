// Shared helpers for the Playwright specs: read the latest view through the
// page's debug hook, find the leader, take screenshots.
import { expect, type Page } from '@playwright/test';
import type { EtcdMemberView } from '../engine/facade/types';
import type { KubeglassDebugHook } from '../app/debugHook';

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
