// The holder's side (issue 38, items 1-3), in Chromium at 1280 and 390 px with axe:
// one member holds three proof badges through the real flow (apply, FREEGRANT, the admin
// approves); the admin sets expiries so one is expiring, one expired, and the expiring
// one is then renewed through the real flow. The profile, the public profile and the
// Hall of Fame show each badge's state and count the same badges in force; the badge page
// of the expired one shows its state (no "You own this badge", no Share) and Renew. A
// second member passes the React quiz: the badge page and the quiz offer Continue
// application, a retake asks first; once the application awaits payment the quiz page
// says so with Continue Payment, and an owner gets 'Badge Already Owned'.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, hydrated, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup, seededBadges, badgeIdOf, axeBothThemes } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const PNG = fs.readFileSync(new URL('../../static/images/og-card.png', import.meta.url));
const WIDTHS = [[1280, 900], [390, 844], [320, 640]];

// The seeded React Developer quiz (app/seed/content.go): question -> correct option.
const REACT = {
  'Which hook keeps a value between renders without causing a re-render when it changes?': 'useRef',
  'What does React use the key prop on list items for?': 'Matching items between renders',
  'When does an effect with an empty dependency array run?': 'Only after the first render (mount)',
  'Which API renders React on the server to an HTML string?': 'renderToString',
  'What is the main benefit of lifting state up?': 'Sharing one source of truth between components',
  'Which value is NOT a valid return from a component?': 'A plain object',
};

let server, browser, badges;
const holder = { name: 'Hana Holder', email: `hana-${Date.now()}@example.com`, password: 'hana-password-1' };
const quizzer = { name: 'Quinn Quiz', email: `quinn-${Date.now()}@example.com`, password: 'quinn-password-1' };
const ids = {};

