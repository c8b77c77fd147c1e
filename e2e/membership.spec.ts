// Membership changes from the UI: etcdctl member add / member remove.
import { expect, test } from '@playwright/test';
import { FAST, etcdClient, memberButton, members, shot, waitForLeader } from './helpers';

const names = async (page: Parameters<typeof members>[0]) => (await members(page)).map((m) => m.name).join(',');

test('a member added through the UI joins and catches up; a removed one leaves the cluster', async ({ page }) => {
  await page.goto('/?speed=10');
  await waitForLeader(page);
  // etcdctl's answers print in the dock's etcd client tab.
  await etcdClient(page);
  await page.getByRole('button', { name: 'Add a member' }).click();
  await expect.poll(() => names(page), { intervals: FAST }).toBe('etcd-0,etcd-1,etcd-2,etcd-3');
  await expect
    .poll(
      async () => {
        const ms = await members(page);
        const lead = ms.find((m) => m.role === 'leader');
        const joined = ms.find((m) => m.name === 'etcd-3');
        return !!lead && joined?.role === 'follower' && joined.commitIndex === lead.commitIndex && joined.leader === lead.name;
      },
      { message: 'etcd-3 joins as a follower and catches up', intervals: FAST },
    )
    .toBe(true);
  await expect(page.getByText(/Member [0-9a-f]+ added to cluster/)).toBeVisible();
  await shot(page, 'member-added');
  await memberButton(page, 'etcd-3').click();
  await page.getByRole('button', { name: 'Remove etcd-3 from the cluster' }).click();
  await expect.poll(() => names(page), { intervals: FAST }).toBe('etcd-0,etcd-1,etcd-2');
  await expect(page.getByText(/Member [0-9a-f]+ removed from cluster/)).toBeVisible();
  await shot(page, 'member-removed');
});
