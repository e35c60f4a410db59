// Bulk actions and awards from a CSV (issue 37 items 2 and 3), in the admin dashboard:
// 50 paid applications are selected with "select all that match", previewed (the
// confirmation names how many change and who is e-mailed) and approved; a CSV of 200 rows
// is checked (the bad rows are highlighted with their reasons) and sent; one award is
// withdrawn from the register, and its claim link then refuses. axe checks each dialog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, watchErrors, screenshotDir, ADMIN_EMAIL, ADMIN_PASSWORD, mailBody } from './harness.mjs';

const API = '/backend/api/v1';
const BADGE = 'Open Source Contributor';
let server, browser, badgeId;

function hex(n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(Math.random() * 16).toString(16);
  return s;
}

/** 50 members with a paid application each, written straight into the server's SQLite. */
function seedApplications(n) {
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '+00:00');
  const sql = ['BEGIN;'];
  for (let i = 0; i < n; i++) {
    const u = hex(24), a = hex(24), name = `Bulk Applicant ${String(i).padStart(2, '0')}`, email = `bulk${i}@example.com`;
    sql.push(`INSERT INTO users (id, name, email, password_hash, role, created_at, updated_at, email_verified_at) VALUES ('${u}', '${name}', '${email}', 'x', 'user', '${now}', '${now}', '${now}');`);
    sql.push(`INSERT INTO applications (id, user_id, badge_id, type, status, payment_status, full_name, email, description, price_cents, payment_completed_at, created_at, updated_at)
      VALUES ('${a}', '${u}', '${badgeId}', 'proof', 'pending', 'completed', '${name}', '${email}', 'Work', 0, '${now}', '${now}', '${now}');`);
  }
  sql.push('COMMIT;');
  execFileSync('sqlite3', ['-cmd', '.timeout 5000', path.join(server.dataDir, 'meritmark.db')], { input: sql.join('\n') });
}

async function axeClean(page, selector) {
  const r = await new AxeBuilder({ page }).include(selector).analyze();
  assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target).join(', ')}`), [], 'axe on ' + selector);
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  badgeId = list.badges.find((b) => b.name === BADGE)?._id;
  assert.ok(badgeId, 'seeded badge ' + BADGE);
  seedApplications(50);
  const r = await browser.context.request.post(server.url + API + '/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: { Origin: server.url } });
  assert.equal(r.status(), 200, await r.text());
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('bulk approve of 50 applications, a CSV award of 200 rows, a withdrawal', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');

  // select the page, then all 50 that match, and approve
  await page.getByTestId('select-page').check();
  await page.getByTestId('select-matching').click();
  assert.equal(await page.getByTestId('bulk-count').textContent(), '50 applications selected');
  await page.getByTestId('bulk-approve').click();
  const confirm = page.getByTestId('bulk-confirm-dialog');
  await confirm.waitFor();
  assert.match(await page.getByTestId('bulk-preview-summary').textContent(), /50 will change, 0 already done, 0 skipped\. 50 applicants will be e-mailed\./);
  await axeClean(page, '[data-testid="bulk-confirm-dialog"]');
  await page.screenshot({ path: path.join(screenshotDir, 'admin-bulk-confirm.png') });
  await page.getByTestId('bulk-confirm').click();
  const result = page.getByTestId('bulk-result-dialog');
  await result.waitFor({ timeout: 120000 });
  assert.match(await result.textContent(), /50 of 50 done/);
  assert.equal(await result.locator('[data-testid="bulk-row"][data-ok="true"]').count(), 50);
  await axeClean(page, '[data-testid="bulk-result-dialog"]');
  await page.screenshot({ path: path.join(screenshotDir, 'admin-bulk-result.png') });
  await result.getByRole('button', { name: 'Close' }).last().click();
  const approved = await (await browser.context.request.get(server.url + API + '/admin/applications?status=approved')).json();
  assert.equal(approved.total, 50);

  // a CSV of 200 rows: 194 good, 6 bad
  const lines = ['email,name,expiry,note'];
  for (let i = 0; i < 194; i++) lines.push(`csv${i}@example.com,Recipient ${i},,Thanks for the talk`);
  lines.push('not-an-address,Bad One,,', 'csv1@example.com,Twice,,', 'nobody@example.com,,,', 'late@example.com,Late,2001-01-01,', 'odd@example.com,Odd,31/12/2030,', 'csv2@example.com,Again,,');
  await page.getByRole('tab', { name: /Badge Management/ }).click();
  await page.getByTestId('awards-csv').waitFor();
  await page.locator('#csv-badge').selectOption(badgeId);
  await page.locator('#csv-file').setInputFiles({ name: 'awards.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await page.getByTestId('csv-preview').click();
  const dlg = page.getByTestId('csv-dialog');
  await dlg.waitFor();
  assert.match(await page.getByTestId('csv-summary').textContent(), /200 rows: 194 will be sent a claim link by e-mail, 6 will be skipped/);
  const bad = dlg.locator('[data-testid="csv-row"][data-ok="false"]');
  assert.equal(await bad.count(), 6);
  assert.match(await bad.first().textContent(), /^196not-an-address.*Please enter a valid e-mail address\./);
  assert.match(await bad.nth(1).textContent(), /Repeats line 3/);
  await axeClean(page, '[data-testid="csv-dialog"]');
  await page.screenshot({ path: path.join(screenshotDir, 'admin-bulk-csv.png') });
  await page.getByTestId('csv-send').click();
  await dlg.waitFor({ state: 'detached', timeout: 120000 }).catch(() => dlg.waitFor({ state: 'hidden' }));
  const reg = await (await browser.context.request.get(server.url + API + '/admin/awards?state=sent&limit=1')).json();
  assert.equal(reg.total, 194);

  // withdraw the register's first award; its link then refuses
  const row = page.locator('[data-testid="award-row"]').first();
  await row.waitFor();
  const who = await row.getAttribute('data-email');
  assert.match(who, /^csv\d+@example\.com$/);
  await row.getByTestId('award-withdraw').click();
  await page.getByTestId('withdraw-dialog').waitFor();
  await axeClean(page, '[data-testid="withdraw-dialog"]');
  await page.getByTestId('withdraw-confirm').click();
  await page.getByTestId('withdraw-dialog').waitFor({ state: 'hidden' });
  const mail = await server.smtp.waitFor(who, /awarded you/);
  const tok = /\/claim\/([A-Za-z0-9_-]{43})/.exec(mailBody(mail.data))[1];
  const claim = await browser.context.newPage();
  const res = await claim.goto(server.url + '/claim/' + tok);
  assert.equal(res.status(), 200);
  assert.match(await claim.locator('main').textContent(), /This award has been withdrawn by the issuer\./);
  await claim.close();
  assert.deepEqual(errors, []);
});
