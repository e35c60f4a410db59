// WCAG 2.2 AA in both themes: axe-core (4.14, through @axe-core/playwright) on every page
// of the route table, as a visitor, a member and an admin, light and dark, with the
// dialogs and menus open; then the keyboard: focus back on the opener when a dialog
// closes, Escape closes the mobile menu, arrow keys move through the header menus.
// The pages swept come from the server's own route table (`meritmark routes --pages`):
// every GET page route must have sample URLs in SAMPLES (visited as the route's role:
// visitor for public, member for member, admin for admin) or a reason in SKIPPED, or the
// first test fails. Screenshots: a11y-*.png (dialogs, dark) and page-<role>-<page>-{390,1440}.png
// (every page swept, light theme, at both widths).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, wake, shot, focused, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup, mailBody } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const API = '/backend/api/v1';
const THEMES = process.env.A11Y_THEMES ? process.env.A11Y_THEMES.split(',') : ['light', 'dark'];

let server, browser;
const badges = {};
let memberId = '';
let publicId = '';
let claimToken = '';
let angoffPath = ''; // a standard-setting rater's open link, made in before()
let consentPath = ''; // /oauth/authorize for a wallet registered in before()
let pageRoutes = []; // [{ method, path, access, kind }] from the route table

/** The GET page routes of the route table, as the binary the tests run builds it. */
function routeTablePages() {
  const bin = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'bin', 'meritmark');
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return JSON.parse(execFileSync(bin, ['routes', '--pages'], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
}

async function post(path, data, method = 'post') {
  const r = await browser.context.request[method](server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

async function signIn(email, password) {
  await browser.context.clearCookies();
  const r = await post('/auth/login', { email, password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

const member = { email: `a11y-${Date.now()}@example.com`, password: 'a11y-password-1' };

before(async () => {
  server = await startServer();
  browser = await launch();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  for (const b of list.badges) badges[b.name] = b._id;
  // a member with a granted badge (share dialog, verify page, Hall of Fame, profile) and an
  // application awaiting payment (payment page)
  let r = await post('/auth/register', { name: 'Alex Access', email: member.email, password: member.password });
  assert.equal(r.status, 201);
  await confirmSignup(server, browser.context.request, member.email, member.password);
  memberId = (await (await browser.context.request.get(server.url + API + '/auth/me')).json()).user._id;
  await post('/users/profile', { name: 'Alex Access', position: 'Principal Accessibility Engineer and Inclusive Design Systems Lead', linkedin: 'https://linkedin.com/in/alex', portfolio: 'https://alex.example' });
  const apply = async (name) => {
    const res = await browser.context.request.post(server.url + API + '/applications', {
      headers: { Origin: server.url },
      multipart: { badgeId: badges[name], type: 'proof', fullName: 'Alex Access', position: 'Engineer', linkedin: 'https://linkedin.com/in/alex', portfolio: 'https://alex.example', description: 'Evidence.' },
    });
    assert.equal(res.status(), 201, await res.text());
    return (await res.json()).application;
  };
  const granted = await apply('Team Leadership');
  r = await post('/payments', { badgeId: badges['Team Leadership'], amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201);
  await apply('Open Source Contributor');
  await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  r = await post(`/admin/applications/${granted._id}/approve`, {}, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  publicId = r.body.application.grant.publicVerificationId;
  // an award by e-mail to the member: its claim link (the visitor sees "sign in to claim",
  // the member "claim")
  r = await post('/admin/awards', { badgeId: badges['React Developer'], email: member.email, note: 'For the accessibility audit.' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  for (let i = 0; !claimToken && i < 100; i++) {
    const links = server.smtp.messages.map((m) => mailBody(m.data)).join('\n').match(/\/claim\/([A-Za-z0-9_-]{43})/);
    if (links) claimToken = links[1];
    else await new Promise((res) => setTimeout(res, 100));
  }
  assert.ok(claimToken, 'a claim link mailed');
  // a standard-setting panel for the SQL quiz: one rater's open link
  const quizzes = await (await browser.context.request.get(server.url + API + '/admin/quizzes')).json();
  const sqlQuiz = quizzes.find((q) => q.badge._id === badges['SQL Data Analyst']);
  r = await post(`/admin/quizzes/${sqlQuiz._id}/angoff`, { raters: [{ name: 'Rita Rater' }] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  angoffPath = new URL(r.body.links[0].url).pathname;
  // a wallet registered (RFC 7591) so the consent page has a real client to name; its
  // callback is never reached (the sweep only looks at the consent page)
  const wallet = await fetch(server.url + '/oauth/register', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Pocket Wallet', client_uri: 'https://pocket-wallet.example', redirect_uris: ['http://127.0.0.1:9/callback'],
      scope: 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly https://purl.imsglobal.org/spec/ob/v3p0/scope/profile.readonly',
      token_endpoint_auth_method: 'client_secret_basic', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  });
  assert.equal(wallet.status, 201);
  consentPath = '/oauth/authorize?' + new URLSearchParams({ response_type: 'code', client_id: (await wallet.json()).client_id,
    redirect_uri: 'http://127.0.0.1:9/callback', scope: 'https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly', state: 'a11y-sweep',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
  await browser.context.clearCookies();
  pageRoutes = routeTablePages();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Runs axe on the page as it is; returns readable violations. */
async function axe(page, label) {
  const res = await new AxeBuilder({ page, axeSource }).withTags(TAGS).analyze();
  if (process.env.A11Y_LOG) for (const v of res.violations) console.log('VIOLATION', label, v.impact, v.id, v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\n').slice(1, 2).join('')).join(' | '));
  return res.violations.map((v) => `${label}: [${v.impact}] ${v.id}: ${v.help} — ${v.nodes.slice(0, 4).map((n) => n.target.join(' ') + (n.failureSummary ? ' (' + n.failureSummary.split('\n').slice(1, 2).join('') + ')' : '')).join(' | ')}`);
}

/** A file-name slug of a sample URL (ids shortened). */
const slug = (p) => (p === '/' ? 'home' : p.replace(/[0-9a-f]{24}|[A-Za-z0-9_-]{43}/g, (m) => m.slice(-6)).replace(/\W+/g, '-').replace(/^-|-$/g, ''));

/** Full-page screenshots of every swept page cost two thirds of the sweep's time: they are
 * taken by `make screenshots` (PAGE_SHOTS=1), not by every `make test`. */
const PAGE_SHOTS = process.env.PAGE_SHOTS === '1';

/** Each page at 1440 and 390 px (light theme), back to 1440 afterwards, with full-page
 * screenshots when PAGE_SHOTS is set; returns a problem when the page scrolls sideways at
 * either width. */
async function shootBothWidths(page, role, path) {
  const problems = [];
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    if (width === 390) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(100);
    }
    // from the top: a full-page shot of a scrolled page draws the sticky header mid-page
    await page.evaluate(() => window.scrollTo(0, 0));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflow > 0) problems.push(`${role} ${path} at ${width} px scrolls sideways by ${overflow} px`);
    if (PAGE_SHOTS) await shot(page, `page-${role}-${slug(path)}-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  return problems;
}

/** Each page in both themes; extra(page) may open a dialog and return a label. */
async function sweep(pages, role) {
  const found = [];
  for (const theme of THEMES) {
    const page = await browser.context.newPage();
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    for (const { path, wait, touch, open } of pages) {
      await page.setViewportSize({ width: 1440, height: 900 });
      const res = await page.goto(server.url + path);
      assert.ok(res.status() < 500, `${path}: ${res.status()}`);
      // islands that hydrate on first touch (the catalogue's filters) are woken first
      if (wait) await (touch ? wake(page, wait) : hydrated(page, wait));
      await page.waitForTimeout(150);
      found.push(...(await axe(page, `${role} ${theme} ${path}`)));
      if (theme === 'light') found.push(...(await shootBothWidths(page, role, path)));
      if (process.env.A11Y_LOG) console.log('SWEPT', role, theme, path, Math.round(performance.now()));
      if (open) {
        const what = await open(page);
        await page.waitForTimeout(250);
        found.push(...(await axe(page, `${role} ${theme} ${path} [${what}]`)));
        if (theme === 'dark') await shot(page, `a11y-${role}-${what.replace(/\W+/g, '-')}-dark`);
      }
    }
    await page.close();
  }
  return found;
}

const ROLE = { public: 'visitor', member: 'member', admin: 'admin' };

const dialog = (testid, label) => async (page) => {
  await page.getByTestId(testid).click();
  await page.getByRole('dialog').waitFor();
  return label;
};

/** The sample URLs of every page route of the table, visited as the route's own role. A
 * new page route fails the first test until it gets samples here (or a reason in SKIPPED).
 * Parametrised routes take the fixtures made in before(). */
const SAMPLES = () => ({
  '/': [{ path: '/', open: async (page) => { await page.setViewportSize({ width: 390, height: 844 }); await wake(page, 'Header'); await page.getByTestId('mobile-menu-toggle').click(); await page.locator('#mobile-nav').waitFor(); return 'mobile menu'; } }],
  '/about': [{ path: '/about' }],
  '/services': [{ path: '/services' }],
  '/contact': [{ path: '/contact', wait: 'ContactForm' }],
  '/shippingpolicy': [{ path: '/shippingpolicy' }],
  '/termsandconditions': [{ path: '/termsandconditions' }],
  '/cancellationsandrefunds': [{ path: '/cancellationsandrefunds' }],
  '/privacypolicy': [{ path: '/privacypolicy' }],
  '/verify-email': [{ path: '/verify-email?token=not-a-real-token', wait: 'VerifyEmailCard' }],
  '/login': [{ path: '/login', wait: 'LoginForm', open: async (page) => { await page.getByRole('button', { name: 'Forgot Password?' }).click(); await page.getByRole('dialog').waitFor(); return 'forgot password'; } }],
  '/signup': [{ path: '/signup', wait: 'SignupForm' }],
  '/reset-password': [{ path: '/reset-password' }, { path: '/reset-password?email=a%40example.com&token=abc', wait: 'ResetPasswordForm' }],
  '/profile/:id': [{ path: '/profile/' + memberId }],
  '/badges': [{ path: '/badges', wait: 'BadgeCatalogue', touch: true }],
  '/badges/:id': [
    { path: '/badges/' + badges['React Developer'] },
    { path: '/badges/' + badges['Go Backend Engineer'] + '?criteria=full' },
    { path: '/badges/000000000000000000000000' },
  ],
  '/badges/:id/assessment': [
    { path: '/badges/' + badges['SQL Data Analyst'] + '/assessment' },
    { path: '/badges/' + badges['React Developer'] + '/assessment' },
    { path: '/badges/' + badges['Open Source Contributor'] + '/assessment' },
  ],
  '/verify-badge': [{ path: '/verify-badge', wait: 'VerifyBadge' }],
  '/verify/:verificationId': [{ path: '/verify/' + publicId, wait: 'VerifyBadge' }, { path: '/verify/MM-0000-0000-0000', wait: 'VerifyBadge' }],
  '/claim/:token': [{ path: '/claim/' + claimToken }, { path: '/claim/not-a-real-token' }],
  '/angoff/:token': [{ path: angoffPath, wait: 'AngoffRater' }, { path: '/angoff/not-a-real-token' }],
  '/hall-of-fame': [{ path: '/hall-of-fame', wait: 'HallOfFameBoard' }],
  // member pages
  '/account/password': [{ path: '/account/password', wait: 'ChangePasswordForm' }],
  '/account/two-factor': [{ path: '/account/two-factor', wait: 'TwoFactorSetup' }],
  '/profile': [
    { path: '/profile', wait: 'Profile', open: dialog('edit-picture', 'picture dialog') },
    { path: '/profile', wait: 'AccountData', open: async (page) => { await page.getByTestId('delete-account').click(); await page.getByRole('alertdialog').waitFor(); return 'delete account dialog'; } },
  ],
  '/quiz/:badgeId?': [{ path: '/quiz/' + badges['React Developer'], wait: 'QuizRunner' }],
  '/proof-upload/:badgeId': [{ path: '/proof-upload/' + badges['Product Design Portfolio'], wait: 'ApplicationForm' }],
  '/resume-upload/:badgeId': [{ path: '/resume-upload/' + badges['React Developer'] }],
  '/payment/:badgeId': [{ path: '/payment/' + badges['Open Source Contributor'], wait: 'PaymentCheckout', open: dialog('paypal-sim-button', 'paypal simulator') }],
  '/payment-success/:badgeId': [{ path: '/payment-success/' + badges['Team Leadership'] }, { path: '/payment-success/' + badges['Open Source Contributor'] }],
  '/payment-failed/:badgeId': [{ path: '/payment-failed/' + badges['Open Source Contributor'] }],
  // admin pages: the dashboard has its own test below (every tab, its dialogs)
  '/admin': [{ custom: 'the admin dashboard test' }],
  // the OAuth consent page, for the wallet registered in before()
  '/oauth/authorize': [{ path: consentPath }],
});

/** Page routes deliberately not swept, each with its reason (checked by the first test). */
const SKIPPED = {
  '/badge/:id': { reason: 'the old address: a permanent redirect to /badges/:id, which is swept', redirect: () => '/badge/' + badges['React Developer'] },
};

/** Pages seen by a role other than their route's own (not duplicates: other content). */
const EXTRA = () => ({
  visitor: [{ path: '/no-such-page' }],
  member: [
    { path: '/badges', wait: 'BadgeCatalogue', touch: true },
    { path: '/badges/' + badges['Team Leadership'], open: async (page) => { await wake(page, 'BadgeActions'); await page.getByTestId('share-open').click(); await page.getByRole('dialog').waitFor(); return 'share dialog'; } },
    { path: '/badges/' + badges['Open Source Contributor'] },
    { path: '/claim/' + claimToken, wait: 'ClaimAward' },
    { path: '/admin' },
    { path: '/', open: async (page) => { await wake(page, 'Header'); await page.getByTestId('user-menu').click(); await page.getByRole('menu').waitFor(); return 'user menu'; } },
  ],
});

/** The sample pages of the route table's routes of one access level, then the extras. */
function pagesFor(access) {
  const samples = SAMPLES();
  const list = [];
  for (const r of pageRoutes.filter((x) => x.access === access && !SKIPPED[x.path])) {
    assert.ok(samples[r.path], `page route ${r.path} (${access}) has no samples in SAMPLES and is not in SKIPPED`);
    list.push(...samples[r.path].filter((p) => !p.custom));
  }
  return [...list, ...(EXTRA()[ROLE[access]] || [])];
}

test('route table: every page route is swept as its role or skipped with a reason', async () => {
  assert.ok(pageRoutes.length >= 25, `the route table lists ${pageRoutes.length} page routes`);
  const samples = SAMPLES();
  const missing = pageRoutes.filter((r) => !samples[r.path] && !SKIPPED[r.path]).map((r) => `${r.access} ${r.path}`);
  assert.deepEqual(missing, [], 'page routes neither in SAMPLES nor in SKIPPED (tests/browser/a11y.test.mjs):\n' + missing.join('\n'));
  const known = new Set(pageRoutes.map((r) => r.path));
  const stale = [...Object.keys(samples), ...Object.keys(SKIPPED)].filter((p) => !known.has(p));
  assert.deepEqual(stale, [], 'SAMPLES/SKIPPED name routes the table no longer has');
  // each sample URL really matches its route pattern (so the right page is swept)
  for (const [pattern, list] of Object.entries(samples)) {
    const re = new RegExp('^' + pattern.replace(/\/:\w+\?/g, '(?:/[^/]+)?').replace(/:\w+/g, '[^/]+') + '$');
    for (const p of list.filter((x) => !x.custom)) assert.match(p.path.split('?')[0], re, `${p.path} is not a ${pattern}`);
  }
  for (const [p, s] of Object.entries(SKIPPED)) {
    assert.ok(s.reason.length > 10, `${p}: a reason`);
    if (s.redirect) {
      const res = await fetch(server.url + s.redirect(), { redirect: 'manual' });
      assert.ok([301, 308].includes(res.status), `${p} answers ${res.status}, not a permanent redirect`);
    }
  }
});

test('axe: every public page as a visitor, light and dark, with dialogs and the mobile menu open', async () => {
  await browser.context.clearCookies();
  const found = await sweep(pagesFor('public'), 'visitor');
  assert.deepEqual(found, [], found.join('\n'));
});

test('axe: member pages, light and dark, with the share, picture and PayPal dialogs open', async () => {
  await signIn(member.email, member.password);
  const found = await sweep(pagesFor('member'), 'member');
  assert.deepEqual(found, [], found.join('\n'));
});

test('axe: the admin dashboard, every tab, light and dark, with View Details and reject dialogs open', async () => {
  await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  // admin page routes other than the dashboard (none yet) through the ordinary sweep
  const others = pagesFor('admin');
  const found = others.length ? await sweep(others, 'admin') : [];
  for (const theme of THEMES) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    await page.goto(server.url + '/admin');
    await hydrated(page, 'AdminDashboard');
    await page.waitForTimeout(300);
    await page.getByTestId('applications-table').waitFor();
    found.push(...(await axe(page, `admin ${theme} applications`)));
    if (theme === 'light') found.push(...(await shootBothWidths(page, 'admin', '/admin-applications')));
    // the rest follows the cards (the table's dialogs are the same ones)
    await page.getByTestId('view-cards').click();
    await page.getByTestId('application-card').first().waitFor();
    found.push(...(await axe(page, `admin ${theme} applications as cards`)));
    await page.getByTestId('tab-approved').click();
    await page.getByTestId('application-card').first().waitFor();
    found.push(...(await axe(page, `admin ${theme} approved`)));
    await page.getByTestId('tab-review').click();
    await page.getByTestId('application-card').first().waitFor();
    await page.getByTestId('application-card').first().getByRole('button', { name: 'View Details' }).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(300);
    found.push(...(await axe(page, `admin ${theme} [view details]`)));
    if (theme === 'dark') await shot(page, 'a11y-admin-view-details-dark');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByTestId('application-card').first().getByRole('button', { name: 'Reject', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    found.push(...(await axe(page, `admin ${theme} [reject dialog]`)));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByTestId('view-table').click(); // the next theme starts from the table again
    for (const tab of ['User Management', 'Grants', 'Badge Management', 'Quiz Management', 'Coupons', 'Audit Log']) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      await page.waitForTimeout(800);
      found.push(...(await axe(page, `admin ${theme} ${tab}`)));
      if (theme === 'light') found.push(...(await shootBothWidths(page, 'admin', '/admin-' + tab)));
      if (theme === 'dark') await shot(page, `a11y-admin-${tab.replace(/\W+/g, '-')}-dark`);
    }
    await page.close();
  }
  assert.deepEqual(found, [], found.join('\n'));
});

test('keyboard: dialogs give the focus back to their opener; Escape closes the mobile menu; arrow keys move through header menus', async () => {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  // Forgot Password: opened from the keyboard, closed with Escape and with Cancel
  await page.goto(server.url + '/login');
  await hydrated(page, 'LoginForm');
  const forgot = page.getByRole('button', { name: 'Forgot Password?' });
  await forgot.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').waitFor();
  assert.equal(await focused(page, 'id', 'forgot-email'), 'forgot-email', 'focus moves into the dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.equal(await focused(page, 'text', 'Forgot Password?'), 'Forgot Password?', 'Escape: focus back on the opener');

  // the mobile menu: Escape closes it and the focus returns to its button
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/');
  await wake(page, 'Header');
  await page.getByTestId('mobile-menu-toggle').click();
  await page.locator('#mobile-nav').waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await page.locator('#mobile-nav').waitFor({ state: 'detached' });
  assert.equal(await focused(page, 'data-testid', 'mobile-menu-toggle'), 'mobile-menu-toggle');
  assert.equal(await page.getByTestId('mobile-menu-toggle').getAttribute('aria-expanded'), 'false');

  // the theme menu: Enter opens it, arrow keys move, Enter chooses, focus returns
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url + '/');
  await wake(page, 'Header');
  await page.getByTestId('theme-toggle').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menu').waitFor();

  assert.equal(await focused(page, 'text', 'Light'), 'Light');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page, 'text', 'Dark'), 'Dark');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page, 'text', 'System'), 'System');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(page, 'text', 'Dark'), 'Dark');
  await page.keyboard.press('Enter');
  await page.getByRole('menu').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.documentElement.classList.contains('dark'), null, { timeout: 3000 }).catch(() => {});
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true, 'Dark chosen from the keyboard');
  assert.equal(await focused(page, 'data-testid', 'theme-toggle'), 'theme-toggle');

  // the user menu: ArrowDown opens it on the first item; Escape closes it
  await signIn(member.email, member.password);
  await page.goto(server.url + '/');
  await wake(page, 'Header');
  await page.getByTestId('user-menu').focus();
  await page.keyboard.press('ArrowDown');
  await page.getByRole('menu').waitFor();
  assert.equal(await focused(page, 'text', 'Profile'), 'Profile');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(page, 'text', 'Logout'), 'Logout');
  await page.keyboard.press('Escape');
  await page.getByRole('menu').waitFor({ state: 'detached' });
  assert.equal(await focused(page, 'data-testid', 'user-menu'), 'user-menu');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.close();
});
