// Open Badges API for wallets, end to end in Chromium: a wallet (this test) registers
// (RFC 7591), sends the member to /oauth/authorize; the member signs in, comes back to the
// consent screen, clicks Allow and lands on the wallet's redirect (a local http server
// here) with a code; the wallet exchanges it with its PKCE verifier and reads the API; the
// profile lists the connected app and Revoke ends its access. Deny answers access_denied.
// axe on the consent page. Screenshots: tests/browser/screenshots/oauth-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, shot, signUp, watchErrors } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SCOPES = ['https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly', 'https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.readonly'];

let server, browser, wallet, cb, client;
const received = [];

before(async () => {
  server = await startServer();
  browser = await launch();
  // the wallet's redirect endpoint
  wallet = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://127.0.0.1');
    if (u.pathname === '/callback') received.push(u.searchParams); // not the favicon
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Wallet</title><h1>Wallet received the answer</h1></html>');
  });
  await new Promise((r) => wallet.listen(0, '127.0.0.1', r));
  cb = `http://127.0.0.1:${wallet.address().port}/callback`;
  const r = await fetch(server.url + '/oauth/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Pocket Wallet', client_uri: 'https://pocket-wallet.example', redirect_uris: [cb], scope: SCOPES.join(' '),
      token_endpoint_auth_method: 'client_secret_basic', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  });
  assert.equal(r.status, 201);
  client = await r.json();
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => (wallet ? wallet.close(r) : r()));
});

const b64url = (b) => Buffer.from(b).toString('base64url');
function authRequest(state) {
  const verifier = b64url(crypto.randomBytes(32));
  const challenge = b64url(crypto.createHash('sha256').update(verifier).digest());
  const q = new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: cb, scope: SCOPES.join(' '), state,
    code_challenge: challenge, code_challenge_method: 'S256' });
  return { url: `${server.url}/oauth/authorize?${q}`, verifier };
}
const basic = () => 'Basic ' + Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64');

test('sign in from the authorize link, consent, Allow, token, API, connected app, Revoke', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const email = await signUp(server, page, 'Wanda Wallet', 'oauth');
  // a visitor is sent to sign in first and comes back to the consent screen
  await browser.context.clearCookies();
  const { url, verifier } = authRequest('state-allow-123');
  await page.goto(url);
  assert.match(page.url(), /\/login\?next=%2Foauth%2Fauthorize%3F/);
  await hydrated(page, 'LoginForm');
  await page.fill('#login-email', email);
  await page.fill('#login-password', 'oauth-password-1');
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL((u) => u.pathname === '/oauth/authorize', { timeout: 15000 });

  // the consent screen: client name, its URI, the scopes in plain words
  assert.equal(await page.textContent('[data-testid="oauth-client-name"]'), 'Pocket Wallet wants to access your Meritmark account');
  assert.equal((await page.textContent('[data-testid="oauth-client-uri"]')).trim(), 'https://pocket-wallet.example');
  const scopes = await page.textContent('[data-testid="oauth-scopes"]');
  assert.match(scopes, /Read your badges/);
  assert.match(scopes, /Read your profile/);
  const res = await new AxeBuilder({ page, axeSource }).withTags(TAGS).analyze();
  assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), []);
  for (const w of [390, 1440]) {
    await page.setViewportSize({ width: w, height: 900 });
    await shot(page, `oauth-consent-${w}`);
  }
  // the dark theme too
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  const dark = await new AxeBuilder({ page, axeSource }).withTags(TAGS).analyze();
  assert.deepEqual(dark.violations.map((v) => `dark ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), []);
  await shot(page, 'oauth-consent-dark-1440');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.reload();
  await page.setViewportSize({ width: 1280, height: 800 });

  // Allow: the browser lands on the wallet's redirect with the code and the state
  await page.click('[data-testid="oauth-allow"]');
  await page.waitForURL((u) => u.href.startsWith(cb), { timeout: 15000 });
  const q = received.at(-1);
  assert.equal(q.get('state'), 'state-allow-123');
  assert.ok(q.get('code'));

  // the wallet exchanges the code (client_secret_basic + PKCE verifier)
  const tr = await fetch(server.url + '/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic() },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: q.get('code'), redirect_uri: cb, code_verifier: verifier }),
  });
  assert.equal(tr.status, 200);
  const tok = await tr.json();
  assert.ok(tok.access_token && tok.refresh_token);
  const cr = await fetch(server.url + '/ims/ob/v3p0/credentials', { headers: { Authorization: 'Bearer ' + tok.access_token } });
  assert.equal(cr.status, 200);
  assert.equal(cr.headers.get('x-total-count'), '0');
  assert.deepEqual(await cr.json(), { credential: [], compactJwsString: [] });
  const pr = await fetch(server.url + '/ims/ob/v3p0/profile', { headers: { Authorization: 'Bearer ' + tok.access_token } });
  assert.equal(pr.status, 200);
  assert.equal((await pr.json()).name, 'Wanda Wallet');

  // the profile lists the connected app; Revoke removes it and ends its access
  await page.goto(server.url + '/profile');
  await hydrated(page, 'Profile');
  const app = page.locator('[data-testid="connected-app"]');
  await app.waitFor();
  const text = await app.textContent();
  assert.match(text, /Pocket Wallet/);
  assert.match(text, /Read your badges/);
  assert.match(text, /Last used/);
  const section = page.locator('[data-testid="connected-apps"]');
  const axeApps = await new AxeBuilder({ page, axeSource }).withTags(TAGS).include('[data-testid="connected-apps"]').analyze();
  assert.deepEqual(axeApps.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), []);
  for (const w of [390, 1440]) {
    await page.setViewportSize({ width: w, height: 900 });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `tests/browser/screenshots/oauth-connected-apps-${w}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.click('[data-testid="revoke-app"]');
  await page.locator('[data-testid="connected-apps-empty"]').waitFor();
  await section.screenshot({ path: 'tests/browser/screenshots/oauth-connected-apps-revoked.png' });
  const after = await fetch(server.url + '/ims/ob/v3p0/credentials', { headers: { Authorization: 'Bearer ' + tok.access_token } });
  assert.equal(after.status, 401);
  assert.equal((await after.json()).imsx_codeMinor.imsx_codeMinorField[0].imsx_codeMinorFieldValue, 'unauthorizedrequest');
  const rr = await fetch(server.url + '/oauth/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic() },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tok.refresh_token }),
  });
  assert.equal(rr.status, 400);
  assert.equal((await rr.json()).error, 'invalid_grant');
  assert.deepEqual(errors, []);
  await page.close();
});

