// WCAG 2.2 AA gaps (issue 38, item 6), in Chromium: reflow at 320 px (1.4.10) on every
// page of the route table as a visitor, a member and an admin (every dashboard tab);
// the quiz moves the focus to each question's heading and announces "Question n of N",
// then to the result (2.4.3, 4.1.3); the home page's logo marquee has a Pause button and
// stands still under prefers-reduced-motion (2.2.2); without JavaScript the phone
// header's links, Forgot Password, bulk Verify all and the contact form still work; the
// admin's red pills reach 4.5:1 (1.4.3). axe runs on each state at 1280, 390 and 320 px
// in both themes. Screenshots: wcag-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, wake, settled, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup, mailBody } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const API = '/backend/api/v1';
const WIDTHS = [1280, 390, 320];

let server, browser;
const badges = {};
let memberId = '';
let publicId = '';
let angoffPath = ''; // a standard-setting rater's open link, made in before()
const member = { name: 'Wren Wcag', email: `wcag-${Date.now()}@example.com`, password: 'wcag-password-1' };

function routeTablePages() {
  const bin = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'bin', 'meritmark');
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return JSON.parse(execFileSync(bin, ['routes', '--pages'], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
}

async function call(p, data, method = 'post') {
  const r = await browser.context.request[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}
async function signIn(email, password) {
  await browser.context.clearCookies();
  const r = await call('/auth/login', { email, password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** axe violations of the page, one line each. */
async function axe(page, label) {
  await settled(page);
  const r = await new AxeBuilder({ page, axeSource }).withTags(TAGS).analyze();
  return r.violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')} ${v.nodes[0]?.failureSummary?.split('\n').slice(0, 2).join(' ') || ''}`);
}

/** Horizontal overflow of the document: the widest elements sticking out, or null. */
async function overflow(page) {
  return page.evaluate(() => {
    const d = document.documentElement;
    if (d.scrollWidth <= d.clientWidth) return null;
    const wide = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.right > d.clientWidth + 1 && r.width > 0) {
        let inScroller = false;
        for (let p = el.parentElement; p; p = p.parentElement) {
          const ox = getComputedStyle(p).overflowX;
          if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') { inScroller = true; break; }
        }
        if (!inScroller) wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${String(el.className).slice(0, 60)} right=${Math.round(r.right)}`);
      }
    }
    return `scrollWidth ${d.scrollWidth} > ${d.clientWidth}: ${wide.slice(0, 4).join(' | ')}`;
  });
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  for (const b of list.badges) badges[b.name] = b._id;
  let r = await call('/auth/register', { name: member.name, email: member.email, password: member.password });
  assert.equal(r.status, 201);
  await confirmSignup(server, browser.context.request, member.email, member.password);
  memberId = (await (await browser.context.request.get(server.url + API + '/auth/me')).json()).user._id;
  await call('/users/profile', { name: member.name, position: 'Principal Accessibility Engineer and Inclusive Design Systems Lead', linkedin: 'https://linkedin.com/in/wren', portfolio: 'https://wren.example' });
  const apply = async (name) => {
    const res = await browser.context.request.post(server.url + API + '/applications', {
      headers: { Origin: server.url },
      multipart: { badgeId: badges[name], type: 'proof', fullName: member.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/wren', portfolio: 'https://wren.example', description: 'Evidence.' },
    });
    assert.equal(res.status(), 201, await res.text());
    return (await res.json()).application;
  };
  const granted = await apply('Team Leadership');
  r = await call('/payments', { badgeId: badges['Team Leadership'], amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201);
  await apply('Open Source Contributor');
  await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  r = await call(`/admin/applications/${granted._id}/approve`, {}, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  publicId = r.body.application.grant.publicVerificationId;
  const quizzes = await (await browser.context.request.get(server.url + API + '/admin/quizzes')).json();
  const sqlQuiz = quizzes.find((q) => q.badge._id === badges['SQL Data Analyst']);
  r = await call(`/admin/quizzes/${sqlQuiz._id}/angoff`, { raters: [{ name: 'Rita Rater' }] });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  angoffPath = new URL(r.body.links[0].url).pathname;
  await browser.context.clearCookies();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Sample URLs of each page route (parametrised ones take the fixtures of before()). */
const SAMPLES = () => ({
  '/': ['/'], '/about': ['/about'], '/services': ['/services'], '/contact': ['/contact'],
  '/shippingpolicy': ['/shippingpolicy'], '/termsandconditions': ['/termsandconditions'],
  '/cancellationsandrefunds': ['/cancellationsandrefunds'], '/privacypolicy': ['/privacypolicy'],
  '/verify-email': ['/verify-email?token=not-a-real-token'],
  '/account/password': ['/account/password'], '/account/two-factor': ['/account/two-factor'],
  '/login': ['/login'], '/signup': ['/signup'], '/reset-password': ['/reset-password', '/reset-password?email=a%40example.com&token=abc'],
  '/profile': ['/profile'], '/profile/:id': ['/profile/' + memberId],
  '/badges': ['/badges'], '/badges/:id': ['/badges/' + badges['React Developer'], '/badges/' + badges['Team Leadership']],
  '/badges/:id/assessment': ['/badges/' + badges['SQL Data Analyst'] + '/assessment'],
  '/badge/:id': ['/badge/' + badges['React Developer']],
  '/quiz/:badgeId?': ['/quiz/' + badges['React Developer']],
  '/proof-upload/:badgeId': ['/proof-upload/' + badges['Product Design Portfolio']],
  '/resume-upload/:badgeId': ['/resume-upload/' + badges['React Developer']],
  '/admin': ['/admin'],
  '/payment/:badgeId': ['/payment/' + badges['Open Source Contributor']],
  '/payment-success/:badgeId': ['/payment-success/' + badges['Team Leadership']],
  '/payment-failed/:badgeId': ['/payment-failed/' + badges['Open Source Contributor']],
  '/verify-badge': ['/verify-badge'], '/verify/:verificationId': ['/verify/' + publicId],
  '/claim/:token': ['/claim/not-a-real-token'], '/hall-of-fame': ['/hall-of-fame'],
  '/oauth/authorize': ['/oauth/authorize?response_type=code&client_id=none'],
  '/angoff/:token': [angoffPath, '/angoff/not-a-real-token'],
});

/** Visits each path at 320x640 and reports what overflows. */
async function reflow(paths, role) {
  const found = [];
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 320, height: 640 });
  for (const p of paths) {
    await page.goto(server.url + p);
    await page.waitForLoadState('networkidle', { timeout: 8000 }).catch(() => {});
    await settled(page);
    const o = await overflow(page);
    if (o) found.push(`${role} ${p}: ${o}`);
    if (process.env.WCAG_SHOTS) await shot(page, `wcag-320-${role}-${p.replace(/\W+/g, '-').slice(0, 40)}`);
  }
  await page.close();
  return found;
}

test('reflow: no horizontal scroll at 320 px on every page, as a visitor, a member and an admin (every dashboard tab)', async () => {
  const routes = routeTablePages();
  assert.ok(routes.length >= 25);
  const samples = SAMPLES();
  const missing = routes.filter((r) => !samples[r.path]).map((r) => r.path);
  assert.deepEqual(missing, [], 'page routes without a sample here');
  const all = routes.flatMap((r) => samples[r.path]);
  const found = [];
  await browser.context.clearCookies();
  found.push(...(await reflow(all, 'visitor')));
  await signIn(member.email, member.password);
  found.push(...(await reflow(all, 'member')));
  await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  found.push(...(await reflow(all.filter((p) => !p.startsWith('/admin')), 'admin')));
  // the dashboard, tab by tab
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  // the dashboard's tabs, and the tabs inside each (applications by status, the quiz's parts)
  const top = page.getByRole('tablist').first().getByRole('tab');
  const tabs = (await top.allTextContents()).map((t) => t.trim());
  assert.ok(tabs.length >= 6, `${tabs.length} dashboard tabs`);
  const check = async (label) => {
    await page.waitForLoadState('networkidle', { timeout: 8000 }).catch(() => {});
    await page.waitForTimeout(500);
    await settled(page);
    const o = await overflow(page);
    if (o) found.push(`admin /admin [${label}]: ${o}`);
  };
  for (let i = 0; i < tabs.length; i++) {
    await top.nth(i).click();
    await check(tabs[i]);
    await shot(page, `wcag-320-admin-tab-${i}`);
    const inner = page.getByRole('tabpanel').first().getByRole('tab');
    const names = (await inner.allTextContents()).map((t) => t.trim());
    for (let j = 0; j < names.length; j++) {
      await inner.nth(j).click();
      await check(`${tabs[i]} / ${names[j]}`);
    }
  }
  await page.close();
  assert.deepEqual(found, [], found.join('\n'));
});

/** axe in the light theme, then in the dark one (the class the theme script sets), back to light. */
async function axeBoth(page, label) {
  const found = [...(await axe(page, `${label} light`))];
  await page.evaluate(() => { document.documentElement.classList.add('dark'); document.documentElement.style.colorScheme = 'dark'; });
  found.push(...(await axe(page, `${label} dark`)));
  await page.evaluate(() => { document.documentElement.classList.remove('dark'); document.documentElement.style.colorScheme = 'light'; });
  return found;
}

const active = (page) => page.evaluate(() => ({ testid: document.activeElement?.dataset?.testid || document.activeElement?.tagName, text: document.activeElement?.textContent?.trim() }));

let seq = 0;
async function newMember(page) {
  await browser.context.clearCookies();
  const email = `wcag-quiz-${Date.now()}-${++seq}@example.com`;
  const r = await call('/auth/register', { name: 'Quinn Focus', email, password: 'wcag-password-1' });
  assert.equal(r.status, 201);
  await confirmSignup(server, browser.context.request, email, 'wcag-password-1');
}

test('quiz: Start Quiz and Next move the focus to the question heading and announce "Question n of N"; Submit Quiz to the result heading (1280, 390, 320 px)', async () => {
  const found = [];
  for (const width of WIDTHS) {
    await newMember();
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: width > 400 ? 900 : 700 });
    await page.goto(server.url + '/quiz/' + badges['React Developer']);
    await hydrated(page, 'QuizRunner');
    // the live region is in the page before anything is said in it
    assert.equal(await page.getByTestId('quiz-announce').textContent(), '');
    const begin = page.getByTestId('quiz-begin');
    await begin.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('quiz-position').waitFor();
    const n = Number((await page.getByTestId('quiz-position').innerText()).match(/of (\d+)/)[1]);
    assert.ok(n >= 3, `${n} questions`);
    for (let i = 1; i <= n; i++) {
      await page.waitForFunction((want) => document.querySelector('[data-testid=quiz-announce]')?.textContent === want, `Question ${i} of ${n}`, { timeout: 5000 });
      const f = await active(page);
      assert.equal(f.testid, 'quiz-heading', `${width}px question ${i}: the focus is on the question's heading, not ${JSON.stringify(f)}`);
      assert.equal(f.text, (await page.getByTestId('quiz-question').innerText()).trim());
      assert.equal(await page.getByTestId('quiz-heading').evaluate((h) => [h.tagName, h.tabIndex]).then(String), 'H2,-1');
      assert.equal(await page.getByTestId('quiz-announce').getAttribute('aria-live'), 'polite');
      assert.equal(await overflow(page), null, `${width}px question ${i} scrolls sideways`);
      if (i === 1) {
        found.push(...(await axeBoth(page, `${width}px quiz question 1`)));
        await shot(page, `wcag-quiz-question-${width}`);
      }
      await page.locator('fieldset label').first().click();
      await page.getByRole('button', { name: i === n ? /Submit Quiz/ : /Next/ }).click();
    }
    await page.getByTestId('quiz-result').waitFor();
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'quiz-result-heading', null, { timeout: 5000 }).catch(() => {});
    const f = await active(page);
    assert.equal(f.testid, 'quiz-result-heading', `${width}px: after Submit Quiz the focus is on the result's heading, not ${JSON.stringify(f)}`);
    assert.match(f.text, /Congratulations, you passed!|Not quite there yet/);
    assert.equal(await overflow(page), null, `${width}px result scrolls sideways`);
    found.push(...(await axeBoth(page, `${width}px quiz result`)));
    await shot(page, `wcag-quiz-result-${width}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  assert.deepEqual(found, [], found.join('\n'));
});

test('home: the logo marquee has a Pause button (aria-pressed) and stands paused for reduced motion (1280, 390, 320 px)', async () => {
  await browser.context.clearCookies();
  const found = [];
  const playing = (page) => page.locator('.animate-marquee').evaluate((el) => el.getAnimations().some((a) => a.playState === 'running'));
  const x = (page) => page.locator('.animate-marquee').evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41);
  for (const width of WIDTHS) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height: 800 });
    await page.goto(server.url + '/');
    const button = page.getByRole('button', { name: 'Pause animation' });
    await button.waitFor();
    assert.equal(await button.getAttribute('aria-pressed'), 'false');
    assert.equal(await playing(page), true, 'the logos move');
    await button.scrollIntoViewIfNeeded();
    await button.click();
    assert.equal(await button.getAttribute('aria-pressed'), 'true');
    assert.equal(await playing(page), false, 'Pause stops them');
    const x0 = await x(page);
    await page.waitForTimeout(300);
    assert.equal(await x(page), x0, 'paused: the strip stays put');
    assert.equal(await overflow(page), null);
    found.push(...(await axeBoth(page, `${width}px home, marquee paused`)));
    await page.locator('[data-testid=logo-marquee-box]').screenshot({ path: `tests/browser/screenshots/wcag-marquee-paused-${width}.png` });
    // the keyboard plays it again
    await button.focus();
    await page.keyboard.press('Space');
    assert.equal(await button.getAttribute('aria-pressed'), 'false');
    assert.equal(await playing(page), true, 'Play starts them again');
    await page.close();
  }
  // reduced motion: paused from the start
  const page = await browser.context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(server.url + '/');
  await page.waitForFunction(() => document.querySelector('[data-marquee]')?.dataset.marquee === 'paused');
  assert.equal(await page.locator('[data-marquee-toggle]').getAttribute('aria-pressed'), 'true');
  assert.equal(await playing(page), false);
  found.push(...(await axeBoth(page, 'reduced motion home')));
  await page.close();
  assert.deepEqual(found, [], found.join('\n'));
});

/** axe on what a page without JavaScript shows: axe itself needs script, so its HTML (the
 * DOM as it stands, scripts removed) is served to a page of the same origin and checked in
 * both themes there. */
async function axeNoJS(page, label) {
  const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '');
  const p = await browser.context.newPage();
  await p.setViewportSize(page.viewportSize());
  await p.route(server.url + '/__nojs__', (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await p.goto(server.url + '/__nojs__');
  const found = await axeBoth(p, label);
  await p.close();
  return found;
}

test('without JavaScript: the phone header has its links, Forgot Password, bulk Verify all and the contact form work (1280, 390, 320 px)', async () => {
  const { chromium } = await import('playwright-core');
  const nojs = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const found = [];
  try {
    for (const width of WIDTHS) {
      const ctx = await nojs.newContext({ javaScriptEnabled: false, viewport: { width, height: 800 } });
      const page = await ctx.newPage();
      page.setDefaultTimeout(20000);
      const tag = `${width}px no-JS`;
      // the header: the main nav on a wide screen, a <details> menu on a phone
      await page.goto(server.url + '/about');
      if (width >= 1024) {
        assert.ok(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Badges' }).isVisible());
      } else {
        const toggle = page.getByTestId('mobile-menu-toggle');
        assert.ok(await toggle.isVisible(), `${tag}: the menu toggle is shown`);
        await toggle.click();
        const nav = page.getByRole('navigation', { name: 'Mobile' });
        for (const name of ['Home', 'Badges', 'Services', 'Hall of Fame', 'About', 'Contact', 'Verify', 'Login', 'Sign Up']) {
          assert.ok(await nav.getByRole('link', { name, exact: true }).isVisible(), `${tag}: the menu offers ${name}`);
        }
        assert.equal(await overflow(page), null);
        found.push(...(await axeNoJS(page, `${tag} header menu open`)));
        await shot(page, `wcag-nojs-menu-${width}`);
        await nav.getByRole('link', { name: 'Badges', exact: true }).click();
        await page.waitForURL(server.url + '/badges');
      }

      // Forgot Password?: a link to the form as a page, posted to /forgot-password
      await page.goto(server.url + '/login');
      await page.getByRole('link', { name: 'Forgot Password?' }).click();
      await page.waitForURL(/\/login\?forgot=1/);
      const form = page.getByTestId('forgot-page-form');
      assert.ok(await form.isVisible());
      found.push(...(await axeNoJS(page, `${tag} forgot password form`)));
      // (a bad address is refused by the browser's own check here, by the server too:
      // app/auth/form_test.go)
      await form.getByLabel('Email').fill(member.email);
      let res = await Promise.all([page.waitForNavigation(), page.getByTestId('forgot-page-form').getByRole('button', { name: 'Send Reset Link' }).click()]).then(([r]) => r);
      assert.equal(res.status(), 200);
      assert.equal(await page.getByTestId('forgot-sent').innerText(), 'If an account exists for this email, we have sent a password reset link. Check your inbox.');
      found.push(...(await axeNoJS(page, `${tag} reset link sent`)));
      await shot(page, `wcag-nojs-forgot-sent-${width}`);

      // bulk Verify all: posted to /verify-badge, the table comes back in the page
      await page.goto(server.url + '/verify-badge');
      assert.equal(await page.getByRole('button', { name: /Choose CSV file/ }).count(), 0, 'the file chooser needs script: not offered');
      await page.locator('#bulk-ids').fill(`${publicId}\nnot an id`);
      res = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Verify all' }).click()]).then(([r]) => r);
      assert.equal(res.status(), 200);
      assert.equal(new URL(page.url()).search, '', 'the IDs stay out of the address');
      const results = page.getByTestId('bulk-results');
      assert.match(await results.innerText(), /2 checked/);
      assert.match(await results.innerText(), /1 valid/);
      assert.match(await results.innerText(), /Team Leadership/);
      assert.equal(await overflow(page), null);
      found.push(...(await axeNoJS(page, `${tag} bulk results`)));
      await shot(page, `wcag-nojs-bulk-${width}`);

      // the contact form: posted (never a GET with the message in the address)
      await page.goto(server.url + '/contact');
      const contact = page.getByTestId('contact-form');
      assert.equal(await contact.getAttribute('method'), 'post');
      res = await Promise.all([page.waitForNavigation(), page.getByTestId('contact-submit').click()]).then(([r]) => r);
      assert.equal(res.status(), 400);
      assert.equal(await page.getByTestId('error-message').innerText(), 'Please enter a message.');
      found.push(...(await axeNoJS(page, `${tag} contact errors`)));
      await page.locator('#contact-name').fill('Casey Contact');
      await page.locator('#contact-email').fill('casey@example.com');
      await page.locator('#contact-subject').fill('Team badges');
      await page.locator('#contact-message').fill('A private question & more');
      res = await Promise.all([page.waitForNavigation(), page.getByTestId('contact-submit').click()]).then(([r]) => r);
      assert.equal(res.request().method(), 'POST');
      assert.equal(res.status(), 200);
      assert.equal(page.url(), server.url + '/contact', 'the message stays out of the address');
      assert.equal(await page.locator('#contact-message').inputValue(), 'A private question & more');
      const mailto = await page.getByTestId('contact-mailto').getAttribute('href');
      assert.match(mailto, /^mailto:[^?]+\?subject=Team%20badges&body=A%20private%20question%20%26%20more%0D%0A%0D%0A--%0D%0ACasey%20Contact%0D%0Acasey%40example\.com$/);
      assert.equal(await overflow(page), null);
      found.push(...(await axeNoJS(page, `${tag} contact ready`)));
      await shot(page, `wcag-nojs-contact-${width}`);
      await ctx.close();
    }
    // the reset link went out (once per width)
    const sent = server.smtp.messages.filter((m) => m.to.includes(member.email) && /reset-password\?/.test(mailBody(m.data)));
    assert.ok(sent.length >= 1, 'a reset mail was sent');
  } finally {
    await nojs.close();
  }
  assert.deepEqual(found, [], found.join('\n'));
});

test('admin: red pills reach 4.5:1 in both themes (rejected applications, revoked states)', async () => {
  // a rejected application for the Applications tab's Rejected list
  await signIn(member.email, member.password);
  const res = await browser.context.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId: badges['Product Design Portfolio'], type: 'proof', fullName: member.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/wren', portfolio: 'https://wren.example', description: 'Evidence.' },
  });
  assert.equal(res.status(), 201, await res.text());
  const app = (await res.json()).application;
  let r = await call('/payments', { badgeId: badges['Product Design Portfolio'], amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201);
  await signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
  r = await call(`/admin/applications/${app._id}/reject`, { reason: 'The portfolio link does not open.' }, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const found = [];
  const ratios = [];
  for (const theme of ['light', 'dark']) {
    for (const width of WIDTHS) {
      const page = await browser.context.newPage();
      await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(server.url + '/admin');
      await hydrated(page, 'AdminDashboard');
      await page.getByTestId('tab-rejected').click();
      // the table on a wide screen, the cards on a phone: whichever shows
      await page.locator('#applications-panel [data-application-id]:visible').first().waitFor();
      await settled(page);
      // every red text of the tab: its colour against what is painted behind it
      const reds = await page.evaluate(() => {
        const c = document.createElement('canvas');
        c.width = c.height = 1;
        const x = c.getContext('2d', { willReadFrequently: true });
        const paint = (stack) => {
          x.clearRect(0, 0, 1, 1);
          for (const col of stack) { x.fillStyle = col; x.fillRect(0, 0, 1, 1); }
          return [...x.getImageData(0, 0, 1, 1).data].slice(0, 3);
        };
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
        const out = [];
        const red = getComputedStyle(document.documentElement).getPropertyValue('--destructive').trim();
        x.fillStyle = red;
        const redRGB = x.fillStyle;
        for (const el of document.querySelectorAll('main *')) {
          const cs = getComputedStyle(el);
          if (!el.childNodes.length || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
          x.fillStyle = cs.color;
          if (x.fillStyle !== redRGB) continue;
          const stack = [];
          for (let p = el; p; p = p.parentElement) {
            const bg = getComputedStyle(p).backgroundColor;
            if (bg && bg !== 'rgba(0, 0, 0, 0)') stack.unshift(bg);
          }
          const fg = paint([...stack, cs.color]);
          const bg = paint(stack);
          const [a, b] = [lum(fg), lum(bg)].sort((m, n) => n - m);
          out.push({ text: el.textContent.trim().slice(0, 40), ratio: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100 });
        }
        return out;
      });
      assert.ok(reds.length > 0, `${theme} ${width}px: red text found on the Rejected tab`);
      ratios.push(...reds.map((t) => ({ ...t, theme, width })));
      found.push(...(await axe(page, `${theme} ${width}px admin rejected`)));
      if (width === 320) await shot(page, `wcag-admin-rejected-${theme}-320`);
      await page.close();
    }
  }
  const low = ratios.filter((t) => t.ratio < 4.5);
  assert.deepEqual(low, [], 'red text under 4.5:1');
  assert.deepEqual(found, [], found.join('\n'));
});
