// Account security end to end: sign-up → the confirmation mail (from the SMTP sink the
// harness runs); the seeded admin's first sign-in: a new password, then two-step sign-in
// set up with codes computed here (RFC 6238 with node:crypto), then a sign-in with a code;
// then the new member's first grant: they apply for a proof badge (free coupon), that admin
// approves it, the grant waits (no credential, the profile says why) until the address is
// confirmed through the mail's link, and then the credential is issued.
// Screenshots: tests/browser/screenshots/security-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startServer, launch, hydrated, shot, confirmationToken, seededBadges, ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.mjs';

/** RFC 4648 base32 without padding. */
function base32(s) {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0, value = 0;
  const out = [];
  for (const ch of s.replace(/=+$/, '').toUpperCase()) {
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
const nowStep = () => Math.floor(Date.now() / 30000);

let server, browser;
// the member signed up in the first test (waiting for confirmation) and the admin's
// browser context once two-step sign-in is set up
let member, adminCtx;
const API = '/backend/api/v1';
before(async () => {
  server = await startServer({ MM_KEEP_SEEDED_ADMIN: '1' });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a TOTP twin of the server: RFC 6238 test vector', () => {
  // RFC 6238 appendix B, SHA-1, T = 59 s: 94287082 (8 digits) -> 287082 for 6 digits
  assert.equal(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1), '287082');
});

test('sign up: the confirmation mail arrives and the profile asks for it', async () => {
  const page = await browser.context.newPage();
  const email = `sec-${Date.now()}@example.com`;
  await page.goto(server.url + '/signup');
  await hydrated(page, 'SignupForm');
  await page.fill('#signup-name', 'Sam Secure');
  await page.fill('#signup-email', email);
  await page.fill('#signup-password', 'quiet-river-stone-7');
  await page.fill('#signup-confirm', 'quiet-river-stone-7');
  await Promise.all([page.waitForURL(server.url + '/'), page.click('[data-testid="signup-submit"]')]);

  // the profile shows the address is not confirmed yet
  await page.goto(server.url + '/profile');
  await hydrated(page, 'AccountSecurity');
  await page.getByTestId('email-unverified').waitFor();
  await page.getByTestId('session-row').first().waitFor();
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'security-profile-unverified-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'security-profile-unverified-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // the mail really arrived over SMTP, with a link to this server
  const token = await confirmationToken(server, email);
  const mail = server.smtp.messages.filter((m) => m.to.includes(email)).at(-1);
  assert.match(mail.data, /Subject: Confirm your Meritmark email address/);
  assert.ok(token.length >= 40, 'a 256-bit token');
  // the address is confirmed later, after a first grant (the last test)
  member = { page, email, token };
});

test("the seeded admin's first sign-in: a new password, then two-step sign-in", async () => {
  const ctx = await browser.context.browser()?.newContext?.() ?? browser.context;
  const page = await ctx.newPage();
  await page.goto(server.url + '/login?next=%2Fadmin');
  await hydrated(page, 'LoginForm');
  await page.fill('#login-email', ADMIN_EMAIL);
  await page.fill('#login-password', ADMIN_PASSWORD);
  await Promise.all([page.waitForURL(/\/account\/password/), page.click('[data-testid="login-submit"]')]);
  await hydrated(page, 'ChangePasswordForm');
  await shot(page, 'security-admin-set-password-1280');
  // the API refuses the admin's work meanwhile, with a clear message
  const blocked = await page.request.get(server.url + '/backend/api/v1/admin/applications');
  assert.equal(blocked.status(), 403);
  assert.match((await blocked.json()).msg, /choose a new password/);

  await page.fill('#current-password', ADMIN_PASSWORD);
  await page.fill('#new-password', 'admin-own-secret-phrase-2');
  await page.fill('#confirm-password', 'admin-own-secret-phrase-2');
  // next: the admin dashboard, which sends an admin without two-step sign-in to set it up
  await Promise.all([page.waitForURL(/\/account\/two-factor/), page.click('[data-testid="change-password-submit"]')]);
  await hydrated(page, 'TwoFactorSetup');
  const mfaBlocked = await page.request.get(server.url + '/backend/api/v1/admin/applications');
  assert.equal(mfaBlocked.status(), 403);
  assert.match((await mfaBlocked.json()).msg, /two-step sign-in/);
  await page.click('[data-testid="mfa-start"]');
  const secret = (await page.getByTestId('mfa-secret').innerText()).trim();
  assert.match(secret, /^[A-Z2-7]{16,}$/);
  assert.ok(await page.locator('img[src^="data:image/png;base64,"]').isVisible(), 'QR code shown');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'security-admin-2fa-setup-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'security-admin-2fa-setup-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  const step = nowStep();
  await page.fill('#mfa-code', totp(secret, step));
  await page.click('[data-testid="mfa-confirm"]');
  await page.getByTestId('recovery-codes').waitFor();
  assert.equal(await page.getByTestId('recovery-code').count(), 10);
  await shot(page, 'security-admin-recovery-codes-1280');
  await Promise.all([page.waitForURL(server.url + '/admin'), page.click('[data-testid="mfa-continue"]')]);
  await hydrated(page, 'AdminDashboard');
  await shot(page, 'security-admin-dashboard-1280');

  // sign out, and in again: password, then a code (the next step: the used one is spent)
  await page.request.post(server.url + '/backend/api/v1/auth/logout', { headers: { Origin: server.url } });
  await page.goto(server.url + '/login?next=%2Fadmin');
  await hydrated(page, 'LoginForm');
  await page.fill('#login-email', ADMIN_EMAIL);
  await page.fill('#login-password', 'admin-own-secret-phrase-2');
  await page.click('[data-testid="login-submit"]');
  await page.getByTestId('mfa-form').waitFor();
  await shot(page, 'security-login-code-1280');
  // a replayed code is refused
  await page.fill('#login-code', totp(secret, step));
  await page.click('[data-testid="mfa-submit"]');
  await page.locator('#toaster [role="status"]').filter({ hasText: 'each works once' }).first().waitFor();
  await page.fill('#login-code', totp(secret, step + 1));
  await Promise.all([page.waitForURL(server.url + '/admin'), page.click('[data-testid="mfa-submit"]')]);
  await hydrated(page, 'AdminDashboard');
  await page.close();
  adminCtx = ctx;
});

test('the first grant waits for the confirmed address, then the credential is issued', async () => {
  assert.ok(member && adminCtx, 'the sign-up and admin tests ran first');
  const { page, email, token } = member;
  // the member applies for a proof badge and pays with the seeded 100% coupon
  const badges = await seededBadges(server);
  const badge = badges.find((b) => b.type === 'proof');
  assert.ok(badge, 'a seeded proof badge');
  const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
  const sub = await page.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: {
      badgeId: badge._id, type: 'proof', fullName: 'Sam Secure', position: 'Engineer', linkedin: 'https://linkedin.com/in/sam',
      portfolio: 'https://sam.example', description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: pdf },
    },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;
  const pay = await page.request.post(server.url + API + '/payments', {
    headers: { Origin: server.url }, data: { badgeId: badge._id, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' },
  });
  assert.equal(pay.status(), 201, await pay.text());

  // the admin (two-step sign-in done) approves: the grant waits for the address
  const approved = await adminCtx.request.put(`${server.url}${API}/admin/applications/${appId}/approve`, { headers: { Origin: server.url }, data: {} });
  assert.equal(approved.status(), 200, await approved.text());
  const body = await approved.json();
  assert.equal(body.waitingForEmailVerification, true, JSON.stringify(body));
  assert.ok(!body.application.grant, 'a grant was issued to an unconfirmed address: ' + JSON.stringify(body.application.grant));

  // the member's side: no credential, and the profile says the badge waits for the link
  let me = await (await page.request.get(server.url + API + '/auth/me')).json();
  assert.equal(me.user.emailVerified, false);
  assert.equal(me.user.badgeGrants.length, 0, 'a credential before the confirmation');
  await page.goto(server.url + '/profile');
  await hydrated(page, 'AccountSecurity');
  const waiting = page.getByTestId('email-unverified');
  await waiting.waitFor();
  const note = page.getByTestId('grant-waiting');
  assert.equal(await note.innerText(), `Your ${badge.name} badge is approved and waits for this confirmation: its credential is issued when you open the link.`);
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.evaluate(() => window.scrollTo(0, 0)); // full-page shot: the sticky header at the top
    await shot(page, `security-grant-waiting-${w}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // the link in the mail confirms the address and issues the waiting grant
  await page.goto(`${server.url}/verify-email?token=${encodeURIComponent(token)}`);
  await hydrated(page, 'VerifyEmailCard');
  await shot(page, 'security-verify-email-1280');
  await page.click('[data-testid="verify-email-submit"]');
  const done = page.getByTestId('verify-email-done');
  await done.waitFor();
  assert.match(await page.getByTestId('verify-email-card').innerText(), /One approved badge was waiting for it and is now on your profile/);
  await shot(page, 'security-verify-email-done-1280');
  // once only
  const again = await page.request.post(server.url + API + '/auth/verify-email', { data: { token }, headers: { Origin: server.url } });
  assert.equal(again.status(), 400);
  me = await (await page.request.get(server.url + API + '/auth/me')).json();
  assert.equal(me.user.emailVerified, true);
  assert.equal(me.user.badgeGrants.length, 1, JSON.stringify(me.user.badgeGrants));
  const g = me.user.badgeGrants[0];
  // the credential is issued: it verifies, and it names the confirmed address's holder
  const v = await (await page.request.get(`${server.url}${API}/verify/badge/${g.publicVerificationId}`)).json();
  assert.equal(v.isValid, true, JSON.stringify(v));
  assert.equal(v.checks.signature, true);
  const jwt = await page.request.get(`${server.url}/credentials/${g.publicVerificationId}.jwt`);
  assert.equal(jwt.status(), 200);
  await page.goto(server.url + '/profile');
  await hydrated(page, 'AccountSecurity');
  assert.equal(await page.getByTestId('email-unverified').count(), 0);
  await page.close();
});