async function call(path, data, method = 'post') {
  const r = await browser.context.request[method](server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}
async function as(who) {
  await browser.context.clearCookies();
  const r = await call('/auth/login', who.email ? { email: who.email, password: who.password } : { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}
async function applyProof(badgeName) {
  const badgeId = badgeIdOf(badges, badgeName);
  const sub = await browser.context.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId, type: 'proof', fullName: holder.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/hana', portfolio: 'https://hana.example',
      description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const r = await call('/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return (await sub.json()).application._id;
}
async function approve(appId) {
  const r = await call(`/admin/applications/${appId}/approve`, {}, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.application.grant;
}
async function setExpiry(grantId, at) {
  const r = await call(`/admin/grants/${grantId}/expiry`, { expiresAt: at.toISOString() }, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
}
async function register(who) {
  const r = await call('/auth/register', { name: who.name, email: who.email, password: who.password });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, browser.context.request, who.email, who.password);
}

before(async () => {
  server = await startServer();
  browser = await launch();
  badges = await seededBadges(server);
  await register(holder);
  const apps = { renewed: await applyProof('Open Source Contributor'), expired: await applyProof('Team Leadership'), expiring: await applyProof('Product Design Portfolio') };
  await as({});
  const grants = {};
  for (const [k, id] of Object.entries(apps)) grants[k] = await approve(id);
  const day = 86400e3;
  await setExpiry(grants.expiring._id, new Date(Date.now() + 12 * day));
  await setExpiry(grants.renewed._id, new Date(Date.now() + 5 * day));
  await setExpiry(grants.expired._id, new Date(Date.now() + 2500));
  await new Promise((r) => setTimeout(r, 3000)); // the Team Leadership grant expires
  // the renewal, through the real flow: the badge in its renewal window may be applied for
  await as(holder);
  const renewalApp = await applyProof('Open Source Contributor');
  await as({});
  const renewed = await approve(renewalApp);
  assert.notEqual(renewed.publicVerificationId, grants.renewed.publicVerificationId, 'a renewal is a new credential');
  ids.expiredBadge = badgeIdOf(badges, 'Team Leadership');
  ids.react = badgeIdOf(badges, 'React Developer');
  await register(quizzer);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function noSideScroll(page, what) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${what} scrolls sideways by ${over}px`);
}

/** axe in both themes (harness.mjs), and no sideways scroll (WCAG 1.4.10 at 320 px). */
async function axe(page, what) {
  await noSideScroll(page, what);
  await axeBothThemes(page, what);
}

test('the holder sees each badge state, Renew, and one count everywhere', async () => {
  await as(holder);
  for (const [w, h] of WIDTHS) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    const errors = watchErrors(page);

    await page.goto(server.url + '/profile');
    await hydrated(page, 'Profile');
    const states = await page.locator('[data-testid="earned-badges"] [data-testid="grant-standing"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')).sort());
    assert.deepEqual(states, ['expired', 'expiring', 'valid'], 'one entry per badge (the renewed one once), each with its state');
    assert.equal(await page.getByTestId('stat-badges').innerText(), '2', 'the badges in force');
    const list = await page.getByTestId('earned-badges').innerText();
    assert.match(list, /Expired on [A-Z][a-z]{2} \d+, \d{4}/);
    assert.match(list, /Expiring soon: valid until .* \((11|12) days left\)/);
    assert.match(list, /Renewed [A-Z][a-z]{2} \d+, \d{4}/);
    const renew = await page.getByTestId('profile-renew').evaluateAll((els) => els.map((e) => e.getAttribute('href')).sort());
    assert.deepEqual(renew, [`/proof-upload/${badgeIdOf(badges, 'Product Design Portfolio')}`, `/proof-upload/${ids.expiredBadge}`].sort());
    // each badge offers its signed credential as a VC-JWT download too (issues 36, 38)
    const jwtLinks = await page.locator('[data-testid="badge-downloads"] a[href$=".jwt?download=1"]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    assert.equal(jwtLinks.length, 3, 'a VC-JWT link per badge');
    const jwt = await page.request.get(server.url + jwtLinks[0]);
    assert.equal(jwt.status(), 200);
    assert.match(jwt.headers()['content-disposition'] || '', /attachment; filename="?meritmark-credential-.*\.jwt/);
    assert.match((await jwt.text()).trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a compact JWS');
    await noSideScroll(page, 'profile');
    await shot(page, `holder-profile-${w}`);
    await axe(page, `/profile at ${w}`);

    // the public profile: the same entries and count
    const me = await page.evaluate(() => document.querySelector('a[href^="/profile/"]')?.getAttribute('href'));
    await page.goto(server.url + me);
    assert.equal(await page.getByTestId('public-held').innerText(), '2');
    const pub = await page.locator('[data-testid="grant-standing"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')).sort());
    assert.deepEqual(pub, ['expired', 'expiring', 'valid']);
    await noSideScroll(page, 'public profile');
    await axe(page, `public profile at ${w}`);

    // the Hall of Fame: the same count
    const hof = await (await page.request.get(server.url + API + '/hall-of-fame?search=' + encodeURIComponent(holder.name))).json();
    const mine = hof.users.find((e) => e.name === holder.name);
    assert.ok(mine, 'the holder is in the Hall of Fame');
    assert.equal(mine.totalBadges, 2, 'the Hall of Fame counts the same badges');

    // the expired badge's page: its state, no Share, Renew with what it takes
    await page.goto(server.url + '/badges/' + ids.expiredBadge);
    await page.locator('[data-island="BadgeActions"]').waitFor(); // plain links: no hydration needed
    assert.equal(await page.getByTestId('ownership').count(), 0, 'no "You own this badge"');
    assert.equal(await page.getByTestId('share-open').count(), 0, 'no Share');
    assert.match(await page.getByTestId('ownership-lapsed').innerText(), /This badge has expired[\s\S]*Expired on/);
    assert.equal(await page.getByTestId('renew').getAttribute('href'), `/proof-upload/${ids.expiredBadge}`);
    assert.match(await page.getByTestId('renewal-needs').innerText(), /current proof of your work .* resume already on file/);
    await noSideScroll(page, 'expired badge page');
    await shot(page, `holder-expired-badge-${w}`);
    await axe(page, `expired badge page at ${w}`);

    // the renewal page says it is a renewal
    await page.getByTestId('renew').click();
    await page.waitForURL(`**/proof-upload/${ids.expiredBadge}`);
    assert.match(await page.getByTestId('application-renewal').innerText(), /This is a renewal of your badge \(Expired on/);
    assert.match(await page.locator('h1').first().innerText(), /^Renew Team Leadership/);
    await axe(page, `renewal application page at ${w}`);
    assert.deepEqual(errors, [], 'no console errors');
    await page.close();
  }
});

/** Takes the React quiz through the API to a pass (the browser's session). */
async function passReact() {
  const q = (await call(`/quiz/badge/${ids.react}/start`, {})).body;
  assert.ok(q && q.attempt, JSON.stringify(q));
  const answers = {};
  for (const x of q.questions) answers[x._id] = x.options.indexOf(REACT[x.text]);
  const r = await call(`/quiz/attempts/${q.attempt._id}/submit`, { answers });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.passed, true);
}

test('after a pass: Continue application, a retake asks first; payment due and owned say so', async () => {
  await as(quizzer);
  await passReact();
  for (const [w, h] of WIDTHS) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    const errors = watchErrors(page);
    await page.goto(server.url + '/badges/' + ids.react);
    await page.locator('[data-island="BadgeActions"]').waitFor(); // plain links: no hydration needed
    assert.equal(await page.getByTestId('continue-application').getAttribute('href'), `/resume-upload/${ids.react}`);
    assert.match(await page.getByTestId('start').innerText(), /Retake Quiz/);
    await axe(page, `badge page after a pass at ${w}`);

    await page.goto(server.url + '/quiz/' + ids.react);
    await hydrated(page, 'QuizRunner');
    await page.getByTestId('quiz-start').waitFor();
    assert.equal(await page.getByTestId('quiz-continue-application').getAttribute('href'), `/resume-upload/${ids.react}`);
    assert.match(await page.getByTestId('quiz-begin').innerText(), /Retake Quiz/);
    await page.getByTestId('quiz-begin').click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /uses one of your attempts \(1 of 3 used in 30 days\)/);
    await shot(page, `holder-retake-confirm-${w}`);
    await axe(page, `retake confirm at ${w}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await page.getByTestId('quiz-position').count(), 0, 'cancel starts nothing');
    await noSideScroll(page, 'quiz start');
    assert.deepEqual(errors, [], 'no console errors');
    await page.close();
  }

  // the application awaits payment: the quiz page says so, with Continue Payment
  const sub = await browser.context.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId: ids.react, type: 'skill', fullName: quizzer.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/quinn', description: 'Me.',
      resume: { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF }, profilePic: { name: 'me.png', mimeType: 'image/png', buffer: PNG } },
  });
  assert.equal(sub.status(), 201, await sub.text());
  for (const [w, h] of WIDTHS) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.goto(server.url + '/quiz/' + ids.react);
    await hydrated(page, 'QuizRunner');
    const blocked = page.getByTestId('quiz-blocked');
    assert.equal(await blocked.getAttribute('data-state'), 'payment');
    assert.equal(await page.getByTestId('quiz-blocked-next').getAttribute('href'), `/payment/${ids.react}`);
    assert.equal(await page.getByRole('button', { name: 'Try Again' }).count(), 0, 'never a useless Try Again');
    await shot(page, `holder-quiz-payment-${w}`);
    await axe(page, `quiz page, payment due, at ${w}`);
    await page.close();
  }

  // once granted: 'Badge Already Owned - You already own this badge!'
  const r = await call('/payments', { badgeId: ids.react, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const appId = (await sub.json()).application._id;
  await as({});
  ids.reactGrant = await approve(appId);
  await as(quizzer);
  for (const [w, h] of WIDTHS) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: w, height: h });
    await page.goto(server.url + '/quiz/' + ids.react);
    await hydrated(page, 'QuizRunner');
    const blocked = page.getByTestId('quiz-blocked');
    assert.equal(await blocked.getAttribute('data-state'), 'owned');
    assert.equal(await blocked.locator('h1').innerText(), 'Badge Already Owned');
    assert.equal(await page.getByTestId('quiz-blocked-message').innerText(), 'You already own this badge!');
    assert.equal(await page.getByRole('button', { name: 'Try Again' }).count(), 0);
    await noSideScroll(page, 'quiz owned');
    await axe(page, `quiz page, owned, at ${w}`);
    await page.close();
  }
});

