import { expect, test } from '@playwright/test';
test('explore', async ({ page }) => {
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?speed=10');
  await page.waitForTimeout(2500);
  await page.screenshot({ path: '/tmp/kg/r1.png' });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/kg/r2.png' });
  await page.goto('/?speed=10&members=5');
  await page.waitForTimeout(2500);
  await page.screenshot({ path: '/tmp/kg/r4.png' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: '/tmp/kg/r3.png' });
});