test('Deny sends the member back with access_denied; a bad redirect URI is never followed', async () => {
  const page = await browser.context.newPage();
  const { url } = authRequest('state-deny-456');
  await page.goto(url);
  await page.click('[data-testid="oauth-deny"]');
  await page.waitForURL((u) => u.href.startsWith(cb), { timeout: 15000 });
  const q = received.at(-1);
  assert.equal(q.get('error'), 'access_denied');
  assert.equal(q.get('state'), 'state-deny-456');
  assert.equal(q.get('code'), null);

  const bad = new URL(url);
  bad.searchParams.set('redirect_uri', 'https://evil.example/cb');
  const res = await page.goto(bad.href);
  assert.equal(res.status(), 400);
  assert.equal(new URL(page.url()).origin, server.url);
  assert.match(await page.textContent('[data-testid="oauth-error"]'), /not registered here/);
  await shot(page, 'oauth-invalid-request');
  await page.close();
});

test('an account whose address is not confirmed cannot connect an app', async () => {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  const email = `oauth-unconfirmed-${Date.now()}@example.com`;
  const headers = { Origin: server.url };
  const reg = await page.request.post(server.url + '/backend/api/v1/auth/register', { data: { name: 'Una Confirmed', email, password: 'oauth-password-1' }, headers });
  assert.equal(reg.status(), 201);
  const login = await page.request.post(server.url + '/backend/api/v1/auth/login', { data: { email, password: 'oauth-password-1' }, headers });
  assert.equal(login.status(), 200);
  const before = received.length;
  const res = await page.goto(authRequest('state-unconfirmed').url);
  assert.equal(res.status(), 403);
  assert.equal(new URL(page.url()).origin, server.url);
  assert.equal((await page.textContent('h1')).trim(), 'Confirm your email address first');
  assert.match(await page.textContent('[data-testid="oauth-error"]'), /confirmed/);
  assert.equal(await page.locator('[data-testid="oauth-allow"]').count(), 0);
  assert.equal(received.length, before);
  const res2 = await new AxeBuilder({ page, axeSource }).withTags(TAGS).analyze();
  assert.deepEqual(res2.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), []);
  await shot(page, 'oauth-unconfirmed');
  await page.close();
});
