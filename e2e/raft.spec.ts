// The etcd/Raft view: election, failover, partitions, as a user sees them.
import { expect, test } from '@playwright/test';
import { FAST, leader, memberButton, members, shot, view, waitForLeader, etcdClient } from './helpers';

test('a leader appears', async ({ page }) => {
  await page.goto('/?speed=10');
  await expect(page.getByTestId('scenario-name')).toHaveText('etcd: 3 members');
  await expect(page.getByRole('button', { name: /^etcd-\d: leader, term \d+/ })).toBeVisible();
  const l = await waitForLeader(page);
  // Every member agrees on the leader and the term.
  await expect.poll(async () => (await members(page)).every((m) => m.leader === l.name && m.term === l.term)).toBe(true);
  await page.getByRole('button', { name: `Inspect ${l.name}` }).click();
  await expect(page.getByRole('heading', { name: /replication progress/i })).toBeVisible();
  await shot(page, 'leader-elected');
});

test('crashing the leader elects a new one in a higher term; the old one rejoins', async ({ page }) => {
  await page.goto('/?speed=10');
  const old = await waitForLeader(page);
  await memberButton(page, old.name).click();
  await page.getByRole('button', { name: `Crash ${old.name}` }).click();
  await expect(memberButton(page, old.name)).toHaveAccessibleName(new RegExp(`^${old.name}: down`));
  const next = await waitForLeader(page, { not: old.name, minTerm: old.term + 1 });
  expect(next.term).toBeGreaterThan(old.term);
  await expect(memberButton(page, next.name)).toHaveAccessibleName(new RegExp(`^${next.name}: leader, term ${next.term}`));
  await shot(page, 'leader-crashed');

  await page.getByRole('button', { name: `Restart ${old.name}` }).click();
  await expect
    .poll(async () => {
      const v = await view(page);
      const m = v.members[old.name]!;
      return m.up && m.role === 'follower' && m.leader === next.name;
    })
    .toBe(true);
  // The markers strip recorded the crash and the new leader.
  await expect(page.getByRole('img', { name: /Timeline markers: .*crash/ })).toBeVisible();
});

test('a partitioned minority cannot commit; after heal it catches up', async ({ page }) => {
  await page.goto('/?speed=10');
  const l = await waitForLeader(page);
  const client = await etcdClient(page);

  // One put first, so the client has learned where the leader is.
  await client.getByRole('textbox', { name: 'Key' }).fill('/warmup');
  await client.getByRole('textbox', { name: 'Value' }).fill('1');
  await client.getByRole('button', { name: 'Put' }).click();
  await expect(client.locator('li.result[data-state="ok"]').first()).toBeVisible();

  // The minority: one follower, cut off from the other two.
  const all = await members(page);
  const minority = all.filter((m) => m.name !== l.name).pop()!;
  await page.getByRole('checkbox', { name: `Pick ${minority.name} for partition` }).check();
  await page.getByRole('button', { name: 'Partition selected' }).click();
  await expect(page.getByText(/groups: \{/)).toBeVisible();
  const stuckAt = (await view(page)).members[minority.name]!.commitIndex;

  await client.getByRole('textbox', { name: 'Key' }).fill('/during-partition');
  await client.getByRole('textbox', { name: 'Value' }).fill('majority');
  await client.getByRole('button', { name: 'Put' }).click();
  const latest = client.locator('li.result').first();
  await expect(latest).toHaveAttribute('data-state', 'ok');
  await expect(latest).toContainText('etcdctl put /during-partition majority');

  // The majority committed it; the minority did not.
  await expect
    .poll(async () => {
      const v = await view(page);
      const cur = await leader(page);
      return cur !== null && cur.name !== minority.name && cur.commitIndex > v.members[minority.name]!.commitIndex;
    })
    .toBe(true);
  await expect(page.getByRole('cell', { name: '/during-partition' })).toBeVisible();
  // Give it time: the minority's commit index must stay where it was.
  await page.waitForTimeout(1000);
  const during = await view(page);
  expect(during.members[minority.name]!.commitIndex).toBe(stuckAt);
  const majorityCommit = Math.max(...Object.values(during.members).map((m) => m.commitIndex));
  expect(majorityCommit).toBeGreaterThan(stuckAt);
  await shot(page, 'partition-minority');

  await page.getByRole('button', { name: 'Heal' }).click();
  await expect(page.getByText('network whole')).toBeVisible();
  await expect
    .poll(
      async () => {
        const ms = await members(page);
        const lead = ms.find((m) => m.role === 'leader');
        return (
          lead !== undefined &&
          ms.every((m) => m.up && m.lastLogIndex === lead.lastLogIndex && m.commitIndex === lead.commitIndex && m.appliedIndex === lead.appliedIndex)
        );
      },
      { message: 'logs converge after heal' },
    )
    .toBe(true);
  // The strips show equal indexes too (they follow the view a few times a second, so give them a moment).
  await expect.poll(async () => new Set(await page.locator('.strip-stats').allInnerTexts()).size, { intervals: FAST }).toBe(1);
  await shot(page, 'partition-healed');
});

test('leadership moves to the member the user picks', async ({ page }) => {
  await page.goto('/?speed=10');
  const l = await waitForLeader(page);
  const target = (await members(page)).find((m) => m.name !== l.name)!;
  await page.getByRole('button', { name: `Inspect ${target.name}` }).click();
  await page.getByRole('button', { name: `Transfer leadership to ${target.name}` }).click();
  const next = await waitForLeader(page, { not: l.name, minTerm: l.term + 1 });
  expect(next.name).toBe(target.name);
  const client = await etcdClient(page);
  await expect(client.locator('li.result[data-op="transferLeader"]').first()).toHaveAttribute('data-state', 'ok');
  await expect(client.locator('li.result').first()).toContainText(`etcdctl move-leader ${target.memberId}`);
});
