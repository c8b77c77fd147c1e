// Time controls: pause, step, speed.
import { expect, test } from '@playwright/test';
import { FAST, setSpeed, shot, view, waitForLeader } from './helpers';

test('pause stops the clock, step processes one event, speed changes the pace', async ({ page }) => {
  await page.goto('/?speed=10');
  await waitForLeader(page);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect.poll(async () => (await view(page)).clock.playing, { intervals: FAST }).toBe(false);
  const paused = await view(page);
  const clockText = await page.getByTestId('virtual-time').innerText();
  await page.waitForTimeout(500);
  expect((await view(page)).clock.virtualTime).toBe(paused.clock.virtualTime);
  await expect(page.getByTestId('virtual-time')).toHaveText(clockText);

  // Step: exactly one kernel event per click.
  for (let i = 1; i <= 3; i++) {
    await page.getByRole('button', { name: 'Step to next event' }).click();
    await expect.poll(async () => (await view(page)).clock.events, { intervals: FAST }).toBe(paused.clock.events + i);
  }
  const stepped = await view(page);
  expect(stepped.clock.virtualTime).toBeGreaterThanOrEqual(paused.clock.virtualTime);
  expect(stepped.clock.playing).toBe(false);
  await shot(page, 'paused-stepped');

  // Slow: x0.1 for a moment moves the clock by well under a second.
  await setSpeed(page, 0.1);
  await page.getByRole('button', { name: 'Play' }).click();
  const t0 = (await view(page)).clock.virtualTime;
  await page.waitForTimeout(1000);
  const slow = (await view(page)).clock.virtualTime - t0;
  expect(slow).toBeGreaterThan(0);
  expect(slow).toBeLessThan(1000);

  // Fast: x100 covers many virtual seconds in the same wall time.
  await setSpeed(page, 100);
  const t1 = (await view(page)).clock.virtualTime;
  await page.waitForTimeout(1000);
  const fast = (await view(page)).clock.virtualTime - t1;
  expect(fast).toBeGreaterThan(10 * slow);
  expect(fast).toBeGreaterThan(10_000);
  await shot(page, 'speed-x100');
});

test('stepping shows messages mid-flight in the ring', async ({ page }) => {
  await page.goto('/?speed=10');
  await waitForLeader(page);
  await page.getByRole('button', { name: 'Pause' }).click();
  // Step until a message is in flight (a heartbeat comes every 100 ms of virtual time).
  for (let i = 0; i < 200; i++) {
    if ((await view(page)).inFlight.length > 0) break;
    await page.getByRole('button', { name: 'Step to next event' }).click();
  }
  const v = await view(page);
  expect(v.inFlight.length).toBeGreaterThan(0);
  // Several messages may share a lane; the last one drawn is on top of the others.
  const top = page.locator('g.msg').last();
  await expect(top).toBeVisible();
  const label = (await top.getAttribute('aria-label'))!;
  expect(v.inFlight.some((m) => label.startsWith(`${m.type} from ${m.from} to ${m.to}`))).toBe(true);
  await top.locator('circle').click();
  await expect(page.getByRole('heading', { name: new RegExp(`Message #\\d+`) })).toBeVisible();
  await shot(page, 'message-in-flight');
});

test('"Message" steps to the next delivery, one message at a time', async ({ page }) => {
  await page.goto('/?speed=10');
  await waitForLeader(page);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(async () => (await view(page)).clock.playing, { intervals: FAST }).toBe(false);
  for (let i = 0; i < 3; i++) {
    const before = (await view(page)).clock.events;
    await page.getByRole('button', { name: 'Step to next message' }).click();
    await expect.poll(async () => (await view(page)).clock.events, { intervals: FAST }).toBeGreaterThan(before);
    // Any delivery (or drop) between any two actors: Raft messages and the control plane's HTTP alike.
    await expect(page.getByText(/stepped:\s*(deliver|drop) \w+ [\w-]+ → [\w-]+/)).toBeVisible();
  }
  await shot(page, 'stepped-message');
});
