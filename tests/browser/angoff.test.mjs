// Modified-Angoff standard setting end to end (issue 35, item 2): the admin opens a panel of
// two experts for the seeded React Developer quiz in Quiz Management and gets their links;
// one expert, with no account, rates on the link page, saves, comes back, skips an item and
// submits (the link then only says thank you); the other rates through the API; the admin
// sees the progress and the recommended cut, adopts it, and the public report names the
// method. axe in both themes on the rater's page and the admin's section.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, settled, shot, watchErrors, seededBadges, badgeIdOf, screenshotDir, ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const API = '/backend/api/v1';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const call = async (req, method, p, data) => {
  const r = await req[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
};

/** A screenshot of one element (the admin's section; the dashboard page is long). */
const elementShot = (loc, name) => loc.screenshot({ path: path.join(screenshotDir, name + '.png') });

async function axe(page, label, include) {
  const builder = new AxeBuilder({ page, axeSource }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (include) builder.include(include);
  const res = await builder.analyze();
  assert.deepEqual(res.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), []);
}

/** axe in both themes; show() loads the page and answers the section to check (null: the
 * whole page). */
async function bothThemes(page, label, show, shotName) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => localStorage.setItem('vite-ui-theme', t), theme);
    const target = await show();
    await settled(page);
    await axe(page, `${label} (${theme})`, target ? '[data-testid="standard-setting"]' : undefined);
    if (theme === 'dark') await (target ? elementShot(target, shotName) : shot(page, shotName));
  }
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
}

async function signIn(ctx) {
  await ctx.clearCookies();
  const r = await call(ctx.request, 'post', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

async function openQuiz(page, badge) {
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: 'Quiz Management' }).click();
  await page.getByRole('tab', { name: 'Select Badge' }).click();
  await page.locator(`[data-testid="select-badge"][data-badge-name="${badge}"]`).click();
  await page.getByTestId('standard-setting').waitFor();
}

const toast = (page, text) => page.locator('#toaster').getByText(text, { exact: false }).first().waitFor({ timeout: 10000 });

