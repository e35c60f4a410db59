// "Add to wallet" (issue 36): a holder who earned a badge through the real flow opens the
// panel on the badge page and on their profile, at 1440 and 390 px, light and dark: the
// OpenID4VCI QR code (an SVG image the size of a phone scan), the transaction code, the
// openid-credential-offer:// link and the DCC links; the offer in the panel redeems at the
// token endpoint with the code shown; axe finds nothing in the open dialog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, wake, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
let server, browser, badgeId, email;

async function post(ctx, p, data, method = 'post') {
  const r = await ctx.request[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const ctx = browser.context;
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  badgeId = list.badges.find((b) => b.type === 'proof')._id;
  email = `wallet-${Date.now()}@example.com`;
  let r = await post(ctx, '/auth/register', { name: 'Ada Lovelace', email, password: 'password-123' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, email, 'password-123');
  const sub = await ctx.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId, type: 'proof', fullName: 'Ada Lovelace', position: 'Engineer', linkedin: 'https://linkedin.com/in/x', portfolio: 'https://x.example',
      description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;
  r = await post(ctx, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await ctx.clearCookies();
  assert.equal((await post(ctx, '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status, 200);
  r = await post(ctx, `/admin/applications/${appId}/approve`, {}, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await ctx.clearCookies();
  assert.equal((await post(ctx, '/auth/login', { email, password: 'password-123' })).status, 200);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openPanel(page, url, island, name) {
  await page.goto(server.url + url);
  await (island === 'BadgeActions' ? wake(page, island) : hydrated(page, island));
  await page.getByTestId('wallet-open').first().click();
  const dialog = page.getByTestId('wallet-dialog');
  await dialog.waitFor();
  await page.getByTestId('wallet-qr-offer').waitFor();
  const qr = await page.getByTestId('wallet-qr-offer').evaluate((img) => ({ w: img.naturalWidth, ok: img.complete && img.naturalWidth > 0, src: img.src.slice(0, 26) }));
  assert.ok(qr.ok && qr.src === 'data:image/svg+xml;base64,', JSON.stringify(qr));
  const tx = (await page.getByTestId('wallet-tx-code').innerText()).trim();
  assert.match(tx, /^\d{6}$/);
  const offerUri = await page.getByTestId('wallet-offer-link').getAttribute('href');
  assert.match(offerUri, /^openid-credential-offer:\/\/\?credential_offer=/);
  assert.match(await page.getByTestId('wallet-dcc-link').getAttribute('href'), /^dccrequest:\/\/request\?/);
  assert.match(await page.getByTestId('wallet-lcw-link').getAttribute('href'), /^https:\/\/lcw\.app\/request\.html\?/);
  const res = await new AxeBuilder({ page, axeSource }).include('[data-testid="wallet-dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`), [], name);
  await shot(page, name);
  return { offerUri, tx };
}

test('the holder adds the badge to a wallet from the badge page and the profile', async () => {
  for (const [w, h, theme] of [[1440, 900, 'light'], [390, 844, 'dark']]) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    const errors = watchErrors(page);
    const { offerUri, tx } = await openPanel(page, `/badges/${badgeId}`, 'BadgeActions', `wallet-badge-${w}-${theme}`);
    // the panel's offer is a live one: its code redeems with the code shown, once
    const offer = JSON.parse(new URL(offerUri.replace('openid-credential-offer://', 'https://x.invalid/')).searchParams.get('credential_offer'));
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'], tx_code: tx });
    const tok = await fetch(server.url + '/oid4vci/token', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
    assert.equal(tok.status, 200, await tok.clone().text());
    await page.keyboard.press('Escape');
    await page.getByTestId('wallet-dialog').waitFor({ state: 'detached' });
    await openPanel(page, '/profile', 'Profile', `wallet-profile-${w}-${theme}`);
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(scrolls, false, 'no sideways scroll');
    assert.deepEqual(errors, []);
    await page.close();
  }
});
