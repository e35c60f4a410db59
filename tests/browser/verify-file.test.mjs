// /verify-badge with a credential file: a member's badge is granted through the real flow
// (proof application, the seeded 100% coupon, the demo admin's approval); a visitor then
// chooses its baked PNG with the file input (reached and opened from the keyboard) and
// drops it on the page, and sees the checks; a forged copy signed by an attacker's key is
// reported as not trusted; a file that is no credential gets a clear message. Screenshots at
// 390 and 1440 px.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, hydrated, shot as fullShot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

let server, browser, grant, png, jwt, dir;

async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullShot(page, name);
}

async function call(ctx, method, p, data) {
  const r = await ctx.request[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

/** The real credential's payload with the issuer moved to the attacker, signed (EdDSA) by
 * the attacker's own key, as a compact JWT. */
function forge(realJwt) {
  const payload = JSON.parse(Buffer.from(realJwt.split('.')[1], 'base64url').toString());
  payload.iss = 'https://evil.example/issuer';
  payload.issuer.id = 'https://evil.example/issuer';
  const { privateKey } = crypto.generateKeyPairSync('ed25519');
  const head = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: 'https://evil.example/.well-known/jwks.json#k1', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const sig = crypto.sign(null, Buffer.from(head + '.' + body), privateKey).toString('base64url');
  return `${head}.${body}.${sig}`;
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const ctx = browser.context;
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  const badge = list.badges.find((b) => b.type === 'proof');
  const email = `grace-${Date.now()}@example.com`;
  let r = await call(ctx, 'post', '/auth/register', { name: 'Grace Hopper', email, password: 'password-123' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, email, 'password-123');
  const sub = await ctx.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: {
      badgeId: badge._id, type: 'proof', fullName: 'Grace Hopper', position: 'Compiler Architect', linkedin: 'https://linkedin.com/in/grace',
      portfolio: 'https://grace.example', description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;
  r = await call(ctx, 'post', '/payments', { badgeId: badge._id, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await ctx.clearCookies();
  r = await call(ctx, 'post', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200);
  r = await call(ctx, 'put', `/admin/applications/${appId}/approve`, {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
  grant = { ...r.body.application.grant, badge: badge.name };
  await ctx.clearCookies();
  const base = `${server.url}/credentials/${grant.publicVerificationId}`;
  png = Buffer.from(await (await fetch(base + '.png')).arrayBuffer());
  jwt = (await (await fetch(base + '.jwt')).text()).trim();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-verify-file-'));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(width) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = watchErrors(page);
  await page.goto(server.url + '/verify-badge');
  await hydrated(page, 'VerifyBadge');
  return { page, errors };
}

async function drop(page, name, type, data) {
  const dt = await page.evaluateHandle(({ b64, name, type }) => {
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const t = new DataTransfer();
    t.items.add(new File([bin], name, { type }));
    return t;
  }, { b64: Buffer.from(data).toString('base64'), name, type });
  await page.dispatchEvent('[data-testid="verify-dropzone"]', 'dragover', { dataTransfer: dt });
  assert.equal(await page.getByTestId('verify-dropzone').getAttribute('data-dragging'), 'true');
  await page.dispatchEvent('[data-testid="verify-dropzone"]', 'drop', { dataTransfer: dt });
}

async function expectValidChecks(page, fileName) {
  await page.locator('[data-testid="verify-result"][data-state="valid"]').waitFor();
  assert.ok(await page.getByRole('heading', { name: 'Verified Badge' }).isVisible());
  assert.equal(await page.getByTestId('verify-holder').innerText(), 'Grace Hopper');
  assert.equal(await page.getByTestId('verify-badge-name').innerText(), grant.badge);
  assert.equal(await page.locator('[data-testid="verify-checks"] li').count(), 4);
  assert.equal(await page.locator('[data-testid="verify-checks"] li[data-ok="true"]').count(), 4);
  assert.match(await page.getByTestId('verify-file-name').innerText(), new RegExp(`Checked badge image \\(PNG\\): ${fileName}`));
}

test('a baked PNG chosen from the keyboard, or dropped, shows the checks', async () => {
  const pngPath = path.join(dir, 'grace-badge.png');
  fs.writeFileSync(pngPath, png);
  const { page, errors } = await open(1440);
  // listen for the file chooser before anything opens it: Playwright turns on the
  // interception asynchronously, and a Space pressed before that opens nothing it can see
  const chooserOpened = page.waitForEvent('filechooser', { timeout: 15000 });
  // the dropzone is a real label for a real file input, not a role=button wrapper
  assert.equal(await page.locator('[data-testid="verify-dropzone"] [role="button"]').count(), 0);
  assert.equal(await page.locator('label[for="credential-file"]').count(), 1);
  assert.equal(await page.getByLabel(/Drop a credential file here or choose a file/).getAttribute('type'), 'file');
  // from the Verify button, Tab reaches the file input; Space opens the file chooser
  await page.getByTestId('verify-submit').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'credential-file');
  const ring = await page.locator('label[for="credential-file"]').evaluate((el) => getComputedStyle(el).boxShadow);
  assert.notEqual(ring, 'none', 'no visible focus on the dropzone');
  await page.keyboard.press('Space');
  const chooser = await chooserOpened;
  await chooser.setFiles(pngPath);
  await expectValidChecks(page, 'grace-badge.png');
  await shot(page, 'verify-file-valid-1440');

  // dropped on the page: the same checks
  await page.goto(server.url + '/verify-badge');
  await hydrated(page, 'VerifyBadge');
  await drop(page, 'dropped.png', 'image/png', png);
  await expectValidChecks(page, 'dropped.png');
  assert.deepEqual(errors, []);
  await page.close();

  const small = await open(390);
  await small.page.locator('#credential-file').setInputFiles(pngPath);
  await expectValidChecks(small.page, 'grace-badge.png');
  await shot(small.page, 'verify-file-valid-390');
  assert.deepEqual(small.errors, []);
  await small.page.close();
});

test('a forged credential re-signed by an attacker is reported as not trusted', async () => {
  for (const width of [1440, 390]) {
    const { page, errors } = await open(width);
    await drop(page, 'forged.jwt', 'application/jwt', Buffer.from(forge(jwt)));
    await page.locator('[data-testid="verify-result"][data-state="untrusted"]').waitFor();
    assert.ok(await page.getByRole('heading', { name: 'Issuer Not Trusted' }).isVisible());
    assert.equal(await page.getByTestId('verify-reason').innerText(),
      'This credential was not issued by Meritmark: its issuer is not one we trust. It names https://evil.example/issuer.');
    assert.ok(!(await page.getByTestId('verify-result').innerText()).includes('signature does not match'));
    assert.equal(await page.locator('[data-testid="verify-checks"] li[data-ok="true"]').count(), 0);
    assert.ok(await page.getByText('Not trusted: it names https://evil.example/issuer', { exact: true }).isVisible());
    assert.equal(await page.getByTestId('verify-holder').count(), 0, 'an untrusted file shows no holder');
    await shot(page, `verify-file-untrusted-${width}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('a file that is no credential gets a clear message', async () => {
  const { page } = await open(1440);
  await page.locator('#credential-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, I am a badge') });
  await page.locator('[data-testid="verify-result"][data-state="file-error"]').waitFor();
  assert.match(await page.getByTestId('verify-file-error').innerText(),
    /This file could not be checked\s+This file is not a credential: upload a badge image \(PNG\) with a credential baked in, a JWT or a JSON credential\.\s+File: notes\.txt/);
  await shot(page, 'verify-file-error-1440');
  await page.close();
});
