// The applications table of the admin dashboard (issue 37 item 1): 60 applications seeded
// straight into SQLite; the review queue shows on the first screen at 1280x800 as a dense
// table; pages, page size and sorting are the server's; Export CSV downloads what the
// filter shows (formulas defused); a row opens the details dialog from the keyboard; axe
// in both themes; cards at 390 px. The grants table filters, sorts and opens a grant.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, watchErrors, settled, shot, screenshotDir, ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.mjs';

const API = '/backend/api/v1';
const BADGE = 'Open Source Contributor';
const N = 60;
let server, browser, badgeId;

const hex = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** N members with a paid application each, a minute apart, price rising; #7's name is a formula. */
function seed() {
  const sql = ['BEGIN;'];
  for (let i = 0; i < N; i++) {
    const at = new Date(Date.now() - (N - i) * 60000).toISOString().replace('T', ' ').replace('Z', '+00:00');
    const u = hex(24), a = hex(24), email = `table${i}@example.com`;
    const name = i === 7 ? '=HYPERLINK(""http://evil"")' : `Table Applicant ${String(i).padStart(2, '0')}`;
    sql.push(`INSERT INTO users (id, name, email, password_hash, role, created_at, updated_at, email_verified_at) VALUES ('${u}', '${name.replaceAll('""', '"')}', '${email}', 'x', 'user', '${at}', '${at}', '${at}');`);
    sql.push(`INSERT INTO applications (id, user_id, badge_id, type, status, payment_status, full_name, email, description, price_cents, payment_completed_at, created_at, updated_at)
      VALUES ('${a}', '${u}', '${badgeId}', 'proof', 'pending', 'completed', '${name.replaceAll('""', '"')}', '${email}', 'Work', ${100 * ((i * 37) % N)}, '${at}', '${at}', '${at}');`);
    if (i < 3) { // three grants (of another badge's kind: no application), the second revoked
      const revoked = i === 1 ? `'${at}', 'Plagiarised work'` : `NULL, ''`;
      sql.push(`INSERT INTO badge_grants (id, user_id, badge_id, verification_id, public_verification_id, status_index, granted_at, revoked_at, revocation_reason)
        VALUES ('${hex(24)}', '${u}', '${badgeId}', 'MM-TBL-00${i}', 'pv-tbl-${i}', 0, '${at}', ${revoked});`);
    }
  }
  sql.push('COMMIT;');
  execFileSync('sqlite3', ['-cmd', '.timeout 5000', path.join(server.dataDir, 'meritmark.db')], { input: sql.join('\n') });
}

