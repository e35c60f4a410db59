// Small holder-side fixes (issue 38, item 4), in Chromium with axe in both themes and no
// console error or hydration warning on the pages touched:
// - /verify-email knows the signed-in member and hydrates without a mismatch (React #418);
// - /payment-failed/{id} for a badge never applied for says so;
// - times: server-rendered in UTC with the zone named, then in the reader's zone (a page
//   emulating Pacific/Auckland) on the profile, the badge page, the verify page and the
//   receipt;
// - a security mail when two-step sign-in is switched on and off (read from the SMTP sink);
// - the claim link's sign-up prefills the awarded address and says it must be confirmed
//   before claiming; the sign-up hint names the password rule;
// - a free badge's payment page is headed "No payment needed";
// - at 390 px the fee and the start button stay reachable (a sticky bar), and a shared
//   /verify/{id} shows the verdict first;
// - the header avatar's initials are the profile's.
// Screenshots: tests/browser/screenshots/small-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { request } from 'playwright-core';
import { startServer, launch, hydrated, wake, shot, confirmSignup, confirmationToken, mailBody, seededBadges, badgeIdOf, ADMIN_EMAIL, ADMIN_PASSWORD, axeBothThemes } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const WIDTHS = [[1280, 900], [390, 844], [320, 640]];

let server, browser, badges, admin;
// three words: the initials are the first and last ("AL"), not the first letter alone
const member = { name: 'Ada King Lovelace', email: `ada-${Date.now()}@example.com`, password: 'ada-password-1' };
const ids = {};

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
/** The 6-digit TOTP code of secret at the current 30-second step (RFC 6238, SHA-1). */
function totp(secret) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30000)));
  const mac = crypto.createHmac('sha1', base32(secret)).update(counter).digest();
  const off = mac[mac.length - 1] & 15;
  const n = ((mac[off] & 127) << 24) | (mac[off + 1] << 16) | (mac[off + 2] << 8) | mac[off + 3];
  return String(n % 1e6).padStart(6, '0');
}

async function call(path, data, method = 'post') {
  const r = await browser.context.request[method](server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}
async function signIn(who) {
  await browser.context.clearCookies();
  const r = await call('/auth/login', { email: who.email, password: who.password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}
async function adminCall(path, data, method = 'post', status = 200) {
  const r = await admin[method](API + path, data === undefined ? {} : { data });
  assert.equal(r.status(), status, `${method} ${path}: ${await r.text()}`);
  return r.json();
}
/** An application for a proof badge through the API, as the application page sends it. */
async function apply(badgeId) {
  const r = await browser.context.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId, type: 'proof', fullName: member.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/ada', portfolio: 'https://ada.example',
      description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  assert.equal(r.status(), 201, await r.text());
  return (await r.json()).application;
}

/** Console errors, page errors and React's recoverable hydration errors (the client logs
 * those as warnings 'hydration: <island>'). */
function watch(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' || (m.type() === 'warning' && /hydrat|#418|#425/i.test(m.text()))) errors.push(`${m.type()}: ${m.text()}`);
  });
  return errors;
}

/** axe in both themes (harness.mjs). */
/** axe in both themes (harness.mjs), and no sideways scroll (WCAG 1.4.10 at 320 px). */
async function axe(page, what) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${what} scrolls sideways by ${over}px`);
  await axeBothThemes(page, what);
}

async function newPage(w, h) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: w, height: h });
  return page;
}

before(async () => {
  server = await startServer();
  browser = await launch();
  badges = await seededBadges(server);
  admin = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { Origin: server.url } });
  await adminCall('/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });

  const r = await call('/auth/register', { name: member.name, email: member.email, password: member.password });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, browser.context.request, member.email, member.password);
  // one badge held (a proof badge with the free-grant coupon, approved by the admin)
  ids.held = badgeIdOf(badges, 'Team Leadership');
  const app = await apply(ids.held);
  const pay = await call('/payments', { badgeId: ids.held, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(pay.status, 201, JSON.stringify(pay.body));
  const approved = await adminCall(`/admin/applications/${app._id}/approve`, {}, 'put');
  ids.verify = approved.application.grant.publicVerificationId;
  assert.ok(ids.verify);
  // one application awaiting payment ($29.00)
  ids.due = badgeIdOf(badges, 'Open Source Contributor');
  await apply(ids.due);
  ids.never = badgeIdOf(badges, 'SQL Data Analyst');
});

after(async () => {
  await admin?.dispose();
  await browser?.close();
  await server?.stop();
});

test('the header avatar shows the same initials as the profile', async () => {
  await signIn(member);
  const page = await newPage(1280, 900);
  const errors = watch(page);
  await page.goto(server.url + '/profile');
  await hydrated(page, 'Profile');
  const header = (await page.getByTestId('header-initials').innerText()).trim();
  const profile = (await page.getByRole('img', { name: `${member.name}'s initials` }).innerText()).trim();
  assert.equal(profile, 'AL');
  assert.equal(header, profile);
  assert.deepEqual(errors, []);
  await page.close();
});

