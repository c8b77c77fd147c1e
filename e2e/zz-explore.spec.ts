import { expect, test } from '@playwright/test';
test('explore', async ({ page }) => {
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/?speed=10');
  await page.waitForTimeout(2000);
  await page.screenshot({ path: '/tmp/kg/r1.png' });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.locator('.xterm-helper-textarea').focus();
  await page.keyboard.type('help\r');
  await page.keyboard.type('kubectl get configmaps -A\r');
  await page.waitForTimeout(2000);
  await page.keyboard.type('kubectl get n\t');
  await page.waitForTimeout(500);
  await page.keyboard.type('\t');
  await page.waitForTimeout(500);
  await page.screenshot({ path: '/tmp/kg/r2.png' });
});