async function axeClean(page, selector, label) {
  await settled(page);
  const r = await new AxeBuilder({ page }).include(selector).analyze();
  assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target).join(', ')}`), [], `axe on ${selector} (${label})`);
}

const range = (page) => page.getByTestId('page-range').innerText();
const rows = (page) => page.getByTestId('application-row');

before(async () => {
  server = await startServer();
  browser = await launch();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  badgeId = list.badges.find((b) => b.name === BADGE)?._id;
  assert.ok(badgeId, 'seeded badge ' + BADGE);
  seed();
  const r = await browser.context.request.post(server.url + API + '/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: { Origin: server.url } });
  assert.equal(r.status(), 200, await r.text());
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the review queue as a dense table: paging, page size, sorting, export, a row opened', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');

  // on the first screen at 1280x800
  const table = page.getByTestId('applications-table');
  await table.waitFor();
  await page.screenshot({ path: path.join(screenshotDir, 'admin-tables-first-screen-1280.png') });
  const first = await rows(page).first().boundingBox();
  assert.ok(first && first.y + first.height <= 800, `the first row is on the first screen (y ${first?.y})`);
  assert.equal(await page.getByTestId('application-card').first().isVisible(), false, 'no cards at 1280');
  assert.equal(await range(page), '1–25 of 60');
  assert.equal(await rows(page).count(), 25);
  await shot(page, 'admin-tables-1280');

  // pages: newest first by default
  await page.getByTestId('page-next').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="page-range"]')?.textContent === '26–50 of 60');
  assert.match(await rows(page).first().innerText(), /Table Applicant 34/);
  // the page size
  await page.getByTestId('page-size').selectOption('10');
  await page.waitForFunction(() => document.querySelector('[data-testid="page-range"]')?.textContent === '1–10 of 60');
  assert.equal(await rows(page).count(), 10);

  // sort by price, ascending then descending
  const price = page.getByTestId('sort-price');
  await price.click();
  await page.waitForFunction(() => document.querySelector('th[aria-sort="ascending"]')?.textContent?.includes('Price'));
  await page.waitForFunction(() => /\$0\.00/.test(document.querySelector('[data-testid="application-row"]')?.textContent || ''));
  assert.match(await rows(page).first().innerText(), /Table Applicant 00/);
  await price.click();
  await page.waitForFunction(() => document.querySelector('th[aria-sort="descending"]')?.textContent?.includes('Price'));
  await page.waitForFunction(() => /\$59\.00/.test(document.querySelector('[data-testid="application-row"]')?.textContent || ''));

  // Export CSV: what the filter shows, every page, in the table's order
  const href = await page.getByTestId('export-csv').getAttribute('href');
  assert.match(href, /^\/backend\/api\/v1\/admin\/applications\?status=review&sort=-price&format=csv$/);
  const csv = await (await browser.context.request.get(server.url + href)).text();
  const lines = csv.trim().split('\n');
  assert.equal(lines.length, N + 1);
  assert.match(lines[1], /Table Applicant \d\d/);
  assert.ok(lines.some((l) => l.includes(`"'=HYPERLINK(""http://evil"")"`)), 'the formula is defused: ' + lines.find((l) => l.includes('HYPERLINK')));

  // keyboard: Tab reaches a row's name, Enter opens the details
  await page.getByTestId('select-row').first().focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'open-row');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Application details' });
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /Approve/);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  await axeClean(page, '#applications-panel', 'light');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await table.waitFor();
  await axeClean(page, '#applications-panel', 'dark');
  await shot(page, 'admin-tables-dark-1280');

  // the grants table: a state filter, a sort, a row opened
  await page.getByRole('tab', { name: /Grants/ }).click();
  const grants = page.getByTestId('grants-table');
  await grants.waitFor();
  assert.equal(await page.getByTestId('grant-row').count(), 3);
  await page.getByTestId('grant-filter').getByRole('button', { name: 'Revoked' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="grant-row"]').length === 1);
  assert.match(await page.getByTestId('grant-row').innerText(), /MM-TBL-001.*Revoked/s);
  await page.getByTestId('grant-filter').getByRole('button', { name: 'All' }).click();
  await page.getByTestId('sort-verificationId').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="grant-row"]').length === 3 && document.querySelector('[data-testid="grant-row"]')?.textContent?.includes('MM-TBL-000'));
  await page.getByTestId('grant-row').first().click();
  await page.getByTestId('grant-details').waitFor();
  assert.match(await page.getByTestId('grant-details').innerText(), /Table Applicant 00/);
  await page.keyboard.press('Escape');
  await axeClean(page, '[role="tabpanel"][data-state="active"]', 'grants, dark');
  await shot(page, 'admin-grants-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: /Grants/ }).click();
  await grants.waitFor();
  await axeClean(page, '[role="tabpanel"][data-state="active"]', 'grants, light');
  await page.getByRole('tab', { name: /Applications/ }).click();

  // phones keep the cards
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await page.getByTestId('application-card').first().waitFor();
  assert.equal(await table.isVisible(), false, 'no table at 390');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling at 390 px');
  await page.getByTestId('bulk-select').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(screenshotDir, 'admin-tables-390.png') });
  await page.getByTestId('page-range').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(screenshotDir, 'admin-tables-390-pager.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
});
