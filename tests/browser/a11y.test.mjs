// WCAG 2.2 AA in both themes: axe-core (4.14, through @axe-core/playwright) on every page
// of the route table, as a visitor, a member and an admin, light and dark, with the
// dialogs and menus open; then the keyboard: focus back on the opener when a dialog
// closes, Escape closes the mobile menu, arrow keys move through the header menus.
// Screenshots: a11y-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, wake, shot, focused, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const API = '/backend/api/v1';
const THEMES = process.env.A11Y_THEMES ? process.env.A11Y_THEMES.split(',') : ['light', 'dark'];

let server, browser;
const badges = {};
let memberId = '';
let publicId = '';

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
  await browser.context.clearCookies();
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

/** Each page in both themes; extra(page) may open a dialog and return a label. */
async function sweep(pages, role) {
  const found = [];
  for (const theme of THEMES) {
    const page = await browser.context.newPage();
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    for (const { path, wait, touch, open } of pages) {
      const res = await page.goto(server.url + path);
      assert.ok(res.status() < 500, `${path}: ${res.status()}`);
      // islands that hydrate on first touch (the catalogue's filters) are woken first
      if (wait) await (touch ? wake(page, wait) : hydrated(page, wait));
      await page.waitForTimeout(150);
      found.push(...(await axe(page, `${role} ${theme} ${path}`)));
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

const dialog = (testid, label) => async (page) => {
  await page.getByTestId(testid).click();
  await page.getByRole('dialog').waitFor();
  return label;
};

test('axe: every public page as a visitor, light and dark, with dialogs and the mobile menu open', async () => {
  await browser.context.clearCookies();
  const pages = [
    { path: '/', open: async (page) => { await page.setViewportSize({ width: 390, height: 844 }); await wake(page, 'Header'); await page.getByTestId('mobile-menu-toggle').click(); await page.locator('#mobile-nav').waitFor(); return 'mobile menu'; } },
    { path: '/about', open: async (page) => { await page.setViewportSize({ width: 1280, height: 800 }); return 'desktop'; } },
    { path: '/contact', wait: 'ContactForm' },
    { path: '/services' },
    { path: '/badges', wait: 'BadgeCatalogue', touch: true },
    { path: '/badges/' + badges['React Developer'] },
    { path: '/badges/' + badges['Go Backend Engineer'] + '?criteria=full' },
    { path: '/badges/000000000000000000000000' },
    { path: '/verify-badge', wait: 'VerifyBadge' },
    { path: '/verify/' + publicId, wait: 'VerifyBadge' },
    { path: '/verify/MM-0000-0000-0000', wait: 'VerifyBadge' },
    { path: '/hall-of-fame', wait: 'HallOfFameBoard' },
    { path: '/shippingpolicy' },
    { path: '/termsandconditions' },
    { path: '/cancellationsandrefunds' },
    { path: '/privacypolicy' },
    { path: '/profile/' + memberId },
    { path: '/login', wait: 'LoginForm', open: async (page) => { await page.getByRole('button', { name: 'Forgot Password?' }).click(); await page.getByRole('dialog').waitFor(); return 'forgot password'; } },
    { path: '/signup', wait: 'SignupForm' },
    { path: '/reset-password' },
    { path: '/reset-password?email=a%40example.com&token=abc', wait: 'ResetPasswordForm' },
    { path: '/no-such-page' },
  ];
  const found = await sweep(pages, 'visitor');
  assert.deepEqual(found, [], found.join('\n'));
});

test('axe: member pages, light and dark, with the share, picture and PayPal dialogs open', async () => {
  await signIn(member.email, member.password);
  const pages = [
    { path: '/profile', wait: 'Profile', open: dialog('edit-picture', 'picture dialog') },
    { path: '/badges', wait: 'BadgeCatalogue', touch: true },
    { path: '/badges/' + badges['Team Leadership'], open: async (page) => { await wake(page, 'BadgeActions'); await page.getByTestId('share-open').click(); await page.getByRole('dialog').waitFor(); return 'share dialog'; } },
    { path: '/badges/' + badges['Open Source Contributor'] },
    { path: '/quiz/' + badges['React Developer'], wait: 'QuizRunner' },
    { path: '/proof-upload/' + badges['Product Design Portfolio'], wait: 'ApplicationForm' },
    { path: '/resume-upload/' + badges['React Developer'] },
    { path: '/payment/' + badges['Open Source Contributor'], wait: 'PaymentCheckout', open: dialog('paypal-sim-button', 'paypal simulator') },
    { path: '/payment-success/' + badges['Team Leadership'] },
    { path: '/payment-success/' + badges['Open Source Contributor'] },
    { path: '/payment-failed/' + badges['Open Source Contributor'] },
    { path: '/admin' },
    { path: '/', open: async (page) => { await wake(page, 'Header'); await page.getByTestId('user-menu').click(); await page.getByRole('menu').waitFor(); return 'user menu'; } },
  ];
  const found = await sweep(pages, 'member');
  assert.deepEqual(found, [], found.join('\n'));
});

test('axe: the admin dashboard, every tab, light and dark, with View Details and reject dialogs open', async () => {
  await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  const found = [];
  for (const theme of THEMES) {
    const page = await browser.context.newPage();
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    await page.goto(server.url + '/admin');
    await hydrated(page, 'AdminDashboard');
    await page.waitForTimeout(300);
    found.push(...(await axe(page, `admin ${theme} applications`)));
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
    for (const tab of ['User Management', 'Badge Management', 'Quiz Management', 'Coupons', 'Audit Log']) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      await page.waitForTimeout(800);
      found.push(...(await axe(page, `admin ${theme} ${tab}`)));
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