test('/verify-email knows the signed-in member and hydrates without a mismatch', async () => {
  await signIn(member);
  for (const [w, h] of WIDTHS) {
    for (const [path, state] of [['/verify-email', 'incomplete'], ['/verify-email?token=not-a-real-token', 'ready']]) {
      const page = await newPage(w, h);
      const errors = watch(page);
      await page.goto(server.url + path);
      await hydrated(page, 'VerifyEmailCard');
      if (state === 'incomplete') {
        // the link without a token: the way on is the member's profile, not 'Log in'
        await page.getByText('This confirmation link is incomplete.', { exact: false }).waitFor();
        await page.getByRole('link', { name: 'Go to my profile' }).waitFor();
        assert.equal(await page.getByRole('link', { name: 'Log in', exact: true }).count(), 0);
      } else {
        assert.match(await page.getByTestId('verify-email-member').innerText(), new RegExp(`signed in as ${member.name} \\(${member.email.replace(/[.]/g, '\\.')}\\)`));
        assert.deepEqual(errors, [], `${path} at ${w} before confirming`);
        await page.click('[data-testid="verify-email-submit"]');
        await page.getByText('Link not valid').waitFor();
        // the refused token's 400 is the answer shown, not a fault
        errors.splice(0, errors.length, ...errors.filter((e) => !/status of 400/.test(e)));
        await page.getByRole('link', { name: 'Go to my profile' }).waitFor();
      }
      await shot(page, `small-verify-email-${state}-${w}`);
      await axe(page, `/verify-email (${state}) at ${w}`);
      assert.deepEqual(errors, [], `${path} at ${w}`);
      await page.close();
    }
  }
});

