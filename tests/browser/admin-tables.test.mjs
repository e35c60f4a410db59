// The applications table of the admin dashboard (issue 37 item 1): 60 applications seeded
// straight into SQLite; the review queue shows on the first screen at 1280x800 as a dense
// table; pages, page size and sorting are the server's; Export CSV downloads what the
// filter shows (formulas defused); a row opens the details dialog from the keyboard; axe
// in both themes; cards at 390 px. The grants table filters, sorts and opens a grant. The
// users table sorts, pages, filters by role, exports, and opens a user in a side panel;
// the audit log's table likewise (its action filter kept); the coupons table sorts, pages,
// filters by status and search, exports, and opens a coupon in a side panel; the question
// bank likewise, its export without the answers, its panel editing, retiring and deleting.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import { startServer, launch, hydrated, watchErrors, settled, shot, screenshotDir, axeBothThemes, ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.mjs';

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

// focusIs waits up to 3 s for read() (run in the page) to give want, then asserts it: a
// panel takes the focus, and gives it back to its row, a tick after it opens or leaves
// the page (Radix restores the focus in a timeout), so a read at once can come too early.
async function focusIs(page, read, want, message) {
  let got;
  for (const end = Date.now() + 3000; ; await page.waitForTimeout(25)) {
    got = await page.evaluate(read);
    if (got === want || Date.now() > end) break;
  }
  assert.equal(got, want, message);
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
  await focusIs(page, () => document.activeElement?.getAttribute('data-testid'), 'open-row');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Application details' });
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /Approve/);
  // a side panel (44rem) on the right, the review actions at its foot; the panel holds the
  // focus, not Approve (a second Enter must not approve)
  await settled(page);
  await focusIs(page, () => document.activeElement?.getAttribute('role'), 'dialog', 'the focus is on the panel');
  const sheet = await dialog.boundingBox();
  assert.ok(Math.round(sheet.x) === 1280 - 704 && Math.round(sheet.x + sheet.width) === 1280 && sheet.y === 0 && sheet.height === 800, `a sheet on the right (${JSON.stringify(sheet)})`);
  const approve = await dialog.getByRole('button', { name: 'Approve' }).boundingBox();
  assert.ok(approve.y + approve.height <= 800, 'Approve is on the screen without scrolling');
  await page.screenshot({ path: path.join(screenshotDir, 'applications-panel-1280.png') });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await focusIs(page, () => document.activeElement?.getAttribute('data-testid'), 'open-row', 'the focus is back on the row');

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
  // a side panel at the right edge, the table still beside it
  await settled(page);
  const grantSheet = await page.getByRole('dialog', { name: 'Grant details' }).boundingBox();
  assert.ok(Math.round(grantSheet.x + grantSheet.width) === 1280 && grantSheet.width < 800, `a side panel at the right (${JSON.stringify(grantSheet)})`);
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

/** A screenshot of the first screen, to look at (tests/browser/screenshots, not committed). */
const look = (page, name) => page.screenshot({ path: path.join(screenshotDir, name + '.png') });
const ACTIVE = '[role="tabpanel"][data-state="active"]';
const wideness = (page) => page.evaluate(() => document.documentElement.scrollWidth);

