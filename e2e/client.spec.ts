// The client box: put, get, delete and watch, printed like etcdctl.
import { expect, test } from '@playwright/test';
import { shot, waitForLeader, etcdClient } from './helpers';

test('put, get, delete and watch through the client', async ({ page }) => {
  await page.goto('/?speed=10');
  await waitForLeader(page);
  const client = await etcdClient(page);

  await client.getByRole('textbox', { name: 'Watch prefix' }).fill('/app/');
  await client.getByRole('button', { name: 'Watch' }).click();
  const watch = client.getByRole('region', { name: /^Watch \d+ on \/app\// });
  await expect(watch).toBeVisible();

  await client.getByRole('textbox', { name: 'Key' }).fill('/app/color');
  await client.getByRole('textbox', { name: 'Value' }).fill('blue');
  await client.getByRole('button', { name: 'Put' }).click();
  await expect(client.locator('li.result').first()).toHaveAttribute('data-state', 'ok');
  await expect(client.locator('li.result').first().locator('pre')).toHaveText('OK');

  await client.getByRole('combobox', { name: 'Read consistency' }).selectOption('s');
  await client.getByRole('button', { name: 'Get' }).click();
  const get = client.locator('li.result[data-op="get"]').first();
  await expect(get).toContainText('etcdctl get /app/color --consistency=s');
  await expect(get.locator('pre')).toHaveText('/app/color\nblue');

  await expect(watch.locator('pre')).toContainText('PUT\n/app/color\nblue');
  await expect(page.getByRole('row', { name: /\/app\/color blue/ })).toBeVisible();

  await client.getByRole('button', { name: 'Delete' }).click();
  const del = client.locator('li.result[data-op="delete"]').first();
  await expect(del.locator('pre')).toHaveText('1');
  await expect(watch.locator('pre')).toContainText('DELETE\n/app/color');
  await shot(page, 'client-watch');

  // Both themes keep everything readable.
  const theme = await page.locator('html').getAttribute('data-theme');
  const other = theme === 'dark' ? 'light' : 'dark';
  await page.getByRole('button', { name: `Switch to ${other} theme` }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', other);
  await shot(page, `client-watch-${other}`);
});
