// Holders and recruiters end to end: two members earn proof badges through the real flow
// (apply, pay with the seeded 100% coupon, the demo admin approves). A recruiter pastes
// their ids with an unknown and a malformed entry on /verify-badge, gets the table, the
// CSV download and a signed receipt, and checks the receipt. The admin awards a badge by
// e-mail from the dashboard; the recipient signs up with that address and claims it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, hydrated, shot as fullShot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup, mailBody } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
let server, browser, grants;

/** No page here scrolls sideways (WCAG 1.4.10 reflow, walked at 320 px too); a failure
 * names the elements whose right edge makes the page wider (an absolutely placed one, such
 * as an sr-only label, escapes a scroll box that is not its containing block). */
async function noSideScroll(page, what) {
  const { over, culprits } = await page.evaluate(() => {
    const sw = document.documentElement.scrollWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => Math.abs(el.getBoundingClientRect().right + window.scrollX - sw) < 1.5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)} "${(el.textContent || '').slice(0, 30)}" in ${el.parentElement?.tagName.toLowerCase()}`)
      .slice(0, 4);
    return { over: sw - document.documentElement.clientWidth, culprits };
  });
  assert.ok(over <= 0, `${what} scrolls sideways by ${over}px: ${culprits.join(', ')}`);
}

async function shot(page, name) {
  await noSideScroll(page, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullShot(page, name);
}

async function post(ctx, path, data, method = 'post') {
  const r = await ctx.request[method](server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const ctx = browser.context;
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  const byName = Object.fromEntries(list.badges.map((b) => [b.name, b._id]));
  const apps = [];
  for (const [name, badge] of [['Ada Lovelace', 'Open Source Contributor'], ['Grace Hopper', 'Team Leadership']]) {
    const email = `${name.split(' ')[0].toLowerCase()}-${Date.now()}@example.com`;
    let r = await post(ctx, '/auth/register', { name, email, password: 'password-123' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await confirmSignup(server, ctx.request, email, 'password-123');
    const badgeId = byName[badge];
    const sub = await ctx.request.post(server.url + API + '/applications', {
      headers: { Origin: server.url },
      multipart: { badgeId, type: 'proof', fullName: name, position: 'Engineer', linkedin: 'https://linkedin.com/in/x', portfolio: 'https://x.example',
        description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
    });
    assert.equal(sub.status(), 201, await sub.text());
    apps.push({ name, appId: (await sub.json()).application._id });
    r = await post(ctx, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await ctx.clearCookies();
  }
  assert.equal((await post(ctx, '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status, 200);
  grants = [];
  for (const a of apps) {
    const r = await post(ctx, `/admin/applications/${a.appId}/approve`, {}, 'put');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    grants.push({ name: a.name, ...r.body.application.grant });
  }
  await ctx.clearCookies();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a recruiter verifies many badges at once, downloads the CSV and checks the receipt', async () => {
  for (const [w, h] of [[1440, 900], [390, 844], [320, 640]]) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    const errors = watchErrors(page);
    await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'light'));
    await page.goto(server.url + '/verify-badge');
    await hydrated(page, 'BulkVerify');
    const ids = [grants[0].verificationId, `${server.url}/verify/${grants[1].publicVerificationId}`, 'MM-0000-0000-0000', 'hello world'];
    await page.locator('#bulk-ids').fill(ids.join('\n'));
    await page.getByRole('button', { name: 'Verify all' }).click();
    await page.getByTestId('bulk-results').waitFor();
    const rowSel = w < 640 ? '[data-testid="bulk-results"] ul[aria-label="Results"] > li' : '[data-testid="bulk-results"] tbody tr';
    const statuses = await page.locator(rowSel).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
    assert.deepEqual(statuses, ['valid', 'valid', 'not_found', 'malformed']);
    const table = await page.getByTestId('bulk-results').innerText();
    assert.ok(table.includes('Ada Lovelace') && table.includes('Grace Hopper') && table.includes('Not found') && table.includes('Not an ID'), table);
    await page.getByTestId('bulk-results').scrollIntoViewIfNeeded();
    await shot(page, `bulk-verify-${w}`);

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const text = fs.readFileSync(await csv.path(), 'utf8');
    assert.ok(text.startsWith('row,input,status,holder,badge,issued'), text);
    assert.equal(text.trim().split('\r\n').length, 5);

    const [rc] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save signed receipt' }).click()]);
    const receiptPath = await rc.path();
    assert.ok(JSON.parse(fs.readFileSync(receiptPath, 'utf8')).receipt.split('.').length === 3);
    await page.locator('#receipt-file').setInputFiles({ name: 'receipt.json', mimeType: 'application/json', buffer: fs.readFileSync(receiptPath) });
    await page.getByTestId('receipt-result').waitFor();
    assert.match(await page.getByTestId('receipt-result').innerText(), /This receipt is genuine/);
    // a changed receipt is refused
    const forged = JSON.parse(fs.readFileSync(receiptPath, 'utf8'));
    const [hd, pl, sig] = forged.receipt.split('.');
    const body = JSON.parse(Buffer.from(pl, 'base64url').toString());
    body.rows[2].status = 'valid';
    forged.receipt = [hd, Buffer.from(JSON.stringify(body)).toString('base64url'), sig].join('.');
    await page.locator('#receipt-file').setInputFiles({ name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forged)) });
    await page.waitForFunction(() => document.querySelector('[data-testid="receipt-result"]')?.textContent.includes('does not match'));
    await shot(page, `bulk-receipt-${w}`);
    assert.deepEqual(errors.filter((e) => !e.includes('status of 422')), [], 'only the forged receipt is refused');
    await page.close();
  }
});

test('the admin awards a badge by e-mail; the recipient signs up with the address and claims it', async () => {
  const ctx = browser.context;
  await ctx.clearCookies();
  assert.equal((await post(ctx, '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status, 200);
  const to = `winner-${Date.now()}@example.com`;
  for (const [w, h] of [[1440, 900], [390, 844], [320, 640]]) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'light'));
    await page.goto(server.url + '/admin');
    await hydrated(page, 'AdminDashboard');
    await page.getByRole('tab', { name: /Badge Management/ }).click();
    const form = page.getByTestId('award-by-email');
    await form.waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#award-badge option').length > 1);
    await page.locator('#award-badge').selectOption({ label: 'Team Leadership' });
    await page.locator('#award-email').fill(to);
    await page.locator('#award-note').fill('For leading the migration.');
    await page.getByRole('button', { name: 'Send award' }).click();
    await form.getByRole('status').waitFor();
    assert.match(await form.getByRole('status').innerText(), /Sent: Team Leadership to winner-/);
    await form.scrollIntoViewIfNeeded();
    await noSideScroll(page, `award form at ${w}`);
    await page.screenshot({ path: `tests/browser/screenshots/award-form-${w}.png` });
    await page.close();
  }
  // the last mail's link (the log outbox prints it; the second award replaced the first)
  await new Promise((r) => setTimeout(r, 300));
  const mails = server.smtp ? server.smtp.messages.map((m) => mailBody(m.data)).join('\n') : server.logs();
  const links = [...mails.matchAll(/\/claim\/([A-Za-z0-9_-]{43})/g)].map((m) => m[1]);
  assert.ok(links.length >= 2, 'claim links in the mail log');
  const tok = links[links.length - 1];
  await ctx.clearCookies();
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/claim/${tok}`);
  await page.getByRole('link', { name: 'Sign in to claim' }).waitFor();
  await shot(page, 'award-claim-signin-390');
  assert.equal((await post(ctx, '/auth/register', { name: 'Win Ner', email: to, password: 'password-123' })).status, 201);
  await confirmSignup(server, ctx.request, to, 'password-123');
  await page.goto(`${server.url}/claim/${tok}`);
  await hydrated(page, 'ClaimAward');
  await shot(page, 'award-claim-ready-390');
  await page.getByTestId('claim-button').click();
  await page.waitForURL(/\/verify\//);
  await page.locator('[data-testid="verify-result"][data-state="valid"]').waitFor();
  assert.equal(await page.getByTestId('verify-holder').innerText(), 'Win Ner');
  await page.close();
});

