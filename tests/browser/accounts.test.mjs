// Accounts end to end: sign up, log out, log in, reset a password through the e-mail the
// server really sends (to an SMTP sink run here), edit the profile and upload a cropped
// picture. Screenshots go to tests/browser/screenshots/accounts-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, hydrated, wake, shot, watchErrors, mailBody } from './harness.mjs';
import { startSMTP } from './smtp.mjs';

let smtp, server, browser;
before(async () => {
  smtp = await startSMTP();
  server = await startServer({ MERITMARK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
  browser = await launch();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});
after(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

const EMAIL = 'avery.quinn@example.com';
const FIRST_PASSWORD = 'first-password-123';
const NEW_PASSWORD = 'brand-new-password-456';

/** The visible toast's text. */
async function toastText(page) {
  const t = page.locator('#toaster [role="status"]').first();
  await t.waitFor({ timeout: 10000 });
  return (await t.innerText()).replace(/\s+/g, ' ').trim();
}

async function waitToast(page, title, description) {
  const t = page.locator('#toaster [role="status"]').filter({ hasText: title }).first();
  await t.waitFor({ timeout: 10000 });
  const text = (await t.innerText()).replace(/\s+/g, ' ');
  if (description) assert.ok(text.includes(description), `toast "${text}" lacks "${description}"`);
  return text;
}

/** Only our own unexpected errors: the browser logs every 4xx answer as a console error. */
function realErrors(errors) {
  return errors.filter((e) => !/Failed to load resource|status of 40[0-9]/.test(e));
}

test('sign up, log out, log in, reset the password by e-mail, edit the profile and the picture', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const calls = [];
  page.on('request', (r) => {
    if (r.url().includes('/backend/api/v1/')) calls.push(r.method() + ' ' + new URL(r.url()).pathname.replace('/backend/api/v1', ''));
  });

  // --- sign up: a password mismatch shows the spec's toast and makes no call
  await page.goto(server.url + '/signup');
  await hydrated(page, 'SignupForm');
  await shot(page, 'accounts-signup-1280');
  await page.fill('#signup-name', 'Avery Quinn');
  await page.fill('#signup-email', EMAIL);
  await page.fill('#signup-password', FIRST_PASSWORD);
  await page.fill('#signup-confirm', FIRST_PASSWORD + 'x');
  await page.click('[data-testid="signup-submit"]');
  await waitToast(page, "Passwords don't match", 'Please make sure your passwords match.');
  assert.deepEqual(calls.filter((c) => c.includes('/auth/register')), [], 'no register call on a mismatch');
  await shot(page, 'accounts-signup-mismatch-1280');

  // --- sign up for real: signed in and sent home
  await page.fill('#signup-confirm', FIRST_PASSWORD);
  await Promise.all([page.waitForURL(server.url + '/'), page.click('[data-testid="signup-submit"]')]);
  await wake(page, 'Header');
  await page.click('[data-testid="user-menu"]');
  await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
  assert.equal(await page.getByRole('menuitem', { name: 'Admin Dashboard' }).count(), 0, 'no admin entry for a member');
  await shot(page, 'accounts-user-menu-1280');

  // --- signed-in users do not see the sign-in screens
  await page.goto(server.url + '/login');
  assert.equal(new URL(page.url()).pathname, '/');

  // --- log out from the menu: back home as a visitor
  await wake(page, 'Header');
  await page.click('[data-testid="user-menu"]');
  // the page is already at '/', so wait for the reload that logout causes, not for the URL
  await Promise.all([page.waitForEvent('framenavigated'), page.getByRole('menuitem', { name: 'Logout' }).click()]);
  await page.waitForLoadState('load');
  assert.equal(new URL(page.url()).pathname, '/');
  await page.locator('header').getByRole('link', { name: 'Login' }).first().waitFor({ state: 'visible', timeout: 15000 });
  assert.ok(await page.locator('header').getByRole('link', { name: 'Login' }).first().isVisible(), 'Login link after logout');

  // --- the profile needs a session: to /login?next=/profile
  await page.goto(server.url + '/profile');
  assert.equal(page.url(), server.url + '/login?next=%2Fprofile');
  await hydrated(page, 'LoginForm');

  // --- a wrong password: the spec's toast
  await page.fill('#login-email', EMAIL);
  await page.fill('#login-password', 'not-my-password');
  await page.click('[data-testid="login-submit"]');
  await waitToast(page, 'Login Failed', 'Please check your credentials');
  await shot(page, 'accounts-login-failed-1280');

  // --- forgot password: the dialog sends the link
  await page.getByRole('button', { name: 'Forgot Password?' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  assert.equal(await dialog.locator('#forgot-email').inputValue(), EMAIL, 'the dialog starts with the typed email');
  await shot(page, 'accounts-forgot-dialog-1280');
  await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
  await waitToast(page, 'Reset Email Sent', 'Check your inbox for a password reset link.');
  await dialog.waitFor({ state: 'detached' });

  // --- the e-mail really arrives over SMTP with the link
  const mail = await smtp.waitFor(EMAIL, /Subject: Reset your Meritmark password/);
  assert.match(mail.data, /Subject: Reset your Meritmark password/);
  const body = mailBody(mail.data);
  const link = (/(http:\/\/[^\s"<>]+\/reset-password\?[^\s"<>]+)/.exec(body) || [])[1];
  assert.ok(link, 'reset link in the message');
  const linkURL = new URL(link);
  assert.equal(linkURL.origin, server.url);
  assert.equal(linkURL.searchParams.get('email'), EMAIL);
  assert.ok(linkURL.searchParams.get('token').length >= 22, 'token of at least 128 bits');

  // --- a link without its parameters
  await page.goto(server.url + '/reset-password?email=' + encodeURIComponent(EMAIL));
  await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
  await shot(page, 'accounts-reset-invalid-1280');

  // --- the real link: a new password, then the login screen says so
  await page.goto(link);
  await hydrated(page, 'ResetPasswordForm');
  await shot(page, 'accounts-reset-form-1280');
  await page.fill('#reset-password', NEW_PASSWORD);
  await page.fill('#reset-confirm', NEW_PASSWORD);
  await Promise.all([page.waitForURL(server.url + '/login?reset=1'), page.click('[data-testid="reset-submit"]')]);
  await page.getByText('Your password has been reset.').waitFor();
  await hydrated(page, 'LoginForm');
  await shot(page, 'accounts-login-after-reset-1280');

  // the link is single use
  const again = await page.request.post(server.url + '/backend/api/v1/auth/reset-password', {
    data: { email: EMAIL, token: linkURL.searchParams.get('token'), newPassword: 'yet-another-password' },
    headers: { Origin: server.url },
  });
  assert.equal(again.status(), 400);

  // --- log in with the new password, coming back to the profile
  await page.goto(server.url + '/profile');
  await hydrated(page, 'LoginForm');
  await page.fill('#login-email', EMAIL);
  await page.fill('#login-password', FIRST_PASSWORD);
  await page.click('[data-testid="login-submit"]');
  await waitToast(page, 'Login Failed');
  await page.fill('#login-password', NEW_PASSWORD);
  await Promise.all([page.waitForURL(server.url + '/profile'), page.click('[data-testid="login-submit"]')]);
  await hydrated(page, 'Profile');
  assert.equal(await page.getByTestId('profile-name').innerText(), 'Avery Quinn');
  assert.equal(await page.getByTestId('stat-badges').innerText(), '0');
  assert.equal(await page.getByTestId('stat-status').innerText(), 'Member');
  await page.getByText('No badges earned yet').waitFor();
  assert.ok(await page.getByRole('link', { name: 'Discover Badges' }).isVisible());
  await shot(page, 'accounts-profile-1280');

  // --- Edit Profile Details: Cancel restores, a bad URL is explained, Save stores
  const form = page.getByTestId('profile-form');
  assert.equal(await form.locator('#profile-name').getAttribute('readonly'), '', 'read-only before Edit');
  await page.click('[data-testid="profile-edit"]');
  await page.fill('#profile-name', 'Someone Else');
  await page.click('[data-testid="profile-cancel"]');
  assert.equal(await page.inputValue('#profile-name'), 'Avery Quinn', 'Cancel restores the name');
  await page.click('[data-testid="profile-edit"]');
  await page.fill('#profile-name', 'Avery J. Quinn');
  await page.fill('#profile-position', 'Staff Product Designer');
  await page.fill('#profile-linkedin', 'linkedin.com/in/avery');
  await page.click('[data-testid="profile-save"]');
  await page.getByText('LinkedIn must be a full http:// or https:// address.').waitFor();
  await shot(page, 'accounts-profile-invalid-url-1280');
  await page.fill('#profile-linkedin', 'https://www.linkedin.com/in/avery-quinn');
  await page.fill('#profile-portfolio', 'https://avery.example.com');
  await page.click('[data-testid="profile-save"]');
  await waitToast(page, 'Profile updated!', 'Your details have been saved.');
  assert.equal(await page.getByTestId('profile-name').innerText(), 'Avery J. Quinn');
  assert.equal(await form.locator('#profile-name').getAttribute('readonly'), '', 'read-only after Save');
  assert.equal(await page.inputValue('#profile-email'), EMAIL);

  // --- Share Profile copies /profile/{id}
  await page.click('[data-testid="share-profile"]');
  await waitToast(page, 'Profile link copied!');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, new RegExp('^' + server.url.replace(/[.]/g, '\\.') + '/profile/[0-9a-f]{24}$'));
  const profilePath = new URL(copied).pathname;

  // --- Edit Profile Picture: choose, zoom, drag, round preview, Save
  const png = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 900;
    c.height = 600;
    const g = c.getContext('2d');
    const grad = g.createLinearGradient(0, 0, 900, 600);
    grad.addColorStop(0, '#4f46e5');
    grad.addColorStop(1, '#06b6d4');
    g.fillStyle = grad;
    g.fillRect(0, 0, 900, 600);
    g.fillStyle = '#fde68a';
    g.beginPath();
    g.arc(450, 260, 150, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#1f2937';
    g.font = 'bold 90px sans-serif';
    g.fillText('AQ', 380, 290);
    return c.toDataURL('image/png').split(',')[1];
  });
  await page.click('[data-testid="edit-picture"]');
  await page.getByTestId('picture-dialog').waitFor();
  await page.setInputFiles('[data-testid="picture-input"]', { name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
  await page.getByTestId('crop-area').locator('img').waitFor();
  // zoom to 1.6 (the range goes from 1 to 3)
  const zoom = page.getByTestId('zoom');
  assert.equal(await zoom.getAttribute('min'), '1');
  assert.equal(await zoom.getAttribute('max'), '3');
  await zoom.evaluate((el) => {
    const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    set.call(el, '1.6');
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  // drag the picture a little to the left
  const box = await page.getByTestId('crop-area').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 40, box.y + box.height / 2 - 10, { steps: 5 });
  await page.mouse.up();
  assert.ok(await page.getByTestId('round-preview').locator('img').isVisible(), 'round preview');
  assert.ok(await page.getByRole('button', { name: 'Choose Another' }).isVisible());
  await shot(page, 'accounts-picture-dialog-1280');
  const [upload] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/users/profile-pic') && r.method() === 'POST'),
    page.click('[data-testid="picture-save"]'),
  ]);
  assert.match(upload.headers()['content-type'], /^multipart\/form-data/);
  await waitToast(page, 'Profile picture updated');
  await page.getByTestId('picture-dialog').waitFor({ state: 'detached' });
  const avatarSrc = await page.locator('[data-island="Profile"] img[alt$="profile picture"]').first().getAttribute('src');
  assert.match(avatarSrc, /^\/media\/avatars\/[0-9a-f]{24}\.png$/);
  const pic = await page.request.get(server.url + avatarSrc);
  assert.equal(pic.status(), 200);
  assert.equal(pic.headers()['content-type'], 'image/png');
  assert.equal(pic.headers()['x-content-type-options'], 'nosniff');
  const bytes = await pic.body();
  // PNG IHDR: width and height at bytes 16-23
  const w = bytes.readUInt32BE(16);
  const h = bytes.readUInt32BE(20);
  assert.equal(w, h, 'square');
  assert.ok(w <= 512 && w >= 300, `size ${w}`);
  await shot(page, 'accounts-profile-with-picture-1280');
  assert.ok(calls.includes('GET /auth/me'), 'the picture flow refreshed the user');

  // --- the public profile: name, position, picture, links; never the e-mail
  // as a visitor (no cookies: the signed-in header would show the viewer's own email)
  const visitor = await fetch(server.url + profilePath);
  assert.equal(visitor.status, 200);
  const html = await visitor.text();
  assert.ok(!html.includes(EMAIL), 'no email on the public profile');
  assert.ok(html.includes('Avery J. Quinn') && html.includes('Staff Product Designer'), 'server-rendered name and position');
  const res = await page.goto(server.url + profilePath);
  assert.equal(res.status(), 200);
  assert.match(html, /<meta property="og:title" content="Avery J\. Quinn \| Meritmark">/);
  assert.match(html, /<meta property="og:type" content="profile">/);
  await page.getByRole('heading', { name: 'Avery J. Quinn' }).waitFor();
  await page.getByText('Staff Product Designer').first().waitFor();
  assert.ok(await page.getByRole('link', { name: 'LinkedIn' }).isVisible());
  await shot(page, 'accounts-public-profile-1280');
  const missing = await page.goto(server.url + '/profile/000000000000000000000000');
  assert.equal(missing.status(), 404);

  // --- the small screen and the dark theme
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/profile');
  await hydrated(page, 'Profile');
  await shot(page, 'accounts-profile-390');
  await page.goto(server.url + profilePath);
  await shot(page, 'accounts-public-profile-390');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.goto(server.url + '/profile');
  await hydrated(page, 'Profile');
  await shot(page, 'accounts-profile-dark-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await hydrated(page, 'Profile');
  await shot(page, 'accounts-profile-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));

  assert.deepEqual(realErrors(errors), []);
  await page.close();
});

test('the sign-in screens at 390 px and in the dark theme', async () => {
  const ctx = browser.context;
  await ctx.clearCookies();
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/login');
  await hydrated(page, 'LoginForm');
  await shot(page, 'accounts-login-390');
  await page.goto(server.url + '/signup');
  await hydrated(page, 'SignupForm');
  await shot(page, 'accounts-signup-390');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '/login?next=%2Fprofile');
  await hydrated(page, 'LoginForm');
  await shot(page, 'accounts-login-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  // a duplicate sign-up explains itself
  await page.goto(server.url + '/signup');
  await hydrated(page, 'SignupForm');
  await page.fill('#signup-name', 'Avery Again');
  await page.fill('#signup-email', EMAIL.toUpperCase());
  await page.fill('#signup-password', 'whatever-password');
  await page.fill('#signup-confirm', 'whatever-password');
  await page.click('[data-testid="signup-submit"]');
  await waitToast(page, 'Signup Failed', 'Check your inbox: if this address already has an account, we have emailed its owner.');
  await shot(page, 'accounts-signup-duplicate-1280');
  assert.deepEqual(realErrors(errors), []);
  await page.close();
});