test('/payment-failed for a badge never applied for says so', async () => {
  await signIn(member);
  for (const [w, h] of WIDTHS) {
    const page = await newPage(w, h);
    const errors = watch(page);
    await page.goto(server.url + '/payment-failed/' + ids.never);
    const card = page.getByTestId('failed-no-application');
    await card.waitFor();
    assert.equal(await page.locator('h1').innerText(), 'No application for this badge');
    assert.match(await card.innerText(), /You have not applied for SQL Data Analyst, so there is no payment to retry\./);
    assert.equal(await page.getByTestId('retry-payment').count(), 0, 'no Retry Payment without an application');
    assert.equal(await card.getByRole('link', { name: 'Go to the badge' }).getAttribute('href'), '/badges/' + ids.never);
    assert.equal(await page.title(), 'No application for this badge | Meritmark');
    await shot(page, `small-payment-failed-never-applied-${w}`);
    await axe(page, `/payment-failed never applied at ${w}`);
    // a badge with an application still gets the failure page and its retry
    await page.goto(server.url + '/payment-failed/' + ids.due);
    await hydrated(page, 'PaymentRetry');
    assert.equal(await page.getByTestId('failed-title').innerText(), 'Payment Failed');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('times: UTC with the zone named from the server, the reader\'s zone after hydration', async () => {
  await signIn(member);
  const zone = 'Pacific/Auckland';
  const localDay = (iso) => new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));
  const pages = [
    ['/profile', 'Profile', 'profile'],
    ['/badges/' + ids.held, null, 'badge'], // its actions island wakes on interaction
    ['/verify/' + ids.verify, 'VerifyBadge', 'verify'],
    ['/payment-success/' + ids.held, null, 'receipt'],
    ['/hall-of-fame', 'HallOfFameBoard', 'hof'],
  ];
  for (const [path, island, name] of pages) {
    // the server's HTML: every <time> in UTC, the zone named
    const html = await (await browser.context.request.get(server.url + path)).text();
    const times = [...html.matchAll(/<time [^>]*>([^<]*)<\/time>/g)].map((m) => m[1]);
    assert.ok(times.length > 0, `${path} shows a time`);
    for (const t of times) assert.match(t, / UTC$/, `${path}: server time ${t}`);

    for (const [w, h] of WIDTHS) {
      const page = await newPage(w, h);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: zone });
      const errors = watch(page);
      await page.goto(server.url + path);
      if (island) await hydrated(page, island);
      await page.waitForFunction(() => [...document.querySelectorAll('main time[data-local]')].every((t) => t.dataset.localised === 'true'), null, { timeout: 10000 });
      const shown = await page.locator('main time[data-local]').evaluateAll((els) => els.map((t) => ({ iso: t.dateTime, text: t.textContent, title: t.title, mode: t.dataset.local })));
      assert.ok(shown.length > 0);
      for (const t of shown) {
        assert.ok(t.text.startsWith(localDay(t.iso)), `${path}: ${t.text} is the day in ${zone} (${localDay(t.iso)})`);
        assert.doesNotMatch(t.text, /UTC/);
        assert.match(t.title, /GMT\+1[23]$/, `${path}: the title names the reader's zone`);
        if (t.mode === 'datetime') assert.match(t.text, /, \d\d:\d\d GMT\+1[23]$/);
      }
      if (name === 'badge') {
        // the lazy island wakes with the server's text back in place (no mismatch), then
        // shows the reader's zone again
        await wake(page, 'BadgeActions');
        await page.waitForFunction(() => document.querySelector('[data-testid="granted-at"] time')?.dataset.localised === 'true');
        const t = await page.locator('[data-testid="granted-at"] time').evaluate((el) => ({ iso: el.dateTime, text: el.textContent }));
        assert.equal(t.text, localDay(t.iso));
      }
      if (name !== 'profile' || w < 1280) await shot(page, `small-times-${name}-${w}`);
      if (w < 1280) await axe(page, `${path} with local times at ${w}`);
      assert.deepEqual(errors, [], `${path} at ${w}`);
      await page.close();
    }
  }

  // the admin's review queue too (its "Submitted" dates, in the table and in the cards)
  await signIn({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  for (const [w, h] of WIDTHS) {
    const page = await newPage(w, h);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId: zone });
    const errors = watch(page);
    await page.goto(server.url + '/admin');
    await hydrated(page, 'AdminDashboard');
    await page.waitForFunction(() => {
      const ts = [...document.querySelectorAll('main time[data-local]')];
      return ts.length > 0 && ts.every((t) => t.dataset.localised === 'true');
    }, null, { timeout: 15000 });
    const shown = await page.locator('main time[data-local]').evaluateAll((els) => els.map((t) => ({ iso: t.dateTime, text: t.textContent })));
    for (const t of shown) {
      assert.equal(t.text, localDay(t.iso), `admin queue at ${w}: ${t.text} is the day in ${zone}`);
    }
    assert.deepEqual(errors, [], `admin queue at ${w}`);
    await page.close();
  }
});

