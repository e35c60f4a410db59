// The admin dashboard end to end: a member applies for a proof badge and pays with the
// seeded 100% coupon; the demo admin opens /admin, sees the summary and the pending
// application, opens View Details, approves it; the applicant then sees the badge on their
// profile, with its credential and baked PNG to download. Also: User Management (search by
// verification id, copy, Set expiry, Revoke — then the verify page says revoked and why),
// the audit log, the Access Denied screen for members, 390 px and dark mode.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, hydrated, shot as fullShot, watchErrors, screenshotDir, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

/** A full-page screenshot from the top (the sticky header stays at the top). */
async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullShot(page, name);
}
/** What is on screen (dialogs are fixed to the viewport). */
async function view(page, name) {
  await page.screenshot({ path: path.join(screenshotDir, name + '.png') });
}

const API = '/backend/api/v1';
// a 1x1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const BADGE = 'Open Source Contributor';
const APPLICANT = { name: 'Ada Lovelace', email: `ada-${Date.now()}@example.com`, password: 'ada-password-1' };

let server, browser, badgeId, applicationId;

async function post(ctx, path, data) {
  const r = await ctx.request.post(server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

async function signIn(ctx, email, password) {
  await ctx.clearCookies();
  const r = await post(ctx, '/auth/login', { email, password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const ctx = browser.context;
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  badgeId = list.badges.find((b) => b.name === BADGE)?._id;
  assert.ok(badgeId, 'seeded badge ' + BADGE);

  // the applicant: sign up, complete the profile, apply with a proof file, pay with FREEGRANT
  let r = await post(ctx, '/auth/register', { name: APPLICANT.name, email: APPLICANT.email, password: APPLICANT.password });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, APPLICANT.email, APPLICANT.password);
  r = await post(ctx, '/users/profile', { name: APPLICANT.name, position: 'Mathematician', linkedin: 'https://linkedin.com/in/ada', portfolio: 'https://ada.example' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const sub = await ctx.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: {
      badgeId, type: 'proof', fullName: APPLICANT.name, position: 'Mathematician', linkedin: 'https://linkedin.com/in/ada',
      portfolio: 'https://ada.example', description: 'Maintainer of the Analytical Engine notes.',
      proofFiles: { name: 'contributions.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  assert.equal(sub.status(), 201, await sub.text());
  applicationId = (await sub.json()).application._id;
  r = await post(ctx, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.applicationApproved, false, 'a free-grant coupon leaves the application for review');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a member sees Access Denied at /admin with 403, and the admin API refuses them', async () => {
  const page = await browser.context.newPage();
  await signIn(browser.context, APPLICANT.email, APPLICANT.password);
  const res = await page.goto(server.url + '/admin');
  assert.equal(res.status(), 403);
  await page.getByRole('heading', { name: 'Access Denied: You need admin privileges to access this page.' }).waitFor();
  await shot(page, 'admin-denied-1280');
  const api = await browser.context.request.get(server.url + API + '/admin/applications');
  assert.equal(api.status(), 403);
  await page.close();
});

test('the admin reviews the pending application and approves it; the applicant sees the badge', async () => {
  const ctx = browser.context;
  await signIn(ctx, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  // this test follows the cards (admin-tables.test.mjs the table): the choice is kept
  await page.getByTestId('view-cards').click();
  await page.getByRole('heading', { name: /Welcome back, Demo Admin/ }).waitFor();
  // no debug line with the current user
  assert.equal(await page.getByText(ADMIN_EMAIL).count(), 0, 'the admin e-mail is not printed on the dashboard');

  const apps = page.getByTestId('card-applications');
  assert.match(await apps.innerText(), /Total Applications\s+1\s+1 pending review/);
  assert.match(await page.getByTestId('card-revenue').innerText(), /\$0\.00/);
  await page.getByText('Pending Review (1)').waitFor();
  await page.getByTestId('payment-note').waitFor();
  const card = page.locator(`[data-application-id="${applicationId}"]`);
  await card.waitFor();
  const text = await card.innerText();
  assert.ok(text.includes(APPLICANT.name) && text.includes(BADGE) && text.includes('Completed'), text);
  assert.match(await card.getByTestId('transaction-id').innerText(), /^….{8}$/);
  await shot(page, 'admin-dashboard-1280');

  await page.getByRole('button', { name: 'Refresh Data' }).click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Data refreshed successfully' }).waitFor();

  // View Details: applicant, the downloadable file, the payment
  await card.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Application details').waitFor();
  await dialog.getByText('contributions.pdf').waitFor();
  const href = await dialog.getByRole('link', { name: 'Download contributions.pdf' }).getAttribute('href');
  assert.match(href, new RegExp(`^${API}/applications/${applicationId}/files/[0-9a-f]{24}$`));
  const dl = await ctx.request.get(server.url + href);
  assert.equal(dl.status(), 200);
  assert.ok((await dl.body()).subarray(0, 5).toString() === '%PDF-', 'the admin can download the proof');
  await dialog.getByText('Free grant coupon').waitFor();
  await view(page, 'admin-details-1280');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // approve from the card
  await card.getByRole('button', { name: 'Approve', exact: true }).click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Application approved successfully' }).waitFor();
  await page.getByText('No pending applications').waitFor();
  await page.getByText('All applications have been reviewed.').waitFor();
  await page.getByText('Approved (1)').waitFor();
  await page.waitForFunction(() => /0 pending/.test(document.querySelector('[data-testid="card-applications"]')?.textContent || ''));
  await shot(page, 'admin-approved-empty-pending-1280');
  await page.getByTestId('tab-approved').click();
  const approved = page.locator(`[data-application-id="${applicationId}"]`);
  await approved.getByText('Verification ID').waitFor();
  assert.ok(await approved.getByRole('button', { name: 'Re-approve' }).isVisible());
  assert.ok(await approved.getByRole('button', { name: 'Re-reject' }).isVisible());
  await shot(page, 'admin-approved-tab-1280');

  // re-reject with a reason (the grant is revoked), then re-approve (the same grant returns)
  await approved.getByRole('button', { name: 'Re-reject' }).click();
  const rej = page.getByRole('dialog');
  await rej.getByText('Re-reject application').waitFor();
  await rej.getByText('The badge already granted will be revoked.', { exact: false }).waitFor();
  await rej.getByLabel('Reason (optional)').fill('The linked repository is private.');
  await view(page, 'admin-reject-dialog-1280');
  await rej.getByRole('button', { name: 'Re-reject' }).click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Application rejected successfully' }).waitFor();
  await page.getByText('Rejected (1)').waitFor();
  await page.getByTestId('tab-rejected').click();
  const rejected = page.locator(`[data-application-id="${applicationId}"]`);
  await rejected.getByText('The linked repository is private.').first().waitFor();
  await rejected.getByRole('button', { name: 'Re-approve' }).click();
  // restoring the revoked grant is confirmed knowing why it was revoked
  const restore = page.getByTestId('restore-dialog');
  await restore.getByText('The linked repository is private.', { exact: false }).waitFor();
  await restore.getByRole('button', { name: 'Restore badge' }).click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Application approved successfully' }).waitFor();
  await page.getByText('Approved (1)').waitFor();
  await page.getByTestId('tab-approved').click();
  await page.locator(`[data-application-id="${applicationId}"]`).getByText('Verification ID').waitFor();

  // User Management: find the applicant by their badge's verification id, copy it
  const apiApps = await (await ctx.request.get(`${server.url}${API}/admin/applications?status=approved`)).json();
  const grant = apiApps.applications[0].grant;
  assert.equal(grant.revokedAt, null, 'the re-approved grant is in force again');
  assert.match(grant.verificationId, /^MM-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  await page.getByRole('tab', { name: /User Management/ }).click();
  await page.getByTestId('user-stats').getByText('Total badges earned').waitFor();
  // the cards (wide screens show a table unless an admin keeps the cards)
  await page.getByRole('tabpanel').getByTestId('view-cards').click();
  await page.getByLabel('Search users').fill(grant.verificationId.toLowerCase());
  const userCard = page.getByTestId('user-card');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-card"]').length === 1);
  assert.ok((await userCard.innerText()).includes(APPLICANT.email));
  await userCard.getByText(grant.publicVerificationId).waitFor();
  await userCard.getByRole('button', { name: 'Copy verification id' }).click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Copied!' }).waitFor();
  // a photo for the user, through the card's upload button
  await userCard.locator('input[type="file"]').setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: PNG });
  await page.locator('[data-toaster] [role=status]', { hasText: 'Profile picture updated successfully' }).waitFor();
  const img = userCard.locator('img').first();
  await img.waitFor();
  assert.match(await img.getAttribute('src'), /^\/media\/avatars\/[0-9a-f]{24}\.png$/);
  await shot(page, 'admin-users-1280');

  // edit dialog: change the position; the card shows it
  await userCard.getByRole('button', { name: `Edit ${APPLICANT.name}` }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Position').fill('Analyst');
  await edit.getByLabel('Role').selectOption('user');
  await view(page, 'admin-edit-user-1280');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'User updated successfully' }).waitFor();
  await edit.waitFor({ state: 'detached' });
  await userCard.getByText('Analyst').waitFor();

  // the audit log shows the approval and the edit
  await page.getByRole('tab', { name: /Audit Log/ }).click();
  const log = page.getByTestId('audit-entries');
  await log.getByText('Approved application').first().waitFor();
  assert.equal(await log.getByText('Approved application').count(), 2);
  await log.getByText('Rejected application').waitFor();
  await log.getByText('Updated user').waitFor();
  assert.ok((await log.innerText()).includes(`${BADGE} for ${APPLICANT.email}`));
  await shot(page, 'admin-audit-1280');

  // 390 px and dark mode
  await page.getByRole('tab', { name: /Applications/ }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'admin-dashboard-390');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling at 390 px');
  await page.getByTestId('tab-approved').click();
  await page.locator(`[data-application-id="${applicationId}"]`).getByRole('button', { name: 'View Details' }).click();
  await page.getByRole('dialog').getByText('Badge grant').waitFor();
  await view(page, 'admin-details-390');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => {
    localStorage.setItem('vite-ui-theme', 'dark');
  });
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await page.getByTestId('tab-approved').click();
  await page.locator(`[data-application-id="${applicationId}"]`).waitFor();
  await shot(page, 'admin-dashboard-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  assert.deepEqual(errors, []);
  await page.close();

  // the applicant sees the badge on their profile
  await signIn(ctx, APPLICANT.email, APPLICANT.password);
  const mine = await (await ctx.request.get(server.url + API + '/users/badges')).json();
  const earned = (mine.badges || mine).find?.((b) => b.name === BADGE);
  assert.ok(earned, 'GET /users/badges lists the granted badge: ' + JSON.stringify(mine));
  const prof = await ctx.newPage();
  const res = await prof.goto(server.url + '/profile');
  assert.equal(res.status(), 200);
  await prof.getByText(BADGE).first().waitFor();
  // the holder's downloads: the signed credential and the PNG with it baked in
  await hydrated(prof, 'Profile');
  const downloads = prof.getByTestId('badge-downloads').first();
  const jsonHref = await downloads.getByRole('link', { name: `Credential (JSON) of ${BADGE}` }).getAttribute('href');
  const pngHref = await downloads.getByRole('link', { name: `Baked badge (PNG) of ${BADGE}` }).getAttribute('href');
  assert.equal(jsonHref, `/credentials/${earned.verificationId}.json?download=1`);
  assert.equal(pngHref, `/credentials/${earned.verificationId}.png?download=1`);
  const cred = await ctx.request.get(server.url + jsonHref);
  assert.equal(cred.status(), 200);
  const doc = await cred.json();
  assert.ok(doc.type.includes('OpenBadgeCredential') && doc.credentialSubject.achievement.name === BADGE, JSON.stringify(doc).slice(0, 300));
  const baked = await ctx.request.get(server.url + pngHref);
  assert.equal(baked.status(), 200);
  assert.equal(baked.headers()['content-type'], 'image/png');
  assert.match(baked.headers()['content-disposition'] || '', /^attachment; filename="meritmark-badge-.+\.png"$/);
  const bytes = await baked.body();
  assert.ok(bytes.subarray(1, 4).toString() === 'PNG' && bytes.includes(Buffer.from('openbadgecredential')), 'a PNG with the credential baked in');
  // clicking the link downloads the file
  const [download] = await Promise.all([prof.waitForEvent('download'), downloads.getByText('Baked badge (PNG)').click()]);
  assert.equal(download.suggestedFilename(), `meritmark-badge-${earned.verificationId}.png`);
  await shot(prof, 'admin-applicant-profile-1280');
  await prof.setViewportSize({ width: 390, height: 844 });
  await shot(prof, 'admin-applicant-profile-390');
  assert.equal(await prof.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling at 390 px');
  await prof.close();
});

test('the admin sets an expiry and revokes the grant from User Management; the verify page says why', async () => {
  const ctx = browser.context;
  await signIn(ctx, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: /User Management/ }).click();
  await page.getByRole('tabpanel').getByTestId('view-cards').click();
  await page.getByLabel('Search users').fill(APPLICANT.email);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="user-card"]').length === 1);
  const item = page.getByTestId('user-grant').filter({ hasText: BADGE });
  await item.getByText('No expiry').waitFor();
  assert.equal(await item.getAttribute('data-state'), 'active');
  const grantId = await item.getAttribute('data-grant-id');
  const toastLi = (text) => page.locator('[data-toaster] [role=status]', { hasText: text });

  // Set expiry: a date before the issue date is refused with the server's message
  await item.getByRole('button', { name: `Set expiry of ${BADGE}` }).click();
  let dialog = page.getByTestId('expiry-dialog');
  await dialog.getByText('It has no expiry.', { exact: false }).waitFor();
  await dialog.getByLabel('Expires on').fill('2001-01-01');
  await dialog.getByRole('button', { name: 'Save expiry' }).click();
  const err = toastLi('The expiry must be after the date the badge was issued.');
  await err.waitFor();
  assert.ok((await err.innerText()).startsWith('Error'), 'the error toast is titled Error');
  assert.equal(await err.getAttribute('data-variant'), 'destructive');
  // then a good date
  await dialog.getByLabel('Expires on').fill('2031-01-31');
  await view(page, 'admin-expiry-dialog-1280');
  await dialog.getByRole('button', { name: 'Save expiry' }).click();
  await toastLi('Expiry updated.').waitFor();
  await dialog.waitFor({ state: 'detached' });
  await item.getByText('Expires on Jan 31, 2031').waitFor();
  let g = (await (await ctx.request.get(`${server.url}${API}/admin/users?search=${encodeURIComponent(APPLICANT.email)}`)).json()).users[0].badgeGrants[0];
  assert.equal(g.expiresAt, '2031-01-31T00:00:00Z');
  // the signed credential carries the new expiry
  const cred = await (await ctx.request.get(`${server.url}/credentials/${g.publicVerificationId}.json`)).json();
  assert.equal(cred.validUntil, '2031-01-31T00:00:00Z');

  // 'No expiry' clears it, and the credential with it
  await item.getByRole('button', { name: `Set expiry of ${BADGE}` }).click();
  dialog = page.getByTestId('expiry-dialog');
  await dialog.getByText('It expires on Jan 31, 2031.', { exact: false }).waitFor();
  assert.equal(await dialog.getByLabel('Expires on').inputValue(), '2031-01-31');
  await dialog.getByLabel('No expiry').check();
  assert.ok(await dialog.getByLabel('Expires on').isDisabled());
  await dialog.getByRole('button', { name: 'Save expiry' }).click();
  await toastLi('Expiry cleared.').waitFor();
  await item.getByText('No expiry').waitFor();
  const cleared = await (await ctx.request.get(`${server.url}/credentials/${g.publicVerificationId}.json`)).json();
  assert.equal(cleared.validUntil, undefined);

  // Revoke: a category is required (Other needs a note); the note stays private
  await item.getByRole('button', { name: `Revoke ${BADGE}` }).click();
  dialog = page.getByTestId('revoke-dialog');
  await dialog.getByText(`${BADGE} held by ${APPLICANT.name}.`, { exact: false }).waitFor();
  const confirm = dialog.getByRole('button', { name: 'Revoke badge' });
  assert.ok(await confirm.isDisabled(), 'no category, no revoke');
  const cats = await dialog.getByLabel('Category').locator('option:not([disabled])').allInnerTexts();
  assert.deepEqual(cats, ['Issued in error', 'Policy violation or misconduct', 'Fraudulent or misrepresented evidence', 'Superseded by a newer credential', 'Other']);
  await dialog.getByLabel('Category').selectOption('other');
  await dialog.getByLabel('Note').fill('   ');
  assert.ok(await confirm.isDisabled(), 'Other with a blank note is no reason');
  await dialog.getByLabel('Category').selectOption('fraud');
  assert.ok(await confirm.isEnabled(), 'a category is enough');
  await dialog.getByLabel('Note (optional)').fill('The linked repository  belongs to someone else.');
  await view(page, 'admin-revoke-dialog-1280');
  await confirm.click();
  await toastLi('Badge revoked.').waitFor();
  await dialog.waitFor({ state: 'detached' });
  await item.getByTestId('grant-revoked').waitFor();
  assert.match(await item.getByTestId('grant-revoked').innerText(), /^Revoked on [A-Z][a-z]{2} \d{1,2}, \d{4}: Fraudulent or misrepresented evidence: The linked repository belongs to someone else\.$/);
  assert.equal(await item.getAttribute('data-state'), 'revoked');
  assert.equal(await item.getByRole('button', { name: `Revoke ${BADGE}` }).count(), 0, 'no actions on a revoked grant');
  await page.getByTestId('user-stats').getByText('Total badges earned').waitFor();
  await shot(page, 'admin-users-revoked-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'admin-users-revoked-390');
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'no sideways scrolling at 390 px');
  await page.setViewportSize({ width: 1280, height: 800 });
  // dark theme: the grant states and a dialog
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: /User Management/ }).click();
  await page.getByRole('tabpanel').getByTestId('view-cards').click();
  await page.getByLabel('Search users').fill(APPLICANT.email);
  await item.getByTestId('grant-revoked').waitFor();
  await shot(page, 'admin-users-revoked-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  g = (await (await ctx.request.get(`${server.url}${API}/admin/users?search=${encodeURIComponent(APPLICANT.email)}`)).json()).users[0].badgeGrants[0];
  assert.equal(g._id, grantId);
  assert.ok(g.revokedAt);
  assert.equal(g.revocationReason, 'Fraudulent or misrepresented evidence: The linked repository belongs to someone else.');
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  await page.close();

  // a visitor opening the shared link sees the badge revoked, and the category only
  await ctx.clearCookies();
  const v = await ctx.newPage();
  await v.goto(`${server.url}/verify/${g.publicVerificationId}`);
  await v.locator('[data-testid="verify-result"][data-state="revoked"]').waitFor();
  assert.match(await v.getByTestId('verify-reason').innerText(), /Reason: Fraudulent or misrepresented evidence$/);
  assert.doesNotMatch(await v.locator('body').innerText(), /linked repository/, 'the note never reaches the verify page');
  await shot(v, 'admin-revoked-verify-1280');
  await v.close();
});