test('the users as a dense table: sort, page size, role filter, export, a side panel and its deep link', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const api = async (q) => (await browser.context.request.get(server.url + API + '/admin/users' + q)).json();
  const all = await api('?pageSize=100&sort=name');
  const admins = all.users.filter((u) => u.role === 'admin').length;
  assert.ok(all.total > 50 && admins >= 1, `seeded users: ${all.total}, ${admins} admin`);

  // the server renders the tab the address opens (its code is fetched on demand, and
  // hydration keeps the server's HTML until it is here: no client-side fallback)
  const html = await (await browser.context.request.get(server.url + '/admin?tab=users')).text();
  assert.match(html, /data-testid="user-stats"/, 'the server rendered the users tab');
  assert.doesNotMatch(html, /data-testid="tab-loading"/);
  await page.goto(server.url + '/admin?tab=users');
  await hydrated(page, 'AdminDashboard');
  // the users tab (the applications tab stays mounted beside it)
  const tp = page.locator(ACTIVE);
  const table = page.getByTestId('users-table');
  await table.waitFor();
  const urows = page.getByTestId('user-row');
  assert.equal(await page.getByTestId('user-card').first().isVisible(), false, 'no cards at 1280');
  assert.equal(await tp.getByTestId('page-range').innerText(), `1–25 of ${all.total}`);
  assert.equal(await urows.count(), 25);

  // sort by name, ascending: the API's first names in order
  await tp.getByTestId('sort-name').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="users-table"] th[aria-sort="ascending"]')?.textContent?.includes('Name'));
  await page.waitForFunction((n) => document.querySelector('[data-testid="user-row"] [data-testid="open-row"]')?.textContent === n, all.users[0].name);
  // page size 10, then the second page
  await tp.getByTestId('page-size').selectOption('10');
  await page.waitForFunction((t) => document.querySelector('[role="tabpanel"][data-state="active"] [data-testid="page-range"]')?.textContent === `1–10 of ${t}`, all.total);
  await tp.getByTestId('page-next').click();
  await page.waitForFunction((n) => document.querySelector('[data-testid="user-row"] [data-testid="open-row"]')?.textContent === n, all.users[10].name);
  // the role filter: administrators only
  await page.getByTestId('role-filter').getByRole('button', { name: 'Administrators' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="user-row"]').length === n, admins);
  assert.equal(await tp.getByTestId('page-range').innerText(), `1–${admins} of ${admins}`);
  // Export CSV: the filter's rows, in the table's order
  const href = await tp.getByTestId('export-csv').getAttribute('href');
  assert.equal(href, API + '/admin/users?role=admin&sort=name&format=csv');
  let csv = (await (await browser.context.request.get(server.url + href)).text()).trim().split('\n');
  assert.equal(csv[0], 'id,name,email,role,position,joined,badges held');
  assert.equal(csv.length, admins + 1);
  assert.ok(csv.slice(1).every((l) => l.includes(',admin,')), csv.join('\n'));
  await page.getByTestId('role-filter').getByRole('button', { name: 'Members' }).click();
  await page.waitForFunction(() => document.querySelector('[role="tabpanel"][data-state="active"] [data-testid="export-csv"]')?.getAttribute('href')?.includes('role=user'));
  csv = (await (await browser.context.request.get(server.url + (await tp.getByTestId('export-csv').getAttribute('href')))).text()).trim().split('\n');
  assert.equal(csv.length, all.total - admins + 1);
  assert.ok(csv.some((l) => l.includes(`"'=HYPERLINK(""http://evil"")"`)), 'the formula is defused');
  await look(page, 'users-table-1280');

  // keyboard: Tab to a row's name, Enter opens the side panel; Escape closes it and the
  // focus returns to the row
  const target = page.getByTestId('user-row').filter({ hasText: 'table3@example.com' });
  await page.getByRole('searchbox', { name: 'Search users' }).fill('table3@example.com');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length === 1);
  await target.getByTestId('open-row').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'User details' });
  await panel.waitFor();
  assert.match(await panel.innerText(), /Table Applicant 03/);
  assert.match(await panel.innerText(), /MM-TBL-000|No badges yet/);
  await page.waitForFunction(() => /[?&]user=[0-9a-f]{24}/.test(location.search));
  const box = await panel.boundingBox();
  assert.ok(box.x >= 1280 - 576 - 1 && box.x + box.width <= 1280 + 1, `a sheet on the right (${JSON.stringify(box)})`);
  await axeBothThemes(page, 'the users side panel');
  await look(page, 'users-panel-1280');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await focusIs(page, () => document.activeElement?.closest('[data-testid="user-row"]')?.textContent?.includes('table3@example.com'), true, 'the focus is back on the row');
  await page.waitForFunction(() => !location.search.includes('user='));

  // a row's click opens it too; the address keeps it: a reload opens the same panel
  await target.locator('td').nth(1).click();
  await panel.waitFor();
  await page.waitForFunction(() => location.search.includes('user='));
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await panel.waitFor();
  assert.match(await panel.innerText(), /table3@example\.com/);
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  // a link to a user on no page the list shows (another search): fetched on its own
  const other = (await api('?search=table40%40example.com')).users[0];
  await page.goto(server.url + `/admin?tab=users&q=table3%40example.com&user=${other._id}`);
  await hydrated(page, 'AdminDashboard');
  await panel.waitFor();
  assert.match(await panel.innerText(), /table40@example\.com/);
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });

  await page.getByRole('searchbox', { name: 'Search users' }).fill('');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-row"]').length > 1);
  await axeBothThemes(page, 'the users table');
  assert.equal(await wideness(page), 1280, 'no sideways scrolling at 1280 px');

  // phones: the cards, and the panel takes the whole screen
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.getByTestId('user-card').first().waitFor();
    assert.equal(await table.isVisible(), false, `no table at ${width}`);
    assert.equal(await wideness(page), width, `no sideways scrolling at ${width} px`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, 'users-cards-390');
  await page.goto(server.url + `/admin?tab=users&user=${other._id}`);
  await hydrated(page, 'AdminDashboard');
  await panel.waitFor();
  await settled(page);
  const phone = await panel.boundingBox();
  assert.ok(phone.x === 0 && Math.round(phone.width) === 390, `full screen on a phone (${JSON.stringify(phone)})`);
  await look(page, 'users-panel-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the audit log as a dense table: sort, page size, action filter, export, a side panel', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const req = browser.context.request;
  for (const [code, name] of [['AUDA1', 'Audit coupon A'], ['AUDB2', 'Audit coupon B'], ['AUDC3', '=Audit()']]) {
    const r = await req.post(server.url + API + '/coupons', { data: { code, name }, headers: { Origin: server.url } });
    assert.equal(r.status(), 201, await r.text());
  }
  const all = await (await req.get(server.url + API + '/admin/audit?pageSize=100&sort=action')).json();
  assert.ok(all.total >= 3, 'audit rows: ' + all.total);

  await page.goto(server.url + '/admin?tab=audit');
  await hydrated(page, 'AdminDashboard');
  const tp = page.locator(ACTIVE);
  const table = page.getByTestId('audit-entries');
  await table.waitFor();
  const arows = page.getByTestId('audit-row');
  assert.equal(await arows.count(), Math.min(25, all.total));
  assert.equal(await page.getByTestId('audit-list').isVisible(), false, 'no list at 1280');
  // newest first: the last coupon made
  assert.match(await arows.first().innerText(), /=Audit\(\)/);
  // sort by action, then descending
  await tp.getByTestId('sort-action').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="audit-entries"] th[aria-sort="ascending"]')?.textContent?.includes('Action'));
  await tp.getByTestId('sort-action').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="audit-entries"] th[aria-sort="descending"]')?.textContent?.includes('Action'));
  // page size 10
  await tp.getByTestId('page-size').selectOption('10');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="audit-row"]').length === n, Math.min(10, all.total));
  // the action filter: coupon creations only
  await page.getByRole('combobox', { name: 'Filter by action' }).selectOption('coupon.create');
  const created = all.entries.filter((e) => e.action === 'coupon.create').length;
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="audit-row"]').length === n, created);
  // the filter is in the address: a reload (or the link, shared) shows the same rows
  await page.waitForFunction(() => window.location.search === '?tab=audit&action=coupon.create');
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  assert.equal(await page.getByRole('combobox', { name: 'Filter by action' }).inputValue(), 'coupon.create');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="audit-row"]').length === n, created);
  // sorting is not kept in the address: sort again, as the rest of this test expects
  await tp.getByTestId('sort-action').click();
  await tp.getByTestId('sort-action').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="audit-entries"] th[aria-sort="descending"]')?.textContent?.includes('Action'));
  const href = await tp.getByTestId('export-csv').getAttribute('href');
  assert.equal(href, API + '/admin/audit?action=coupon.create&sort=-action&format=csv');
  const csv = (await (await req.get(server.url + href)).text()).trim().split('\n');
  assert.equal(csv[0], 'id,time,actor,actor email,action,target type,target,target id');
  assert.equal(csv.length, created + 1);
  assert.ok(csv.some((l) => l.includes(",'=Audit()")), 'the formula is defused: ' + csv.join('\n'));
  await look(page, 'audit-table-1280');

  // keyboard: Tab to a row's target, Enter opens the side panel; Escape returns the focus
  await arows.first().getByTestId('open-row').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Audit entry' });
  await panel.waitFor();
  assert.match(await panel.getByTestId('audit-details').innerText(), /coupon\.create/);
  await axeBothThemes(page, 'the audit side panel');
  await look(page, 'audit-panel-1280');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await focusIs(page, () => document.activeElement?.getAttribute('data-testid'), 'open-row', 'the focus is back on the row');
  await axeBothThemes(page, 'the audit table');
  assert.equal(await wideness(page), 1280, 'no sideways scrolling at 1280 px');
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.getByTestId('audit-list').waitFor();
    assert.equal(await table.isVisible(), false, `no table at ${width}`);
    assert.equal(await wideness(page), width, `no sideways scrolling at ${width} px`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, 'audit-list-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the coupons as a dense table: sort, page size, status filter and search, export, a side panel, cards on phones', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const req = browser.context.request;
  // 31 coupons: every sixth expired, every fifth switched off, some with a usage limit;
  // TBLC-12 (expired) has a formula for a description
  for (let i = 0; i <= 30; i++) {
    const code = `TBLC-${String(i).padStart(2, '0')}`;
    const data = { code, name: `Table coupon ${30 - i}`, description: i === 12 ? '=HYPERLINK("http://evil")' : 'Table test', discountValue: 5 + ((i * 7) % 40) };
    if (i % 4 === 3) Object.assign(data, { discountType: 'fixed', discountValue: 2 + i / 2 });
    if (i % 3 === 1) data.usageLimit = 10 + i;
    if (i % 6 === 0) Object.assign(data, { validFrom: '2020-01-01T00:00:00Z', validUntil: '2020-02-01T00:00:00Z' });
    const r = await req.post(server.url + API + '/coupons', { data, headers: { Origin: server.url } });
    assert.equal(r.status(), 201, await r.text());
    if (i % 5 === 4) {
      const t = await req.patch(server.url + API + `/coupons/${(await r.json()).coupon._id}/toggle`, { headers: { Origin: server.url } });
      assert.equal(t.status(), 200, await t.text());
    }
  }
  const api = async (q) => (await req.get(server.url + API + '/coupons' + q)).json();
  const all = await api('?pageSize=100&sort=code');
  assert.ok(all.total >= 31 && all.total <= 100, 'coupons: ' + all.total);
  const codes = all.coupons.map((c) => c.code);

  await page.goto(server.url + '/admin?tab=coupons');
  await hydrated(page, 'AdminDashboard');
  const tp = page.locator(ACTIVE);
  const table = page.getByTestId('coupons-table');
  await table.waitFor();
  const crows = page.getByTestId('coupon-row');
  const firstCode = (c) => page.waitForFunction((c) => document.querySelector('[data-testid="coupon-row"] [data-testid="open-row"]')?.textContent === c, c);
  const rangeIs = (t) => page.waitForFunction((t) => document.querySelector('[role="tabpanel"][data-state="active"] [data-testid="page-range"]')?.textContent === t, t);
  assert.equal(await page.getByTestId('coupon').first().isVisible(), false, 'no cards at 1280');
  await rangeIs(`1–25 of ${all.total}`);
  assert.equal(await crows.count(), 25);
  // newest first: the last coupon made
  await firstCode('TBLC-30');

  // sort by code, ascending, then descending
  await tp.getByTestId('sort-code').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="coupons-table"] th[aria-sort="ascending"]')?.textContent?.includes('Code'));
  await firstCode(codes[0]);
  // page size 10, then the second page
  await tp.getByTestId('page-size').selectOption('10');
  await rangeIs(`1–10 of ${all.total}`);
  await tp.getByTestId('page-next').click();
  await rangeIs(`11–20 of ${all.total}`);
  await firstCode(codes[10]);
  await tp.getByTestId('sort-code').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="coupons-table"] th[aria-sort="descending"]')?.textContent?.includes('Code'));
  await rangeIs(`1–10 of ${all.total}`); // a new sort starts from the first page
  await firstCode(codes.at(-1));
  // the other columns sort as the API does
  for (const [key, label] of [['usedCount', 'Used'], ['validUntil', 'Valid until'], ['discountValue', 'Discount'], ['name', 'Name']]) {
    await tp.getByTestId('sort-' + key).click();
    await page.waitForFunction((l) => document.querySelector('[data-testid="coupons-table"] th[aria-sort="ascending"]')?.textContent === l, label);
    await firstCode((await api(`?pageSize=10&sort=${key}`)).coupons[0].code);
  }
  await tp.getByTestId('sort-code').click();
  await tp.getByTestId('sort-code').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="coupons-table"] th[aria-sort="descending"]')?.textContent?.includes('Code'));

  // the status filter and the search together: the expired TBLC-1x
  await page.selectOption('[data-testid="coupon-status-filter"]', 'expired');
  const expired = (await api('?status=expired&pageSize=100')).total;
  await rangeIs(`1–${Math.min(10, expired)} of ${expired}`);
  await page.getByLabel('Search coupons').fill('tblc-1');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="coupon-row"]')].map((r) => r.dataset.code).join() === 'TBLC-18,TBLC-12');
  assert.deepEqual(await crows.getByTestId('coupon-status').allInnerTexts(), ['Expired', 'Expired']);
  await rangeIs('1–2 of 2');
  // Export CSV: the filter's rows, in the table's order, the formula defused
  const href = await tp.getByTestId('export-csv').getAttribute('href');
  assert.equal(href, API + '/coupons?status=expired&search=tblc-1&sort=-code&format=csv');
  const csv = (await (await req.get(server.url + href)).text()).trim().split('\n');
  assert.equal(csv[0], 'id,code,name,description,discount type,discount value,minimum amount,maximum discount,usage limit,used,valid from,valid until,active,status,applicable badges,applicable categories,created');
  assert.equal(csv.length, 3);
  assert.ok(csv[1].includes(',TBLC-18,') && csv[2].includes(',TBLC-12,'), csv.join('\n'));
  assert.ok(csv[2].includes(`"'=HYPERLINK(""http://evil"")"`), 'the formula is defused: ' + csv[2]);
  await look(page, 'coupons-table-filtered-1280');
  await page.selectOption('[data-testid="coupon-status-filter"]', 'all');

  // keyboard: Tab to a row's code, Enter opens the side panel; Escape closes it and the
  // focus returns to the row
  await page.getByLabel('Search coupons').fill('TBLC-07');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="coupon-row"]').length === 1);
  const target = crows.filter({ hasText: 'TBLC-07' });
  await target.getByTestId('open-row').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Coupon details' });
  await panel.waitFor();
  const text = await panel.innerText();
  assert.match(text, /TBLC-07/);
  assert.match(text, /Table coupon 23/);
  assert.match(text, /\$5\.50 off/); // i = 7: fixed, 2 + 7 / 2
  assert.match(text, /Minimum order/);
  assert.match(text, /Last changed/);
  const box = await panel.boundingBox();
  assert.ok(box.x >= 1280 - 576 - 1 && box.x + box.width <= 1280 + 1, `a sheet on the right (${JSON.stringify(box)})`);
  await axeBothThemes(page, 'the coupon side panel');
  await look(page, 'coupons-panel-1280');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await focusIs(page, () => document.activeElement?.closest('[data-testid="coupon-row"]')?.dataset.code, 'TBLC-07', 'the focus is back on the row');
  // a row's click opens it too, and its switch acts on the row (with Undo on the toast)
  await target.locator('td').nth(1).click();
  await panel.waitFor();
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await target.getByTestId('coupon-row-toggle').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Coupon status updated successfully' }).waitFor();
  await target.getByTestId('coupon-status').getByText('Inactive').waitFor();
  assert.equal(await panel.count(), 0, 'the switch does not open the row');
  assert.equal((await api('?search=TBLC-07'))[0].isActive, false);

  // deleting the only coupon of the last page steps back to the page before
  await page.getByLabel('Search coupons').fill('TBLC');
  await rangeIs('1–10 of 31');
  for (const r of ['11–20 of 31', '21–30 of 31', '31–31 of 31']) {
    await tp.getByTestId('page-next').click();
    await rangeIs(r);
  }
  const lone = crows.first();
  const code = await lone.getAttribute('data-code');
  assert.equal(code, 'TBLC-00', 'sorted by code, descending');
  await lone.getByRole('button', { name: `Delete ${code}` }).click();
  await page.getByRole('alertdialog').getByText(`Delete coupon ${code}?`).waitFor();
  await page.getByTestId('confirm-action').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Coupon deleted successfully' }).waitFor();
  await rangeIs('21–30 of 30');
  await firstCode('TBLC-10');

  await page.getByLabel('Search coupons').fill('');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="coupon-row"]').length === 10);
  await axeBothThemes(page, 'the coupons table');
  await look(page, 'coupons-table-1280');
  assert.equal(await wideness(page), 1280, 'no sideways scrolling at 1280 px');
  // the admin may keep the cards on a wide screen
  await tp.getByTestId('view-cards').click();
  await page.getByTestId('coupon').first().waitFor();
  assert.equal(await table.isVisible(), false, 'no table when the cards are chosen');
  await look(page, 'coupons-cards-1280');
  await tp.getByTestId('view-table').click();
  await table.waitFor();

  // phones: the cards
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.getByTestId('coupon').first().waitFor();
    assert.equal(await table.isVisible(), false, `no table at ${width}`);
    assert.equal(await wideness(page), width, `no sideways scrolling at ${width} px`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('coupon').first().scrollIntoViewIfNeeded();
  await look(page, 'coupons-cards-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the question bank as a dense table: sort, page size, filters and search, export without the key, a side panel that edits, cards on phones', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const req = browser.context.request;
  const post = async (p, data, method = 'POST') => {
    const r = await req.fetch(server.url + API + p, { method, data, headers: { Origin: server.url } });
    assert.ok(r.status() < 300, `${method} ${p}: ${r.status()} ${await r.text()}`);
    return r.json();
  };
  // 32 questions: three categories in two cases, every difficulty, four topics; every
  // seventh retired; TBQ-05's text is a formula; each question's key is "KEY-SECRET-nn"
  const cats = ['Table Alpha', 'table beta', 'Table Gamma'];
  const diffs = ['easy', 'medium', 'hard'];
  for (let i = 0; i < 32; i++) {
    const n = String((i * 13) % 32).padStart(2, '0');
    const text = i === 5 ? '=HYPERLINK("http://evil") TBQ-05' : `TBQ-${n} which table question is this?`;
    const options = [`KEY-SECRET-${n}`, `Other ${n} a`, `Other ${n} b`].slice(0, 2 + (i % 2));
    const { question } = await post('/admin/questions', { text, options, correctIndex: 0, difficulty: diffs[Math.floor(i / 3) % 3], category: cats[i % 3], topic: `Topic ${'WXYZ'[i % 4]}`, explanation: `Because ${n}` });
    if (i % 7 === 6) await post(`/admin/questions/${question._id}/retired`, { retired: true }, 'PUT');
  }
  const api = async (q) => (await req.get(server.url + API + '/admin/questions' + q)).json();
  const total = (await api('?pageSize=10')).total;
  assert.ok(total >= 32 && total <= 100, 'questions: ' + total);
  const tbq = (await api('?pageSize=100&search=tbq')).total;
  assert.equal(tbq, 32);

  await page.goto(server.url + '/admin?tab=quizzes');
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: 'Question Bank' }).click();
  const bank = page.getByTestId('question-bank');
  const table = page.getByTestId('question-bank-table');
  await table.waitFor();
  const qrows = page.getByTestId('bank-question-row');
  const firstText = (t) => page.waitForFunction((t) => document.querySelector('[data-testid="bank-question-row"] [data-testid="open-row"]')?.textContent === t, t);
  const rangeIs = (t) => page.waitForFunction((t) => document.querySelector('[data-testid="question-bank"] [data-testid="page-range"]')?.textContent === t, t);
  const sortedBy = (label, dir) => page.waitForFunction(([l, d]) => document.querySelector(`[data-testid="question-bank-table"] th[aria-sort="${d}"]`)?.textContent === l, [label, dir]);
  assert.equal(await page.getByTestId('bank-question').first().isVisible(), false, 'no cards at 1280');
  await rangeIs(`1–25 of ${total}`);
  assert.equal(await qrows.count(), 25);
  // newest first: the last question made
  await firstText((await api('?pageSize=10')).questions[0].text);
  await look(page, 'question-bank-table-first-1280');

  // sort by the text, ascending then descending; a page size of 10 and the second page
  await bank.getByTestId('sort-text').click();
  await sortedBy('Question', 'ascending');
  const byText = await api('?pageSize=100&sort=text');
  await firstText(byText.questions[0].text);
  await bank.getByTestId('page-size').selectOption('10');
  await rangeIs(`1–10 of ${total}`);
  await bank.getByTestId('page-next').click();
  await rangeIs(`11–20 of ${total}`);
  await firstText(byText.questions[10].text);
  await bank.getByTestId('sort-text').click();
  await sortedBy('Question', 'descending');
  await rangeIs(`1–10 of ${total}`); // a new sort starts from the first page
  await firstText(byText.questions.at(-1).text);
  // the other columns sort as the API does
  for (const [key, label] of [['difficulty', 'Difficulty'], ['quizzes', 'Quizzes'], ['category', 'Category'], ['topic', 'Topic']]) {
    await bank.getByTestId('sort-' + key).click();
    await sortedBy(label, 'ascending');
    await firstText((await api(`?pageSize=10&sort=${key}`)).questions[0].text);
  }
  await bank.getByTestId('sort-createdAt').click();
  await sortedBy('Added', 'descending');

  // the search, the status chips, the category and the difficulty, together
  await page.getByLabel('Search questions').fill('TBQ');
  await rangeIs('1–10 of 32');
  await bank.getByTestId('bank-status-filter').getByRole('button', { name: 'Retired' }).click();
  await rangeIs('1–4 of 4'); // i = 6, 13, 20, 27
  assert.deepEqual(await qrows.locator('td:nth-child(6)').allInnerTexts(), ['Retired', 'Retired', 'Retired', 'Retired']);
  await bank.getByTestId('bank-status-filter').getByRole('button', { name: 'All' }).click();
  await page.selectOption('[data-testid="bank-category-filter"]', 'table beta');
  await page.selectOption('[data-testid="bank-difficulty-filter"]', 'medium');
  const want = await api('?pageSize=100&search=TBQ&category=table%20beta&difficulty=medium');
  assert.equal(want.total, 4, 'medium table beta questions'); // i = 4, 13, 22, 31
  await rangeIs(`1–${want.total} of ${want.total}`);
  assert.deepEqual(await qrows.locator('[data-testid="open-row"]').allInnerTexts(), want.questions.map((q) => q.text));
  // Export CSV: the filter's rows in the table's order, no answer key, formulas defused
  await bank.getByTestId('sort-text').click();
  await sortedBy('Question', 'ascending');
  const href = await bank.getByTestId('export-csv').getAttribute('href');
  assert.equal(href, API + '/admin/questions?search=TBQ&category=table%20beta&difficulty=medium&sort=text&format=csv');
  let csv = (await (await req.get(server.url + href)).text()).trim().split('\n');
  assert.equal(csv[0], 'text,category,topic,difficulty,options,quizzes,retired,created');
  assert.equal(csv.length, want.total + 1);
  assert.deepEqual(csv.slice(1).map((l) => l.split(',')[0]), want.questions.map((q) => q.text).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
  csv = (await (await req.get(server.url + API + '/admin/questions?format=csv')).text()).trim().split('\n');
  assert.equal(csv.length, total + 1);
  assert.ok(!csv.some((l) => l.includes('KEY-SECRET') || l.includes('Because')), 'no key nor explanation in the export');
  assert.ok(csv.some((l) => l.startsWith(`"'=HYPERLINK(""http://evil"") TBQ-05"`)), 'the formula is defused: ' + csv.find((l) => l.includes('HYPERLINK')));
  await look(page, 'question-bank-table-filtered-1280');
  await page.selectOption('[data-testid="bank-category-filter"]', 'all');
  await page.selectOption('[data-testid="bank-difficulty-filter"]', 'all');

  // keyboard: Tab to a row's question, Enter opens the side panel with the options and the
  // key; Escape closes it and the focus returns to the row
  await page.getByLabel('Search questions').fill('TBQ-07');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="bank-question-row"]').length === 1);
  const target = qrows.first();
  const id = await target.getAttribute('data-id');
  await target.getByTestId('open-row').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Question details' });
  await panel.waitFor();
  const text = await panel.innerText();
  assert.match(text, /TBQ-07 which table question is this\?/);
  assert.match(text, /KEY-SECRET-07/);
  assert.match(text, /Because 07/);
  assert.match(text, /Used in\s+No quiz/);
  assert.equal(await panel.getByLabel('Correct answer').count(), 1);
  const box = await panel.boundingBox();
  assert.ok(box.x >= 1280 - 576 - 1 && box.x + box.width <= 1280 + 1, `a sheet on the right (${JSON.stringify(box)})`);
  await axeBothThemes(page, 'the question side panel');
  await settled(page);
  await look(page, 'question-bank-panel-1280');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await focusIs(page, () => document.activeElement?.closest('[data-testid="bank-question-row"]')?.dataset.id, id, 'the focus is back on the row');

  // a row's click opens it; Edit from the panel: the form holds the question, the save
  // shows in the panel and the row
  await target.locator('td').nth(2).click();
  await panel.waitFor();
  await panel.getByTestId('panel-edit-question').click();
  await page.getByTestId('question-form').waitFor();
  assert.equal(await page.inputValue('#question-text'), 'TBQ-07 which table question is this?');
  await page.fill('#question-text', 'TBQ-07 which table question was edited?');
  await page.selectOption('#question-difficulty', 'hard');
  await page.getByTestId('question-form-submit').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Question updated successfully' }).waitFor();
  await page.getByTestId('question-form').waitFor({ state: 'detached' });
  await panel.getByText('TBQ-07 which table question was edited?').waitFor();
  await panel.getByText('Hard', { exact: true }).first().waitFor();
  await firstText('TBQ-07 which table question was edited?');
  assert.equal((await api('?search=TBQ-07'))[0].difficulty, 'hard');
  // Retire, then Bring back, from the panel
  await panel.getByTestId('panel-retire-question').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Question retired' }).waitFor();
  await panel.getByText('Retired: never drawn again').waitFor();
  assert.equal((await api('?search=TBQ-07'))[0].retired, true);
  await panel.getByTestId('panel-retire-question').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Question back in use' }).waitFor();
  await panel.getByText('In use', { exact: true }).waitFor();
  // Delete from the panel, with the confirmation
  await panel.getByTestId('panel-delete-question').click();
  await page.getByRole('alertdialog').getByText('Delete this question?').waitFor();
  await page.getByTestId('confirm-action').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Question deleted successfully' }).waitFor();
  await panel.waitFor({ state: 'detached' });
  await bank.getByText('No questions match').waitFor();
  assert.deepEqual(await api('?search=TBQ-07'), []);

  await page.getByLabel('Search questions').fill('');
  await rangeIs(`1–10 of ${total - 1}`);
  await axeBothThemes(page, 'the question bank table');
  await settled(page);
  await look(page, 'question-bank-table-1280');
  assert.equal(await wideness(page), 1280, 'no sideways scrolling at 1280 px');
  // the admin may keep the cards on a wide screen
  await bank.getByTestId('view-cards').click();
  await page.getByTestId('bank-question').first().waitFor();
  assert.equal(await table.isVisible(), false, 'no table when the cards are chosen');
  await bank.getByTestId('view-table').click();
  await table.waitFor();

  // phones: the cards
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.getByTestId('bank-question').first().waitFor();
    assert.equal(await table.isVisible(), false, `no table at ${width}`);
    assert.equal(await wideness(page), width, `no sideways scrolling at ${width} px`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('bank-question-list').evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 80));
  await settled(page);
  await look(page, 'question-bank-cards-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('the award register as a dense table: sort, page size, state and badge filters, search, export, a side panel, cards on phones', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const req = browser.context.request;
  const headers = { Origin: server.url };
  const api = async (q) => (await req.get(server.url + API + '/admin/awards' + q)).json();
  const badges = (await (await fetch(server.url + API + '/badges/with-ownership')).json()).badges;
  const other = badges.find((b) => b.name === 'Team Leadership');
  assert.ok(other, 'seeded badge Team Leadership');

  // 30 awards of one badge from a CSV (award09's credential expires in 2031; award12's note
  // is a formula), then 3 of another one by one; award03 and award04 withdrawn, award05 to
  // award07 with their links run out, award08 claimed
  const lines = ['email,name,expiry,note'];
  for (let i = 0; i < 30; i++) {
    const n = String(i).padStart(2, '0');
    lines.push(`award${n}@example.com,Award Recipient ${n},${i === 9 ? '2031-01-31' : ''},${i === 9 ? 'Spoke at the summit' : i === 12 ? '"=HYPERLINK(""http://evil"")"' : `Note ${n}`}`);
  }
  let r = await req.post(server.url + API + '/admin/awards/csv', { headers, multipart: { badgeId, file: { name: 'awards.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) } } });
  assert.equal(r.status(), 200, await r.text());
  const batch = (await r.json()).batchId;
  for (const e of ['lead-a@example.com', 'lead-b@example.com', 'lead-c@example.com']) {
    r = await req.post(server.url + API + '/admin/awards', { headers, data: { badgeId: other._id, email: e } });
    assert.equal(r.status(), 201, await r.text());
  }
  const first = await api('?pageSize=100&sort=email');
  assert.equal(first.total, 33);
  const idOf = (email) => first.awards.find((a) => a.email === email)._id;
  for (const n of ['03', '04']) {
    r = await req.post(server.url + API + `/admin/awards/${idOf(`award${n}@example.com`)}/withdraw`, { headers });
    assert.equal(r.status(), 200, await r.text());
  }
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '+00:00');
  execFileSync('sqlite3', ['-cmd', '.timeout 5000', path.join(server.dataDir, 'meritmark.db')], {
    input: `UPDATE badge_awards SET expires_at = '2020-01-01 00:00:00+00:00' WHERE email IN ('award05@example.com', 'award06@example.com', 'award07@example.com');
      UPDATE badge_awards SET claimed_at = '${now}' WHERE email = 'award08@example.com';`,
  });
  assert.equal((await api('?state=expired')).total, 3);
  assert.equal((await api('?state=claimed')).total, 1);

  await page.goto(server.url + '/admin?tab=badges');
  await hydrated(page, 'AdminDashboard');
  const tp = page.locator(ACTIVE);
  const card = page.getByTestId('award-register-card');
  const table = page.getByTestId('award-register');
  await table.waitFor();
  const arows = page.getByTestId('award-row');
  const firstEmail = (e) => page.waitForFunction((e) => document.querySelector('[data-testid="award-row"]')?.dataset.email === e, e);
  const rangeIs = (t) => page.waitForFunction((t) => document.querySelector('[data-testid="award-register-card"] [data-testid="page-range"]')?.textContent === t, t);
  await rangeIs('1–25 of 33');
  assert.equal(await arows.count(), 25);
  assert.equal(await page.getByTestId('award-card').first().isVisible(), false, 'no cards at 1280');
  // newest first: the last one sent
  await firstEmail((await api('?pageSize=10')).awards[0].email);

  // a CSV sent from the form above: the register reads its list again
  await page.locator('#csv-badge').selectOption(badgeId);
  await page.locator('#csv-file').setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from('email,name\nlate-a@example.com,Late A\nlate-b@example.com,Late B\n') });
  await page.getByTestId('csv-preview').click();
  await page.getByTestId('csv-send').click();
  await rangeIs('1–25 of 35');
  await page.waitForFunction(() => /^late-[ab]@example\.com$/.test(document.querySelector('[data-testid="award-row"]')?.dataset.email || ''));
  const all = await api('?pageSize=100&sort=email');
  assert.equal(all.total, 35);
  const emails = all.awards.map((a) => a.email);

  // sort by e-mail, ascending; page size 10; the second page; then descending
  await card.getByTestId('sort-email').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="award-register"] th[aria-sort="ascending"]')?.textContent === 'E-mail');
  await firstEmail(emails[0]);
  await card.getByTestId('page-size').selectOption('10');
  await rangeIs('1–10 of 35');
  assert.equal(await arows.count(), 10);
  await card.getByTestId('page-next').click();
  await rangeIs('11–20 of 35');
  await firstEmail(emails[10]);
  await card.getByTestId('sort-email').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="award-register"] th[aria-sort="descending"]')?.textContent === 'E-mail');
  await rangeIs('1–10 of 35'); // a new sort starts from the first page
  await firstEmail(emails.at(-1));
  // the other columns sort as the API does
  for (const [key, label] of [['name', 'Name'], ['expiresAt', 'Link valid until']]) {
    await card.getByTestId('sort-' + key).click();
    await page.waitForFunction((l) => document.querySelector('[data-testid="award-register"] th[aria-sort="ascending"]')?.textContent === l, label);
    await firstEmail((await api(`?pageSize=10&sort=${key}`)).awards[0].email);
  }
  await card.getByTestId('sort-createdAt').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="award-register"] th[aria-sort="descending"]')?.textContent === 'Sent');
  await firstEmail((await api('?pageSize=10&sort=-createdAt')).awards[0].email);

  // the state filter: withdrawn, then the links run out
  const stateFilter = page.getByTestId('award-state-filter');
  await stateFilter.getByRole('button', { name: 'Withdrawn' }).click();
  await rangeIs('1–2 of 2');
  assert.deepEqual((await arows.evaluateAll((rs) => rs.map((x) => x.dataset.email))).sort(), ['award03@example.com', 'award04@example.com']);
  assert.equal(await arows.getByTestId('award-withdraw').count(), 0, 'a withdrawn award offers no Withdraw');
  await stateFilter.getByRole('button', { name: 'Expired' }).click();
  await rangeIs('1–3 of 3');
  assert.deepEqual(await arows.getByTestId('award-state').allInnerTexts(), ['Link expired', 'Link expired', 'Link expired']);
  await stateFilter.getByRole('button', { name: 'Claimed' }).click();
  await rangeIs('1–1 of 1');
  await firstEmail('award08@example.com');
  await stateFilter.getByRole('button', { name: 'All' }).click();
  await rangeIs('1–10 of 35');
  // the badge filter: the other badge's three
  await page.getByTestId('award-badge-filter').selectOption(other._id);
  await rangeIs('1–3 of 3');
  assert.deepEqual(await arows.locator('td:nth-child(3)').allInnerTexts(), ['Team Leadership', 'Team Leadership', 'Team Leadership']);
  assert.ok((await arows.evaluateAll((rs) => rs.map((x) => x.dataset.email))).every((e) => e.startsWith('lead-')));
  await page.getByTestId('award-badge-filter').selectOption('');
  await rangeIs('1–10 of 35');
  // the search (e-mail or name) with a state: the sent ones among Award Recipient 0x
  await page.getByRole('searchbox', { name: 'Search awards' }).fill('recipient 0');
  await rangeIs('1–10 of 10');
  await stateFilter.getByRole('button', { name: 'Sent' }).click();
  await rangeIs('1–4 of 4'); // 00, 01, 02, 09: 03-04 withdrawn, 05-07 expired, 08 claimed
  assert.deepEqual((await arows.evaluateAll((rs) => rs.map((x) => x.dataset.email))).sort(), ['award00@example.com', 'award01@example.com', 'award02@example.com', 'award09@example.com']);
  // Export CSV: the filter's rows, in the table's order, the note last and defused
  let href = await card.getByTestId('export-csv').getAttribute('href');
  assert.equal(href, API + '/admin/awards?state=sent&search=recipient%200&sort=-createdAt&format=csv');
  let csv = (await (await req.get(server.url + href)).text()).trim().split('\n');
  assert.equal(csv[0], 'id,badge,email,name,state,sent,link expires,credential expires,claimed,withdrawn,times sent,batch,note');
  assert.equal(csv.length, 5);
  assert.ok(csv.slice(1).every((l) => l.includes(',sent,') && l.includes(',' + batch + ',')), csv.join('\n'));
  await page.getByRole('searchbox', { name: 'Search awards' }).fill('award12');
  await stateFilter.getByRole('button', { name: 'All' }).click();
  await rangeIs('1–1 of 1');
  href = await card.getByTestId('export-csv').getAttribute('href');
  csv = (await (await req.get(server.url + href)).text()).trim().split('\n');
  assert.ok(csv[1].endsWith(`,"'=HYPERLINK(""http://evil"")"`), 'the note is defused: ' + csv[1]);
  await look(page, 'awards-table-filtered-1280');

  // keyboard: Tab to a row's address, Enter opens the side panel with everything known
  await page.getByRole('searchbox', { name: 'Search awards' }).fill('award09@');
  await firstEmail('award09@example.com');
  await rangeIs('1–1 of 1');
  const target = arows.filter({ hasText: 'award09@example.com' });
  await target.getByTestId('open-row').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Award details' });
  await panel.waitFor();
  await settled(page);
  await focusIs(page, () => document.activeElement?.getAttribute('role'), 'dialog', 'the focus is on the panel, not Resend');
  let text = await panel.innerText();
  for (const want of [/Award Recipient 09/, /award09@example\.com/, new RegExp(BADGE), /Sent\n/i, /Link valid until/i, /Not yet/, /Credential expiry\n.*2031/i, /Spoke at the summit/, new RegExp(batch)]) {
    assert.match(text, want);
  }
  const box = await panel.boundingBox();
  assert.ok(box.x >= 1280 - 576 - 1 && box.x + box.width <= 1280 + 1, `a sheet on the right (${JSON.stringify(box)})`);
  await axeBothThemes(page, 'the award side panel');
  await look(page, 'awards-panel-1280');
  // Resend from the panel: a new link, sent twice now
  await panel.getByTestId('award-resend').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Award sent again with a new link. The earlier link no longer works.' }).waitFor();
  await panel.getByText('2 times, last').waitFor();
  // Withdraw from the panel: the confirmation names the consequence
  await panel.getByTestId('award-withdraw').click();
  const confirm = page.getByTestId('withdraw-dialog');
  await confirm.waitFor();
  assert.match(await confirm.innerText(), /The claim link sent to award09@example\.com stops working at once; they are not e-mailed\. You can award the badge again later\./);
  await settled(page);
  const ax = await new AxeBuilder({ page }).include('[data-testid="withdraw-dialog"]').analyze();
  assert.deepEqual(ax.violations.map((v) => v.id), []);
  await page.getByTestId('withdraw-confirm').click();
  await confirm.waitFor({ state: 'detached' });
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Award withdrawn. Its claim link no longer works.' }).waitFor();
  await panel.getByTestId('award-state').getByText('Withdrawn').waitFor();
  text = await panel.innerText();
  assert.match(text, /This award is withdrawn: its claim link no longer works\./);
  assert.equal(await panel.getByTestId('award-withdraw').count(), 0);
  assert.equal((await api('?search=award09')).awards[0].state, 'withdrawn');
  await target.getByTestId('award-state').getByText('Withdrawn').waitFor(); // the row too
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await focusIs(page, () => document.activeElement?.closest('[data-testid="award-row"]')?.dataset.email, 'award09@example.com', 'the focus is back on the row');
  // a row's click opens it too; its Resend acts on the row without opening it
  await page.getByRole('searchbox', { name: 'Search awards' }).fill('award10@');
  await firstEmail('award10@example.com');
  await rangeIs('1–1 of 1');
  await arows.first().locator('td').nth(1).click();
  await panel.waitFor();
  assert.match(await panel.innerText(), /award10@example\.com/);
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await arows.first().getByTestId('award-resend').click();
  await page.locator('#toaster [role="status"]').filter({ hasText: 'Award sent again' }).first().waitFor();
  assert.equal(await panel.count(), 0, 'Resend does not open the row');
  await page.waitForFunction(() => document.querySelector('[data-testid="award-row"] [data-testid="award-sent-count"]')?.textContent === '×2, sent 2 times');

  await page.getByRole('searchbox', { name: 'Search awards' }).fill('');
  await rangeIs('1–10 of 35');
  await axeBothThemes(page, 'the award register');
  await card.scrollIntoViewIfNeeded();
  await look(page, 'awards-table-1280');
  assert.equal(await wideness(page), 1280, 'no sideways scrolling at 1280 px');
  // the admin may keep the cards on a wide screen
  await card.getByTestId('view-cards').click();
  await page.getByTestId('award-card').first().waitFor();
  assert.equal(await table.isVisible(), false, 'no table when the cards are chosen');
  await card.getByTestId('view-table').click();
  await table.waitFor();

  // phones: the cards; a card's Details opens the panel on the whole screen
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.getByTestId('award-card').first().waitFor();
    assert.equal(await table.isVisible(), false, `no table at ${width}`);
    assert.equal(await wideness(page), width, `no sideways scrolling at ${width} px`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('award-card').first().scrollIntoViewIfNeeded();
  await look(page, 'awards-cards-390');
  await page.getByTestId('award-card').first().getByTestId('award-details').click();
  await panel.waitFor();
  await settled(page);
  const phone = await panel.boundingBox();
  assert.ok(phone.x === 0 && Math.round(phone.width) === 390, `full screen on a phone (${JSON.stringify(phone)})`);
  await look(page, 'awards-panel-390');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(errors, []);
  await page.close();
});