test('the holder hides the exam score on the public page; the credential still carries it', async () => {
  const g = ids.reactGrant;
  assert.ok(g?.publicVerificationId, 'the React badge was granted by the test before');
  const verifyPage = async (page) => {
    await page.goto(server.url + '/verify/' + g.publicVerificationId);
    await page.getByTestId('verify-downloads').waitFor();
  };
  await as(quizzer);
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  const errors = watchErrors(page);
  await verifyPage(page);
  const shown = await page.getByTestId('verify-score').innerText();
  assert.match(shown, /^\d+(\.\d+)?%$/, 'the score shows by default');

  await page.goto(server.url + '/profile');
  await hydrated(page, 'Profile');
  const box = page.locator(`#hide-score-${g._id ?? g.id}`);
  assert.equal(await box.isChecked(), false);
  assert.match(await page.locator(`#hide-score-${g._id ?? g.id}-note`).innerText(), /The signed credential still carries the score/);
  await box.check();
  await page.getByText('Score hidden').first().waitFor();
  await shot(page, 'holder-hide-score-1280');
  await axe(page, 'profile with the score hidden');

  // the public page follows at once (the page cache is told), and says the credential has it
  await browser.context.clearCookies();
  await verifyPage(page);
  assert.equal(await page.getByTestId('verify-score').count(), 0, 'no score on the public page');
  assert.match(await page.locator('body').innerText(), /The holder chose not to show the score here; the signed credential carries it\./);
  const api = await (await fetch(server.url + API + '/verify/badge/' + g.publicVerificationId)).json();
  assert.equal(api.result.scoreHidden, true);
  assert.equal(api.result.score, undefined, 'the API hides it too');
  const links = api.credential;
  const cred = await (await fetch(links.json)).json();
  const subject = cred.credentialSubject;
  assert.ok(Array.isArray(subject.result) && subject.result.some((r) => Math.abs(parseFloat(r.value) - parseFloat(shown)) < 0.1), 'the signed credential still carries ' + shown + ': ' + JSON.stringify(subject.result));

  // shown again
  await as(quizzer);
  await page.goto(server.url + '/profile');
  await hydrated(page, 'Profile');
  await page.locator(`#hide-score-${g._id ?? g.id}`).uncheck();
  await page.getByText('Score shown').first().waitFor();
  await browser.context.clearCookies();
  await verifyPage(page);
  assert.equal(await page.getByTestId('verify-score').innerText(), shown);
  assert.deepEqual(errors, [], 'no console errors');
  await page.close();
});

