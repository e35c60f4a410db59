// The admin dashboard's deep links, undo and review shortcuts (issue 37 item 4), driven in a
// real browser: the tab, the filter, the search and an opened application or user live in
// the address (a reload and a copied link open the same view; back and forward walk it);
// the toast's Undo puts a toggle back; j/k, a, r and ? in the review queue; an admin's
// change of a member's e-mail waits for the new address to be confirmed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as pwRequest } from 'playwright-core';
import { startServer, launch, hydrated, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup, mailBody } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const BADGE = 'Open Source Contributor';

let server, browser, badgeId;
const members = [];

async function post(request, p, data, method = 'post') {
  const r = await request[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

/** A member who applied for BADGE with a proof file and paid with FREEGRANT: pending review. */
async function applicant(name) {
  const ctx = { request: await pwRequest.newContext(), close() { return this.request.dispose(); } };
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.com`;
  let r = await post(ctx.request, '/auth/register', { name, email, password: 'member-password-1' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, email, 'member-password-1');
  r = await post(ctx.request, '/users/profile', { name, position: 'Engineer', linkedin: 'https://linkedin.com/in/x', portfolio: 'https://x.example' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const sub = await ctx.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: {
      badgeId, type: 'proof', fullName: name, position: 'Engineer', linkedin: 'https://linkedin.com/in/x', portfolio: 'https://x.example',
      description: 'Work in the open.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF },
    },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const applicationId = (await sub.json()).application._id;
  r = await post(ctx.request, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const me = await (await ctx.request.get(server.url + API + '/auth/me')).json();
  await ctx.close();
  return { name, email, applicationId, userId: me.user?._id || me.user?.id || me._id || me.id };
}

async function adminPage(url = '/admin') {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + url);
  await hydrated(page, 'AdminDashboard');
  // these tests follow the cards of the tab shown (the choice is kept for the context's
  // later pages; the users tab has its own)
  const cards = page.locator('[data-testid="view-cards"]:visible');
  if ((await cards.count()) && (await cards.getAttribute('aria-pressed')) !== 'true') await cards.click();
  return { page, errors };
}

const search = (page) => page.evaluate(() => new URLSearchParams(window.location.search).toString());

before(async () => {
  server = await startServer();
  browser = await launch();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  badgeId = list.badges.find((b) => b.name === BADGE)?._id;
  assert.ok(badgeId, 'seeded badge ' + BADGE);
  members.push(await applicant('Linus Deeplink'), await applicant('Margaret Deeplink'), await applicant('Edsger Deeplink'));
  const r = await post(browser.context.request, '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('deep links: filter, search and an opened application survive a reload and a copied link; back and forward', async () => {
  const m = members[1];
  const { page, errors } = await adminPage();
  assert.equal(await search(page), '', 'the default view has a bare address');
  await page.getByTestId('pay-filter').getByRole('button', { name: /Paid, ready to review/ }).click();
  await page.waitForFunction(() => window.location.search.includes('status=pending'));
  await page.getByRole('searchbox', { name: 'Search applications' }).fill('Margaret');
  await page.waitForFunction(() => window.location.search.includes('q=Margaret'));
  const card = page.locator(`[data-application-id="${m.applicationId}"]:visible`);
  await card.waitFor();
  await card.getByRole('button', { name: /View Details/ }).click();
  const details = page.getByRole('dialog', { name: 'Application details' });
  await details.waitFor();
  await page.waitForFunction((id) => window.location.search.includes('app=' + id), m.applicationId);
  const url = page.url();
  assert.deepEqual(Object.fromEntries(new URL(url).searchParams), { status: 'pending', q: 'Margaret', app: m.applicationId });

  const check = async (p) => {
    await p.getByRole('dialog', { name: 'Application details' }).getByText(m.email).first().waitFor();
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await p.getByTestId('pay-filter').getByRole('button', { name: /Paid, ready to review/ }).getAttribute('aria-pressed'), 'true');
    assert.equal(await p.getByRole('searchbox', { name: 'Search applications' }).inputValue(), 'Margaret');
    await p.locator(`[data-application-id="${m.applicationId}"]:visible`).waitFor();
    assert.equal(await p.locator('[data-application-id]:visible').count(), 1, 'the search is applied');
  };
  // reload: the server renders the filtered list, the island opens the application
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await shot(page, 'admin-deeplink-reload-1280');
  await check(page);
  // the copied link in a new page
  const other = await browser.context.newPage();
  const otherErrors = watchErrors(other);
  await other.goto(url);
  await hydrated(other, 'AdminDashboard');
  await check(other);
  assert.deepEqual(otherErrors, []);
  await other.close();

  // tabs: another tab is its own entry; back returns to the applications view
  await page.getByRole('tab', { name: 'User Management' }).click();
  await page.waitForFunction(() => window.location.search === '?tab=users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill('Edsger');
  await page.waitForFunction(() => window.location.search.includes('q=Edsger'));
  await page.getByRole('button', { name: 'Edit Edsger Deeplink' }).click();
  await page.getByRole('dialog').waitFor();
  await page.waitForFunction(() => window.location.search.includes('user='));
  const userUrl = page.url();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.goBack(); // the dialog
  await page.getByRole('dialog').waitFor();
  await page.goBack(); // the users tab's search was typed (replaced), so: the applications view
  await page.goBack();
  await page.waitForFunction(() => !window.location.search.includes('tab=users'));
  await page.getByRole('tab', { name: 'Applications', selected: true }).waitFor();
  await page.goForward();
  await page.getByRole('tab', { name: 'User Management', selected: true }).waitFor();

  // a link to a user being edited opens that user's side panel
  const third = await browser.context.newPage();
  await third.goto(userUrl);
  await hydrated(third, 'AdminDashboard');
  const panel = third.getByRole('dialog', { name: 'User details' });
  await panel.waitFor();
  assert.ok((await panel.innerText()).includes(members[2].email), 'the linked user is the one edited');
  assert.equal(await third.locator('input[aria-label="Search users"]').inputValue(), 'Edsger');
  await third.close();
  assert.deepEqual(errors, []);
  await page.close();
});

test('review shortcuts: j/k/n move, a asks to approve, r opens reject, ? lists them; none while typing', async () => {
  const { page, errors } = await adminPage();
  const rows = page.locator('#applications-panel [data-application-id]:visible');
  await rows.first().waitFor();
  const n = await rows.count();
  assert.ok(n >= 2, 'at least two applications to move between');
  const currentId = () => page.evaluate(() => document.activeElement?.closest('[data-application-id]')?.getAttribute('data-application-id') || null);
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-application-id')));
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('j');
  assert.equal(await currentId(), ids[0]);
  await page.keyboard.press('n');
  assert.equal(await currentId(), ids[1]);
  await page.keyboard.press('k');
  assert.equal(await currentId(), ids[0]);

  // r: the reject dialog of the current application
  await page.keyboard.press('r');
  const reject = page.getByRole('dialog', { name: 'Reject application' });
  await reject.waitFor();
  await page.keyboard.press('Escape');
  await reject.waitFor({ state: 'detached' });
  // a: the approval asks first; Cancel leaves it pending
  await page.keyboard.press('a');
  const approve = page.getByTestId('key-approve-dialog');
  await approve.waitFor();
  await shot(page, 'admin-shortcut-approve-1280');
  await approve.getByRole('button', { name: 'Cancel' }).click();
  await approve.waitFor({ state: 'detached' });

  // ? lists the shortcuts
  await page.keyboard.press('Shift+Slash');
  const help = page.getByTestId('shortcuts-dialog');
  await help.waitFor();
  const text = await help.innerText();
  for (const s of ['Next application', 'Previous application', 'Approve the current application', 'Reject the current application']) assert.ok(text.includes(s), text);
  await shot(page, 'admin-shortcut-help-1280');
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });

  // typing in the search box: the letters are text, nothing opens
  const box = page.locator('input[aria-label="Search applications"]');
  await box.click();
  await page.keyboard.type('ar?');
  await page.waitForTimeout(300);
  assert.equal(await page.getByRole('dialog').count(), 0, 'no shortcut fires while typing');
  assert.equal(await box.inputValue(), 'ar?');
  await box.fill('');
  await page.waitForFunction(() => !window.location.search.includes('q='));
  await rows.nth(1).waitFor();

  // a then Approve: the application is approved
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('j');
  const id = await currentId();
  await page.keyboard.press('a');
  await approve.waitFor();
  await approve.getByRole('button', { name: 'Approve' }).click();
  await page.locator('#toaster').getByText('Application approved successfully').waitFor();
  await page.locator(`#applications-panel [data-application-id="${id}"]`).waitFor({ state: 'detached' });
  // shortcuts belong to the applications tab
  await page.getByRole('tab', { name: 'Coupons' }).click();
  await page.keyboard.press('Shift+Slash');
  await page.waitForTimeout(300);
  assert.equal(await page.getByRole('dialog').count(), 0, 'no shortcut on another tab');
  assert.deepEqual(errors, []);
  await page.close();
});

test('undo: a rejection from review comes back before its mail goes; a coupon toggle and edit are put back', async () => {
  const m = members[2];
  const { page, errors } = await adminPage();
  const card = page.locator(`#applications-panel [data-application-id="${m.applicationId}"]:visible`);
  await card.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject application' });
  await dialog.getByLabel('Reason (optional)').fill('Blurry proof');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  const t = page.locator('#toaster [role="status"]').filter({ hasText: 'Application rejected successfully' });
  await t.waitFor();
  await card.waitFor({ state: 'detached' });
  await shot(page, 'admin-undo-reject-1280');
  await t.getByRole('button', { name: 'Undo' }).click();
  await page.locator('#toaster').getByText('Rejection undone').waitFor();
  await card.waitFor();
  const detail = await (await browser.context.request.get(server.url + API + '/admin/applications/' + m.applicationId)).json();
  assert.equal(detail.application.status, 'pending');
  assert.deepEqual(detail.history.map((h) => h.action).slice(0, 2).sort(), ['application.reject', 'application.reject_undo']);
  const undoneAt = Date.now();

  // a coupon: switched off, then Undo switches it on again; an edit, then Undo restores it
  const code = `UNDO${Date.now() % 100000}`;
  const made = await post(browser.context.request, '/coupons', { code, name: 'Before the edit', discountType: 'percentage', discountValue: 10, isActive: true });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const coupon = async () => { const j = await (await browser.context.request.get(server.url + API + '/coupons')).json(); return (Array.isArray(j) ? j : j.coupons).find((c) => c.code === code); };
  await page.getByRole('tab', { name: 'Coupons' }).click();
  await page.getByRole('tabpanel').getByTestId('view-cards').click(); // the coupons' cards
  const cc = page.locator(`[data-testid="coupon"][data-code="${code}"]`);
  await cc.waitFor();
  await cc.getByTestId('coupon-active-toggle').click();
  const ct = page.locator('#toaster [role="status"]').filter({ hasText: 'Coupon status updated successfully' });
  await ct.waitFor();
  assert.equal((await coupon()).isActive, false);
  await ct.getByRole('button', { name: 'Undo' }).click();
  await page.waitForTimeout(200);
  for (let i = 0; i < 50 && !(await coupon()).isActive; i++) await page.waitForTimeout(100);
  assert.equal((await coupon()).isActive, true, 'undo switched it back on');

  await cc.getByRole('button', { name: /^Edit/ }).click();
  await page.getByTestId('coupon-form').waitFor();
  await page.fill('#coupon-name', 'After the edit');
  await page.getByTestId('coupon-form-submit').click();
  const et = page.locator('#toaster [role="status"]').filter({ hasText: 'Coupon updated successfully' });
  await et.waitFor();
  assert.equal((await coupon()).name, 'After the edit');
  await et.getByRole('button', { name: 'Undo' }).click();
  for (let i = 0; i < 50 && (await coupon()).name !== 'Before the edit'; i++) await page.waitForTimeout(100);
  assert.equal((await coupon()).name, 'Before the edit', 'undo put the old name back');
  await cc.getByText('Before the edit').waitFor();

  // the rejection's mail never goes: past its hold (10 s) and a poll of the mailer (5 s)
  await page.waitForTimeout(Math.max(0, undoneAt + 16000 - Date.now()));
  assert.equal(server.smtp.messages.filter((x) => x.to.includes(m.email) && /Subject: Update on your/.test(x.data)).length, 0, 'no rejection mail');
  assert.deepEqual(errors, []);
  await page.close();
});

test("an admin changes a member's e-mail: the dialog warns, the new address confirms, the old one is told", async () => {
  const m = members[0];
  const fresh = `renamed-${Date.now()}@example.com`;
  const { page, errors } = await adminPage('/admin?tab=users&q=' + encodeURIComponent(m.email));
  await page.getByRole('button', { name: `Edit ${m.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit user' });
  await dialog.waitFor();
  assert.equal(await dialog.getByTestId('email-change-warning').count(), 0, 'no warning before the address is edited');
  await page.fill('#eu-email', fresh);
  const warn = dialog.getByTestId('email-change-warning');
  assert.equal(await warn.innerText(), 'The member must confirm the new address; a notice goes to the old one.');
  await shot(page, 'admin-email-change-warning-1280');
  await dialog.getByRole('button', { name: /Save/ }).click();
  await page.locator('#toaster').getByText(`A confirmation link went to ${fresh}.`).waitFor();

  const mailTo = async (addr, re) => {
    for (let i = 0; i < 200; i++) {
      const x = server.smtp.messages.find((mm) => mm.to.includes(addr) && re.test(mm.data));
      if (x) return mailBody(x.data);
      await page.waitForTimeout(100);
    }
    throw new Error('no mail to ' + addr);
  };
  const link = /(https?:\/\/[^\s"<>]+\/verify-email\?token=[^\s"<>]+)/.exec(await mailTo(fresh, /Subject: Confirm your new/))[1];
  const notice = await mailTo(m.email, /Subject: Your Meritmark email address is being changed/);
  assert.ok(notice.includes(fresh) && !notice.includes('token='), 'the old address gets a notice without the link');
  // not yet changed
  let users = await (await browser.context.request.get(server.url + API + '/admin/users?search=' + encodeURIComponent(m.name))).json();
  assert.equal(users.users[0].email, m.email);
  assert.equal(users.users[0].pendingEmail, fresh);

  // the member follows the link (the confirmation page)
  const other = await browser.context.newPage();
  await other.goto(link);
  await hydrated(other, 'VerifyEmailCard');
  await other.getByTestId('verify-email-submit').click();
  await other.getByTestId('verify-email-done').waitFor();
  await other.close();
  users = await (await browser.context.request.get(server.url + API + '/admin/users?search=' + encodeURIComponent(m.name))).json();
  assert.equal(users.users[0].email, fresh);
  assert.equal(users.users[0].pendingEmail, undefined);
  assert.deepEqual(errors, []);
  await page.close();
});