test('a security mail when two-step sign-in is switched on and off', async () => {
  await signIn(member);
  const mails = (subject) => server.smtp.messages.filter((m) => m.to.includes(member.email) && m.data.includes('Subject: ' + subject));
  const waitMail = async (subject) => {
    for (let i = 0; i < 200; i++) {
      const m = mails(subject);
      if (m.length) return m;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no mail: ' + subject);
  };
  const setup = await call('/auth/2fa/setup');
  assert.equal(setup.status, 200);
  // a wrong code switches nothing on and sends nothing
  assert.equal((await call('/auth/2fa/enable', { code: '000000' })).status, 400);
  const on = await call('/auth/2fa/enable', { code: totp(setup.body.secret) });
  assert.equal(on.status, 200, JSON.stringify(on.body));
  const onMail = await waitMail('Two-step sign-in is on for your Meritmark account');
  assert.equal(onMail.length, 1);
  const onText = mailBody(onMail[0].data);
  assert.match(onText, /Two-step sign-in was just switched on for your Meritmark account/);
  assert.ok(!onText.includes(setup.body.secret), 'the secret never goes by mail');
  for (const c of on.body.recoveryCodes) assert.ok(!onText.includes(c), 'recovery codes never go by mail');

  // switched off from the profile
  const page = await newPage(1280, 900);
  const errors = watch(page);
  await page.goto(server.url + '/profile');
  await hydrated(page, 'AccountSecurity');
  const off = await call('/auth/2fa/disable', { password: member.password });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  const offMail = await waitMail('Two-step sign-in was switched off for your Meritmark account');
  assert.equal(offMail.length, 1);
  assert.match(mailBody(offMail[0].data), /recovery codes no longer work/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the claim link\'s sign-up prefills the awarded address and says to confirm it first', async () => {
  const email = `claimer-${Date.now()}@example.com`;
  const badgeId = badgeIdOf(badges, 'Product Design Portfolio');
  await adminCall('/admin/awards', { badgeId, email, note: 'For the design system work.' }, 'post', 201);
  let token = '';
  for (let i = 0; !token && i < 200; i++) {
    const m = server.smtp.messages.filter((x) => x.to.includes(email)).map((x) => mailBody(x.data)).join('\n').match(/\/claim\/([A-Za-z0-9_-]{43})/);
    token = m ? m[1] : '';
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(token, 'the award mail carries the claim link');

  await browser.context.clearCookies();
  for (const [w, h] of WIDTHS) {
    const page = await newPage(w, h);
    const errors = watch(page);
    await page.goto(server.url + '/claim/' + token);
    assert.match(await page.getByTestId('claim-confirm-note').innerText(), /must be confirmed first/);
    await Promise.all([page.waitForURL('**/signup?next=**'), page.getByRole('link', { name: 'Create an account' }).click()]);
    await hydrated(page, 'SignupForm');
    assert.equal(await page.locator('#signup-email').inputValue(), email);
    const note = await page.getByTestId('signup-claim-note').innerText();
    assert.match(note, new RegExp(`The Product Design Portfolio badge was awarded to ${email.replace(/[.]/g, '\\.')}\\.`));
    assert.match(note, /the badge can be claimed once the address is confirmed/);
    assert.equal(await page.locator('#signup-password-hint').innerText(), '8 to 128 characters. Common or easy-to-guess passwords are refused. A few unrelated words work well.');
    await shot(page, `small-signup-claim-${w}`);
    await axe(page, `sign-up from a claim link at ${w}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // a plain sign-up prefills nothing, and so does a claim link that is not one
  for (const path of ['/signup', '/signup?next=' + encodeURIComponent('/claim/' + 'x'.repeat(43))]) {
    const page = await newPage(1280, 900);
    await page.goto(server.url + path);
    await hydrated(page, 'SignupForm');
    assert.equal(await page.locator('#signup-email').inputValue(), '');
    assert.equal(await page.getByTestId('signup-claim-note').count(), 0);
    assert.match(await page.locator('#signup-password-hint').innerText(), /Common or easy-to-guess passwords are refused/);
    await page.close();
  }

  // signing up from it: back on the claim page, which asks for the confirmation first
  const page = await newPage(390, 844);
  const errors = watch(page);
  await page.goto(server.url + '/signup?next=' + encodeURIComponent('/claim/' + token));
  await hydrated(page, 'SignupForm');
  await page.fill('#signup-name', 'Cleo Claimer');
  await page.fill('#signup-password', 'amber-fjord-lantern-5');
  await page.fill('#signup-confirm', 'amber-fjord-lantern-5');
  await Promise.all([page.waitForURL('**/claim/' + token), page.click('[data-testid="signup-submit"]')]);
  await hydrated(page, 'ClaimAward');
  assert.match(await page.getByTestId('claim-unconfirmed').innerText(), /Please confirm your e-mail address first/);
  await shot(page, 'small-claim-unconfirmed-390');
  await axe(page, 'claim page, address not confirmed, at 390');
  // confirmed: the note goes and the claim works
  const v = await page.request.post(server.url + API + '/auth/verify-email', { data: { token: await confirmationToken(server, email) }, headers: { Origin: server.url } });
  assert.equal(v.status(), 200);
  await page.reload();
  await hydrated(page, 'ClaimAward');
  assert.equal(await page.getByTestId('claim-unconfirmed').count(), 0);
  await Promise.all([page.waitForURL('**/verify/**'), page.click('[data-testid="claim-button"]')]);
  await page.getByTestId('verify-banner').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('a free badge\'s payment page is headed "No payment needed"', async () => {
  const { badge: free } = await adminCall('/badge-management/badges', {
    name: 'Community Helper', description: 'Helps newcomers in the community forum.', category: 'Management', type: 'proof', level: 'beginner', price: 0, icon: 'Award', color: 'green', criteria: 'Show your forum answers.', requiresResume: false,
  }, 'post', 201);
  if (!free.isActive) await adminCall(`/badge-management/badges/${free._id}/toggle`, undefined, 'patch');
  await signIn(member);
  for (const [step, w, h] of [['before', 1280, 900], ['before', 390, 844], ['applied', 1280, 900], ['applied', 390, 844]]) {
    if (step === 'applied' && w === 1280) {
      const app = await apply(free._id);
      assert.equal(app.status, 'pending', 'a free application goes straight to review');
    }
    const page = await newPage(w, h);
    const errors = watch(page);
    await page.goto(server.url + '/payment/' + free._id);
    assert.equal(await page.getByTestId('payment-title').innerText(), 'No payment needed');
    assert.equal(await page.title(), 'No payment needed: Community Helper | Meritmark');
    await page.getByTestId(step === 'before' ? 'state-no-application' : 'state-in-review').waitFor();
    await shot(page, `small-free-badge-payment-${step}-${w}`);
    await axe(page, `free badge payment page (${step}) at ${w}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // a badge with a fee keeps its heading
  const page = await newPage(1280, 900);
  await page.goto(server.url + '/payment/' + ids.due);
  assert.equal(await page.getByTestId('payment-title').innerText(), 'Complete your payment');
  await page.close();
});

test('at 390 px the fee and the start button stay at hand; at 1280 px no bar', async () => {
  await signIn(member);
  const page = await newPage(390, 844);
  const errors = watch(page);
  await page.goto(server.url + '/payment/' + ids.due);
  await hydrated(page, 'PaymentCheckout');
  const bar = page.getByTestId('pay-bar');
  await bar.waitFor();
  assert.equal(await page.getByTestId('pay-bar-total').innerText(), '$29.00');
  const inView = async (loc) => {
    const b = await loc.boundingBox();
    return !!b && b.y >= 0 && b.y + b.height <= 844;
  };
  assert.ok(await inView(page.getByTestId('pay-bar-start')), 'the start button is on screen at load');
  assert.equal(await page.getByTestId('pay-bar-start').innerText(), 'Pay $29.00');
  assert.ok(!(await inView(page.getByTestId('paypal-sim-button'))), 'the card\'s own button is below the fold');
  await page.screenshot({ path: 'tests/browser/screenshots/small-pay-bar-390.png' });
  await axe(page, 'payment page with the action bar at 390');
  // the bar's button starts the payment (the sandbox simulator here)
  await page.click('[data-testid="pay-bar-start"]');
  await page.getByTestId('paypal-sim-dialog').waitFor();
  await page.click('[data-testid="sim-cancel"]');
  await page.getByTestId('paypal-sim-dialog').waitFor({ state: 'detached' });
  // once the pay card is reached the bar goes
  await page.getByTestId('pay-card').scrollIntoViewIfNeeded();
  await bar.waitFor({ state: 'hidden' });
  assert.deepEqual(errors, []);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(200);
  assert.equal(await bar.isVisible(), false, 'no bar at 1280 px');
  await page.close();
});

test('a shared /verify/{id} shows the verdict first', async () => {
  await browser.context.clearCookies();
  for (const [w, h] of WIDTHS) {
    const page = await newPage(w, h);
    const errors = watch(page);
    await page.goto(server.url + '/verify/' + ids.verify);
    await hydrated(page, 'VerifyBadge');
    const banner = page.getByTestId('verify-banner');
    assert.match(await banner.innerText(), /Verified Badge/);
    const b = await banner.boundingBox();
    assert.ok(b && b.y + b.height <= h, `the verdict is on the first screen at ${w} (bottom ${b && b.y + b.height})`);
    const first = await page.evaluate(() => {
      const verdict = document.querySelector('[data-testid="verify-result"]');
      const form = document.querySelector('form[role="search"]');
      return !!(verdict.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(first, 'the verdict comes before the form');
    await page.screenshot({ path: `tests/browser/screenshots/small-verify-shared-${w}.png` });
    await axe(page, `/verify/{id} at ${w}`);
    // the empty page keeps the form first
    await page.goto(server.url + '/verify-badge');
    await hydrated(page, 'VerifyBadge');
    const formFirst = await page.evaluate(() => {
      const verdict = document.querySelector('[data-testid="verify-result"]');
      const form = document.querySelector('form[role="search"]');
      return !!(form.compareDocumentPosition(verdict) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(formFirst);
    assert.deepEqual(errors, []);
    await page.close();
  }
});