test('the payment pages of a renewal say it is one, of which badge', async () => {
  await as(holder);
  // the expiring Product Design Portfolio, applied for again: the renewal waits for payment
  const badgeId = badgeIdOf(badges, 'Product Design Portfolio');
  const sub = await browser.context.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId, type: 'proof', fullName: holder.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/hana', portfolio: 'https://hana.example',
      description: 'Current evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const note = /^This is a renewal of your Product Design Portfolio badge \(Expiring soon: valid until [A-Z][a-z]{2} \d+, \d{4} \((11|12) days left\)\)\.$/;
  const walk = async (path, what, check) => {
    for (const [w, h] of WIDTHS) {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: w, height: h });
      const errors = watchErrors(page);
      await page.goto(server.url + path);
      await check(page);
      assert.match((await page.getByTestId('renewal-note').innerText()).trim(), note, `${what} at ${w}`);
      await shot(page, `holder-renewal-${what}-${w}`);
      await axe(page, `${what} of a renewal at ${w}`);
      assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), [], `${what} at ${w}`);
      await page.close();
    }
  };
  await walk(`/payment/${badgeId}`, 'payment', async (page) => {
    await page.getByTestId('payment-title').waitFor();
    assert.equal(await page.getByTestId('verification-banner').count(), 1, await page.locator('main').innerText());
    await hydrated(page, 'PaymentCheckout');
    assert.equal(await page.getByTestId('payment-title').innerText(), 'Renewal: complete your payment');
  });
  await walk(`/payment-failed/${badgeId}`, 'payment-failed', async (page) => {
    await hydrated(page, 'PaymentRetry');
    assert.equal(await page.getByTestId('failed-title').innerText(), 'Payment Failed');
  });
  const r = await call('/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await walk(`/payment-success/${badgeId}`, 'payment-success', async (page) => {
    assert.equal(await page.getByTestId('result-title').innerText(), 'Payment Successful!');
  });
  // a first application's payment pages say nothing of a renewal
  const page = await browser.context.newPage();
  await page.goto(server.url + `/payment/${badgeIdOf(badges, 'SQL Data Analyst')}`);
  await page.getByTestId('payment-title').waitFor();
  assert.equal(await page.getByTestId('renewal-note').count(), 0);
  await page.close();
});
