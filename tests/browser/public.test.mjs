import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, wake, shot, watchErrors } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const pages = [
  ['/', 'home', 'Discover Badges'],
  ['/about', 'about', 'About'],
  ['/services', 'services', 'Services'],
  ['/contact', 'contact', 'Contact'],
  ['/shippingpolicy', 'policy-shipping', 'Shipping'],
  ['/termsandconditions', 'policy-terms', 'Terms'],
  ['/cancellationsandrefunds', 'policy-refunds', 'Refund'],
  ['/privacypolicy', 'policy-privacy', 'Privacy'],
  ['/no-such-page', '404', 'Return Home'],
];

test('each public page renders with the shell and no script errors', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  for (const [path, name, text] of pages) {
    const res = await page.goto(server.url + path);
    assert.equal(res.status(), path === '/no-such-page' ? 404 : 200, path);
    await page.getByText(text, { exact: false }).first().waitFor();
    assert.ok(await page.locator('footer').getByText('© 2025').isVisible(), `${path}: footer copyright`);
    await shot(page, `public-${name}-1280`);
  }
  assert.deepEqual(errors.filter((e) => !e.includes('404')), []);
  await page.close();
});

test('theme switches to dark, persists under vite-ui-theme, and applies before paint', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), false, 'light by default');
  await wake(page, 'Header');
  await page.click('[data-testid="theme-toggle"]');
  await page.click('[data-theme-choice="dark"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('vite-ui-theme')), 'dark');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
  await page.reload();
  // the inline head script applied it before any module ran
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
  await shot(page, 'public-home-dark-1280');
  await wake(page, 'Header');
  await page.click('[data-testid="theme-toggle"]');
  await page.click('[data-theme-choice="system"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('vite-ui-theme')), 'system');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.close();
});

test('the mobile menu opens and lists the navigation', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/');
  assert.equal(await page.locator('#mobile-nav').count(), 0);
  await shot(page, 'public-home-390');
  // the first tap wakes the lazy header and is replayed once React has hydrated it
  await page.click('[data-testid="mobile-menu-toggle"]');
  await page.waitForSelector('#mobile-nav', { timeout: 15000 });
  for (const label of ['Home', 'Badges', 'Services', 'Hall of Fame', 'About', 'Contact', 'Verify']) {
    assert.ok(await page.locator('#mobile-nav').getByText(label, { exact: true }).first().isVisible(), label);
  }
  await shot(page, 'public-mobile-menu-390');
  await page.close();
});