test('a renewed badge: the verify page shows the credential history', async () => {
  const ctx = browser.context;
  await ctx.clearCookies();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  const badgeId = list.badges.find((b) => b.name === 'Cloud Infrastructure Engineer')._id;
  const email = `renee-${Date.now()}@example.com`;
  assert.equal((await post(ctx, '/auth/register', { name: 'Renee Newell', email, password: 'password-123' })).status, 201);
  await confirmSignup(server, ctx.request, email, 'password-123');
  const apply = async () => {
    const sub = await ctx.request.post(server.url + API + '/applications', {
      headers: { Origin: server.url },
      multipart: { badgeId, type: 'proof', fullName: 'Renee Newell', position: 'SRE', linkedin: 'https://linkedin.com/in/renee', portfolio: 'https://renee.example',
        description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
    });
    assert.equal(sub.status(), 201, await sub.text());
    const r = await post(ctx, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return (await sub.json()).application._id;
  };
  const asAdmin = async (fn) => {
    await ctx.clearCookies();
    assert.equal((await post(ctx, '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status, 200);
    const out = await fn();
    await ctx.clearCookies();
    assert.equal((await post(ctx, '/auth/login', { email, password: 'password-123' })).status, 200);
    return out;
  };
  const first = await apply();
  const old = await asAdmin(async () => {
    const r = await post(ctx, `/admin/applications/${first}/approve`, {}, 'put');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const g = r.body.application.grant;
    const soon = new Date(Date.now() + 10 * 86400e3).toISOString().slice(0, 19) + 'Z';
    assert.equal((await post(ctx, `/admin/grants/${g._id}/expiry`, { expiresAt: soon }, 'put')).status, 200);
    return g;
  });
  // in the renewal window the holder applies again; the admin approves the renewal
  const second = await apply();
  const renewed = await asAdmin(async () => {
    const r = await post(ctx, `/admin/applications/${second}/approve`, {}, 'put');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.application.grant;
  });
  await ctx.clearCookies();
  for (const [w, h] of [[1440, 900], [390, 844], [320, 640]]) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${server.url}/verify/${renewed.publicVerificationId}`);
    const hist = page.getByTestId('grant-history');
    await hist.waitFor();
    const text = await hist.innerText();
    assert.match(text, /Credential history/);
    assert.equal(await hist.locator('li').count(), 2);
    assert.equal(await hist.locator(`a[href="/verify/${old.publicVerificationId}"]`).count(), 1);
    await shot(page, `verify-history-${w}`);
    await page.close();
  }
});