test('a panel rates the React quiz and its cut becomes the pass mark', async () => {
  const ctx = browser.context;
  const badgeId = badgeIdOf(await seededBadges(server), 'React Developer');
  await signIn(ctx);
  const page = await ctx.newPage();
  const errors = watchErrors(page);

  // ---- the admin opens a panel of two ----
  await openQuiz(page, 'React Developer');
  const card = page.getByTestId('standard-setting');
  assert.match(await card.getByTestId('angoff-pass-mark').innerText(), /a fixed percentage set by the administrator/);
  await card.getByTestId('angoff-rater-name').first().fill('Ada Lovelace');
  await card.getByTestId('angoff-rater-email').first().fill('ada@example.com');
  await card.getByTestId('angoff-add-rater').click();
  await card.getByTestId('angoff-rater-name').nth(1).fill('Grace Hopper');
  await card.getByTestId('angoff-open').click();
  await toast(page, 'Panel opened');
  await card.getByTestId('angoff-link').nth(1).waitFor();
  const urls = await card.locator('[data-testid="angoff-link"] input').evaluateAll((xs) => xs.map((x) => x.value));
  assert.equal(urls.length, 2);
  assert.ok(urls.every((u) => /\/angoff\/[A-Za-z0-9_-]{43}$/.test(u)), urls.join(' '));
  assert.equal(await card.getByTestId('angoff-rater').count(), 2);
  assert.match(await card.getByTestId('angoff-result').innerText(), /Not enough ratings yet/);
  await elementShot(card, 'angoff-admin-opened-1280');

  // ---- Ada, without an account, rates on her link page ----
  await ctx.clearCookies();
  const rater = await ctx.newPage();
  const raterErrors = watchErrors(rater);
  await rater.goto(urls[0]);
  await hydrated(rater, 'AngoffRater');
  assert.match(await rater.locator('meta[name="robots"]').getAttribute('content'), /noindex/);
  const items = rater.getByTestId('angoff-item');
  const n = await items.count();
  assert.ok(n >= 3, `${n} items`);
  await bothThemes(rater, 'rater page', async () => {
    await rater.reload();
    await hydrated(rater, 'AngoffRater');
  }, 'angoff-rater-dark-1280');
  // two ratings, saved; a reload brings them back
  await items.nth(0).getByTestId('angoff-value').fill('60');
  await items.nth(1).getByTestId('angoff-value').fill('80');
  await rater.getByTestId('angoff-save').click();
  await toast(rater, 'Ratings saved');
  await rater.reload();
  await hydrated(rater, 'AngoffRater');
  assert.equal(await items.nth(1).getByTestId('angoff-value').inputValue(), '80');
  assert.match(await rater.getByTestId('angoff-progress').innerText(), new RegExp(`^2 of ${n} `));
  assert.equal(await rater.getByTestId('angoff-submit').isDisabled(), true, 'submit waits for every item');
  // the rest: one skipped, the others 70
  await items.nth(2).getByTestId('angoff-skip').check();
  for (let i = 3; i < n; i++) await items.nth(i).getByTestId('angoff-value').fill('70');
  await shot(rater, 'angoff-rater-1280');
  await rater.getByTestId('angoff-submit').click();
  await rater.getByTestId('angoff-confirm-submit').click();
  await rater.getByTestId('angoff-thanks').waitFor();
  // the link is spent: a thank-you page without the questions
  await rater.reload();
  await rater.getByTestId('angoff-submitted').waitFor();
  assert.equal(await rater.getByTestId('angoff-item').count(), 0);
  await axe(rater, 'rater thank-you page');
  await shot(rater, 'angoff-rater-submitted-1280');
  // a phone
  await rater.setViewportSize({ width: 390, height: 800 });
  await rater.goto(urls[1]);
  await hydrated(rater, 'AngoffRater');
  await shot(rater, 'angoff-rater-390');
  assert.deepEqual(raterErrors, []);
  await rater.close();

  // ---- Grace rates everything 50 through the API and submits ----
  const tok = urls[1].split('/angoff/')[1];
  let r = await call(ctx.request, 'get', `/angoff/${tok}/ratings`);
  assert.equal(r.status, 200);
  const ratings = Object.fromEntries(r.body.items.map((it) => [it._id, 50]));
  r = await call(ctx.request, 'put', `/angoff/${tok}/ratings`, { ratings, submit: true });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  r = await call(ctx.request, 'put', `/angoff/${tok}/ratings`, { ratings, submit: true });
  assert.equal(r.status, 409);

  // ---- the admin sees the cut and adopts it ----
  // Ada's cut: (60 + 80 + 70 (n - 3)) / (n - 1); Grace's 50
  const ada = (140 + 70 * (n - 3)) / (n - 1);
  const cut = (ada + 50) / 2;
  await signIn(ctx);
  await openQuiz(page, 'React Developer');
  const result = card.getByTestId('angoff-result');
  await result.waitFor();
  assert.match(await result.innerText(), new RegExp(`${cut.toFixed(1)}%`));
  assert.match(await card.getByTestId('angoff-rater').nth(0).innerText(), new RegExp(`${n - 1} of ${n}`));
  await elementShot(card, 'angoff-admin-result-1280');
  await bothThemes(page, 'admin standard setting', async () => {
    await openQuiz(page, 'React Developer');
    await card.getByTestId('angoff-result').waitFor();
    return card;
  }, 'angoff-admin-dark-1280');
  await card.getByTestId('angoff-adopt').click();
  await toast(page, `Pass mark set to ${Math.round(cut)}%`);
  await card.getByText(/set by a panel \(modified Angoff, 2 raters, \d{4}-\d\d-\d\d\)/).waitFor();
  assert.equal(await card.getByTestId('angoff-adopt').count(), 0, 'the panel is decided');
  await elementShot(card, 'angoff-admin-adopted-1280');
  assert.deepEqual(errors, []);

  // ---- the public report names the method ----
  await ctx.clearCookies();
  const pub = await ctx.newPage();
  await pub.goto(server.url + `/badges/${badgeId}/assessment`);
  const how = await pub.getByTestId('report-pass-mark').innerText();
  assert.match(how, new RegExp(`Pass mark: ${Math.round(cut)}%, set by a modified-Angoff panel of 2 raters on \\d{4}-\\d\\d-\\d\\d\\.`));
  await shot(pub, 'angoff-report-1280');
  await pub.close();
});
