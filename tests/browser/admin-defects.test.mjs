// The back office's defects of issue 37, each driven in a real browser: field errors beside
// the field and toasts that neither cover a dialog's actions nor close it (coupons,
// badges); the spec's fallbacks when the server sends no message; the empty state of
// "Awaiting payment (0)"; "Waived" for a Grant Free application; the Payments tab (list,
// filter, CSV, its fallback); the audit log's search and every action in its filter;
// recovery codes copied, downloaded, printed and replaced, and a spent one named.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launch, hydrated, watchErrors, screenshotDir, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const BADGE = 'Open Source Contributor';
const MEMBER = { name: 'Grace Hopper', email: `grace-${Date.now()}@example.com`, password: 'grace-password-1' };

let server, browser, badgeId;

async function post(ctx, p, data) {
  const r = await ctx.request.post(server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

async function signIn(ctx, email, password) {
  await ctx.clearCookies();
  const r = await post(ctx, '/auth/login', { email, password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

const view = (page, name) => page.screenshot({ path: path.join(screenshotDir, name + '.png') });

async function adminPage(tab) {
  await signIn(browser.context, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await page.getByTestId('view-cards').click(); // this test follows the cards
  if (tab) await page.getByRole('tab', { name: tab }).click();
  return { page, errors };
}

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A toast is shown, it does not cover the dialog's submit button, and clicking it keeps
 * the dialog open with what was typed. */
async function toastKeepsDialog(page, submit, field, typed, text) {
  const t = page.locator('#toaster [role="status"]').filter({ hasText: text });
  await t.waitFor({ timeout: 10000 });
  const tb = await t.boundingBox();
  const sb = await submit.boundingBox();
  assert.ok(tb && sb, 'toast and submit button are on screen');
  assert.ok(!overlaps(tb, sb), `the toast ${JSON.stringify(tb)} covers the submit button ${JSON.stringify(sb)}`);
  await t.click({ position: { x: 10, y: 10 } });
  await page.waitForTimeout(300);
  assert.ok(await submit.isVisible(), 'a click on the toast closes no dialog');
  assert.equal(await page.inputValue(field), typed, 'the form keeps what was typed');
  // nor does its close button: the toast goes, the dialog and its form stay
  await t.locator('button[aria-label="Dismiss notification"]').click();
  await t.waitFor({ state: 'detached' });
  await page.waitForTimeout(300);
  assert.ok(await submit.isVisible(), 'closing the toast closes no dialog');
  assert.equal(await page.inputValue(field), typed, 'the form keeps what was typed after the toast is closed');
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  badgeId = list.badges.find((b) => b.name === BADGE)?._id;
  assert.ok(badgeId, 'seeded badge ' + BADGE);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const width of [1280, 390]) {
  test(`coupon dialog at ${width} px: a field error beside the field; a toast clear of the actions that closes nothing`, async () => {
    await browser.context.clearCookies();
    const { page, errors } = await adminPage();
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    const r = await post(browser.context, '/coupons', { code: `DUPE${width}` });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await page.getByRole('tab', { name: 'Coupons' }).click();
    await page.getByTestId('new-coupon').click();
    await page.getByTestId('coupon-form').waitFor();
    const submit = page.getByTestId('coupon-form-submit');

    // the code is taken: the message sits under the code field, which is marked invalid
    await page.fill('#coupon-code', `dupe${width}`);
    await submit.click();
    const err = page.locator('#coupon-code-error');
    await err.waitFor();
    assert.equal(await err.innerText(), 'A coupon with this code already exists.');
    assert.equal(await page.getAttribute('#coupon-code', 'aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'coupon-code', 'the field is focused');
    assert.equal(await page.locator('#toaster [role="status"]').count(), 0, 'no toast for a field error');
    await view(page, `admin-defects-coupon-field-error-${width}`);
    // typing in the field clears its message
    await page.fill('#coupon-code', `fresh${width}`);
    assert.equal(await err.count(), 0);

    // the server fails without a message: the spec's fallback, not "Internal Server Error"
    await page.route('**/backend/api/v1/coupons', (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 500, body: '' }) : route.continue()));
    await submit.click();
    await toastKeepsDialog(page, submit, '#coupon-code', `FRESH${width}`, 'Failed to create coupon');
    assert.equal(await page.locator('#toaster').getByText('Internal Server Error').count(), 0);
    await view(page, `admin-defects-coupon-toast-${width}`);
    await page.unroute('**/backend/api/v1/coupons');
    assert.deepEqual(errors.filter((e) => !/status of (409|500)/.test(e)), []);
    await page.close();
  });
}

test('badge dialog: a taken name shows beside the name; a failed save keeps the dialog', async () => {
  const { page, errors } = await adminPage('Badge Management');
  await page.getByTestId('create-badge').click();
  await page.getByTestId('badge-form').waitFor();
  await page.fill('#badge-name', BADGE.toLowerCase());
  await page.selectOption('#badge-category', { index: 1 });
  const submit = page.getByTestId('badge-form-submit');
  await submit.click();
  const err = page.locator('#badge-name-error');
  await err.waitFor();
  assert.equal(await err.innerText(), 'A badge with this name already exists.');
  assert.equal(await page.getAttribute('#badge-name', 'aria-invalid'), 'true');

  await page.fill('#badge-name', 'Rust Fundamentals Extra');
  await page.route('**/backend/api/v1/badge-management/badges', (route) => route.fulfill({ status: 502, body: '' }));
  await submit.click();
  await toastKeepsDialog(page, submit, '#badge-name', 'Rust Fundamentals Extra', 'Failed to create badge');
  await page.unroute('**/backend/api/v1/badge-management/badges');
  assert.deepEqual(errors.filter((e) => !/status of (409|502)/.test(e)), []);
  await page.close();
});

test('Awaiting payment (0) shows its own empty state; Grant Free shows Waived; payments and audit', async () => {
  // ---- no application awaits payment yet ----
  let { page, errors } = await adminPage();
  const filter = page.getByTestId('pay-filter');
  await filter.getByRole('button', { name: 'Awaiting payment (0)' }).click();
  const empty = page.getByTestId('empty-applications');
  await empty.getByText('No applications awaiting payment').waitFor();
  assert.equal(await empty.getByText('All applications have been reviewed.').count(), 0);
  await page.close();

  // ---- a member applies and does not pay; a second member pays with FREEGRANT ----
  const ctx = browser.context;
  await ctx.clearCookies();
  let r = await post(ctx, '/auth/register', { name: MEMBER.name, email: MEMBER.email, password: MEMBER.password });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, MEMBER.email, MEMBER.password);
  r = await post(ctx, '/users/profile', { name: MEMBER.name, position: 'Rear Admiral', linkedin: 'https://linkedin.com/in/grace', portfolio: 'https://grace.example' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const sub = await ctx.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: {
      badgeId, type: 'proof', fullName: MEMBER.name, position: 'Rear Admiral', linkedin: 'https://linkedin.com/in/grace',
      portfolio: 'https://grace.example', description: 'COBOL and the first compiler.',
      proofFiles: { name: 'compiler.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;

  // ---- the admin grants it free: the payment state reads Waived, not Pending ----
  ({ page, errors } = await adminPage());
  await page.getByTestId('pay-filter').getByRole('button', { name: 'Awaiting payment (1)' }).waitFor();
  const card = page.locator(`[data-application-id="${appId}"]`);
  await card.getByRole('button', { name: 'Grant Free' }).click();
  await page.locator('#toaster').getByText('Application approved successfully').waitFor();
  await page.getByTestId('tab-approved').click();
  const approved = page.locator(`[data-application-id="${appId}"]`);
  await approved.waitFor();
  assert.equal(await approved.getByTestId('payment-chip').innerText(), 'Waived');
  await approved.getByRole('button', { name: /View Details/ }).click();
  const dlg = page.getByRole('dialog');
  await dlg.getByTestId('payment-chip').waitFor();
  assert.equal(await dlg.getByTestId('payment-chip').innerText(), 'Waived');
  await page.keyboard.press('Escape');

  // ---- the member pays for another badge with the free-grant coupon: a payment ----
  await signIn(ctx, MEMBER.email, MEMBER.password);
  const other = (await (await ctx.request.get(server.url + API + '/badges/with-ownership')).json()).badges.find((b) => b.type === 'proof' && b.name !== BADGE);
  const sub2 = await ctx.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: {
      badgeId: other._id, type: 'proof', fullName: MEMBER.name, position: 'Rear Admiral', linkedin: 'https://linkedin.com/in/grace',
      portfolio: 'https://grace.example', description: 'More proof.', proofFiles: { name: 'more.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  assert.equal(sub2.status(), 201, await sub2.text());
  r = await post(ctx, '/payments', { badgeId: other._id, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await page.close();

  // ---- Payments tab: list, filter, CSV, fallback ----
  ({ page, errors } = await adminPage('Payments'));
  const rows = page.getByTestId('payment-row');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 1);
  assert.ok((await rows.first().innerText()).includes(MEMBER.email));
  assert.ok((await rows.first().innerText()).includes('FREEGRANT'));
  await page.getByTestId('payment-status-filter').getByRole('button', { name: 'Failed' }).click();
  await page.getByText('No failed payments').waitFor();
  await page.getByTestId('payment-status-filter').getByRole('button', { name: 'All' }).click();
  await rows.first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('payments-csv').click()]);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  const lines = csv.trim().split('\r\n');
  assert.equal(lines.length, 2, csv);
  assert.match(lines[0], /^Payment ID,Date,Completed,Status,Amount \(USD\)/);
  assert.ok(lines[1].includes(MEMBER.email) && lines[1].includes('FREEGRANT') && lines[1].includes(other.name), lines[1]);
  await view(page, 'admin-defects-payments-1280');
  await page.route(/\/backend\/api\/v1\/admin\/payments\?/, (route) => route.fulfill({ status: 503, body: '' }));
  await page.getByTestId('payment-status-filter').getByRole('button', { name: 'Completed' }).click();
  await page.locator('#toaster').getByText('Failed to fetch payments').waitFor();
  assert.equal(await page.locator('#toaster').getByText('Service Unavailable').count(), 0);
  await page.unroute(/\/backend\/api\/v1\/admin\/payments\?/);

  // ---- the audit log: search by what rows show, every action in the filter ----
  await page.getByRole('tab', { name: 'Audit Log' }).click();
  const select = page.getByRole('combobox', { name: 'Filter by action' });
  await select.locator('option[value="question.retire"]').waitFor({ state: 'attached' });
  for (const a of ['webhook.rotate_secret', 'quiz.grant_attempt', 'award.create', 'user.delete']) {
    assert.equal(await select.locator(`option[value="${a}"]`).count(), 1, `filter option ${a}`);
  }
  await page.getByRole('searchbox', { name: 'Search the audit log' }).fill(BADGE.split(' ')[0]);
  const entry = page.getByText(`${BADGE} for ${MEMBER.email}`).first();
  await entry.waitFor();
  await view(page, 'admin-defects-audit-1280');
  assert.deepEqual(errors.filter((e) => !/status of 503/.test(e)), []);
  await page.close();
});

/** RFC 4648 base32 without padding. */
function base32(str) {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0, value = 0;
  const out = [];
  for (const ch of str.replace(/=+$/, '').toUpperCase()) {
    value = (value << 5) | abc.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
/** The 6-digit TOTP code of secret at 30-second step `step` (RFC 6238, SHA-1). */
function totp(secret, step) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = crypto.createHmac('sha1', base32(secret)).update(counter).digest();
  const off = mac[mac.length - 1] & 15;
  const n = ((mac[off] & 127) << 24) | (mac[off + 1] << 16) | (mac[off + 2] << 8) | mac[off + 3];
  return String(n % 1e6).padStart(6, '0');
}

test('recovery codes: copy, download, print, replace; a spent code is named at sign-in', async () => {
  const ctx = browser.context;
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await ctx.clearCookies();
  const who = { name: 'Rec Overy', email: `rec-${Date.now()}@example.com`, password: 'rec-password-long-1' };
  let r = await post(ctx, '/auth/register', who);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, who.email, who.password);
  await signIn(ctx, who.email, who.password);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/account/two-factor');
  await hydrated(page, 'TwoFactorSetup');
  await page.click('[data-testid="mfa-start"]');
  const secret = (await page.getByTestId('mfa-secret').innerText()).trim();
  const step = Math.floor(Date.now() / 30000);
  await page.fill('#mfa-code', totp(secret, step));
  await page.click('[data-testid="mfa-confirm"]');
  await page.getByTestId('recovery-codes').waitFor();
  const first = await page.getByTestId('recovery-code').allInnerTexts();
  assert.equal(first.length, 10);

  // copy: the clipboard holds every code
  await page.getByTestId('recovery-copy').click();
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  for (const c of first) assert.ok(clip.includes(c), `clipboard lacks ${c}`);
  // download: a .txt with every code
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('recovery-download').click()]);
  assert.equal(dl.suggestedFilename(), 'meritmark-recovery-codes.txt');
  const txt = fs.readFileSync(await dl.path(), 'utf8');
  for (const c of first) assert.ok(txt.includes(c), `download lacks ${c}`);
  // print: a window holding only the codes
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('recovery-print').click()]);
  const printed = await popup.locator('pre').innerText();
  for (const c of first) assert.ok(printed.includes(c), `print lacks ${c}`);
  await popup.close().catch(() => {});
  await view(page, 'admin-defects-recovery-codes-1280');

  // replace them later: the password and a current code; a wrong password shows beside it
  await page.goto(server.url + '/account/two-factor');
  await hydrated(page, 'TwoFactorSetup');
  await page.fill('#recovery-password', 'not-my-password');
  await page.fill('#recovery-code', totp(secret, step + 1));
  await page.getByTestId('recovery-replace-submit').click();
  await page.locator('#recovery-password-error').waitFor();
  await page.fill('#recovery-password', who.password);
  await page.fill('#recovery-code', totp(secret, step + 1));
  await page.getByTestId('recovery-replace-submit').click();
  await page.getByTestId('recovery-codes').waitFor();
  const fresh = await page.getByTestId('recovery-code').allInnerTexts();
  assert.equal(fresh.length, 10);
  assert.ok(!fresh.includes(first[0]), 'new codes');
  await page.close();

  // sign in with a new code, then again with the same one: it is named as used
  const login = async (recoveryCode) => {
    await ctx.clearCookies();
    const p = await ctx.newPage();
    await p.goto(server.url + '/login');
    await hydrated(p, 'LoginForm');
    await p.fill('#login-email', who.email);
    await p.fill('#login-password', who.password);
    await p.click('[data-testid="login-submit"]');
    await p.getByTestId('mfa-form').waitFor();
    await p.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await p.fill('#login-code', recoveryCode);
    await p.click('[data-testid="mfa-submit"]');
    return p;
  };
  let p = await login(first[1]);
  await p.locator('#toaster').getByText('That code is not valid', { exact: false }).waitFor();
  await p.close();
  p = await login(fresh[0]);
  await p.waitForURL((u) => !u.pathname.startsWith('/login'));
  await p.close();
  p = await login(fresh[0]);
  await p.locator('#toaster').getByText('That recovery code has already been used.', { exact: false }).waitFor();
  await p.close();
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
});
