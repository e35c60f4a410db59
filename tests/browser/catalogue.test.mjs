// The catalogue (/badges) and the badge detail (/badges/:id): filtering by category and
// search (instantly, and with JavaScript off through ?q=…&category=…), every card and
// detail button state, the share dialog, the 'Badge not found' page. Screenshots at
// 1280 and 390 px go to tests/browser/screenshots/catalogue-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, hydrated, wake, shot, watchErrors, confirmSignup } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
let server, browser, ids;

before(async () => {
  server = await startServer();
  browser = await launch();
  const r = await fetch(server.url + '/backend/api/v1/badges/with-ownership');
  ids = Object.fromEntries((await r.json()).badges.map((b) => [b.name, b._id]));
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const card = (page, name) => page.locator(`[data-testid="badge-card"][data-badge-name="${name}"]`);
const cardNames = (page) => page.locator('[data-testid="badge-card"]').evaluateAll((els) => els.map((e) => e.dataset.badgeName));
// the results block shows the server's rendering of this address (the island swaps it in
// after a filter change)
const settled = async (page, search) => {
  await page.waitForSelector(`#catalogue-results[data-query="/badges${search}"]:not([aria-busy])`, { timeout: 15000 });
  assert.equal(new URL(page.url()).search, search);
};
const ignorable = (e) => e.includes('404') || e.includes('Failed to load resource');

test('visitors filter the catalogue by category and search, instantly, with shareable URLs', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/badges');
  await page.getByRole('heading', { level: 1, name: 'Discover Professional Badges' }).waitFor();
  // the cards are server HTML: present before (and without) any hydration
  assert.equal((await cardNames(page)).length, 13);
  assert.equal(await page.locator('[data-island] [data-testid="badge-card"]').count(), 0);
  assert.equal(await page.locator('[data-island="BadgeCatalogue"]').getAttribute('data-hydrate'), 'interaction');
  await wake(page, 'BadgeCatalogue');
  // card content: price in dollars, type, level, criteria cut with Read more, guest button
  const react = card(page, 'React Developer');
  assert.equal(await react.getByTestId('badge-price').textContent(), '$49.00');
  assert.equal(await card(page, 'Community Builder').getByTestId('badge-price').textContent(), 'Free');
  assert.ok(await react.getByText('Quiz Based').isVisible());
  assert.ok(await react.getByText('Intermediate').isVisible());
  assert.equal(await react.getByRole('link', { name: 'Read more' }).getAttribute('href'), `/badges/${ids['React Developer']}`);
  assert.equal(await page.getByRole('link', { name: 'Login to Apply' }).count(), 13);
  assert.equal(await react.getByRole('link', { name: 'Login to Apply' }).getAttribute('href'), `/badges/${ids['React Developer']}`);
  await shot(page, 'catalogue-guest-1280');

  await page.click('[data-category="Design"]');
  await settled(page, '?category=Design');
  assert.deepEqual((await cardNames(page)).sort(), ['Product Design Portfolio', 'UX Design Fundamentals']);
  assert.equal(await page.locator('[data-category="Design"]').getAttribute('aria-current'), 'true');

  await page.fill('[data-testid="badge-search"]', 'portfolio');
  await settled(page, '?category=Design&q=portfolio');
  assert.deepEqual(await cardNames(page), ['Product Design Portfolio']);
  assert.match(await page.getByTestId('badge-count').textContent(), /Showing 1 of 13 badges/);

  await page.click('[data-category="All"]');
  await settled(page, '?q=portfolio');
  await page.fill('[data-testid="badge-search"]', 'react');
  await settled(page, '?q=react');
  assert.deepEqual(await cardNames(page), ['React Developer']);

  await page.fill('[data-testid="badge-search"]', 'no such skill anywhere');
  await settled(page, '?q=no+such+skill+anywhere');
  await page.getByRole('heading', { name: 'No badges found' }).waitFor();
  assert.equal((await cardNames(page)).length, 0);
  await shot(page, 'catalogue-empty-1280');
  await Promise.all([page.waitForURL(server.url + '/badges'), page.getByRole('link', { name: 'Show all badges' }).click()]);
  assert.equal((await cardNames(page)).length, 13);
  assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/badges');

  // a shared filtered link renders filtered on the server
  await page.goto(server.url + '/badges?q=react&category=Development');
  assert.deepEqual(await cardNames(page), ['React Developer']);
  assert.equal(await page.inputValue('[data-testid="badge-search"]'), 'react');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/badges');
  await wake(page, 'BadgeCatalogue');
  await page.click('[data-category="DevOps"]');
  await settled(page, '?category=DevOps');
  assert.deepEqual((await cardNames(page)).sort(), ['Cloud Infrastructure Engineer', 'Docker & Containers']);
  await shot(page, 'catalogue-guest-devops-390');
  assert.deepEqual(errors.filter((e) => !ignorable(e)), []);
  await page.close();
});

test('with JavaScript off the search form and the category links filter on the server', async () => {
  const page = await browser.context.newPage();
  await page.route('**/*.js', (r) => r.abort()); // no island ever hydrates
  await page.goto(server.url + '/badges');
  assert.equal((await cardNames(page)).length, 13);
  await page.fill('[data-testid="badge-search"]', 'design');
  await Promise.all([page.waitForURL('**/badges?q=design'), page.press('[data-testid="badge-search"]', 'Enter')]);
  const found = await cardNames(page);
  assert.ok(found.includes('UX Design Fundamentals') && found.includes('Product Design Portfolio'), found.join());
  await Promise.all([page.waitForURL('**/badges?category=Design&q=design'), page.click('[data-category="Design"]')]);
  assert.deepEqual((await cardNames(page)).sort(), ['Product Design Portfolio', 'UX Design Fundamentals']);
  assert.equal(await page.locator('[data-category="Design"]').getAttribute('aria-current'), 'true');
  await Promise.all([page.waitForURL('**/badges?category=Marketing&q=design'), page.click('[data-category="Marketing"]')]);
  await page.getByRole('heading', { name: 'No badges found' }).waitFor();
  await shot(page, 'catalogue-nojs-1280');
  await page.close();
});

test('the badge detail for a visitor: type, criteria toggle, start to login, not found, old path', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const id = ids['React Developer'];
  await page.goto(server.url + '/badges/' + id);
  await page.getByRole('heading', { level: 1, name: 'React Developer' }).waitFor();
  assert.equal(await page.getByTestId('badge-type').textContent(), 'Quiz Based');
  assert.equal(await page.getByTestId('start').getAttribute('href'), `/login?next=%2Fquiz%2F${id}`);
  assert.match(await page.getByTestId('start').textContent(), /Start Quiz/);
  // criteria: 30 words, collapsed past 20
  const crit = page.getByTestId('criteria-text');
  assert.match(await crit.textContent(), /^Pass the React Developer assessment .*…$/);
  await wake(page, 'BadgeCriteria');
  await page.getByTestId('criteria-toggle').click();
  assert.match(await crit.textContent(), /credentialing team\.$/);
  assert.equal(await page.getByTestId('criteria-toggle').textContent(), 'Show less of the criteria');
  await page.getByTestId('criteria-toggle').click();
  assert.equal(await page.getByTestId('criteria-toggle').textContent(), 'Read more of the criteria');
  await shot(page, 'catalogue-detail-guest-1280');

  const proof = ids['Team Leadership'];
  await page.goto(server.url + '/badges/' + proof);
  assert.equal(await page.getByTestId('badge-type').textContent(), 'Proof Based');
  assert.equal(await page.getByTestId('start').getAttribute('href'), `/login?next=%2Fproof-upload%2F${proof}`);

  const res = await page.goto(server.url + '/badges/not-a-badge');
  assert.equal(res.status(), 404);
  await page.getByRole('heading', { name: 'Badge not found' }).waitFor();
  await shot(page, 'catalogue-detail-notfound-1280');
  await Promise.all([page.waitForURL('**/badges'), page.getByRole('link', { name: 'Back to Badges' }).click()]);

  await page.goto(server.url + '/badge/' + id);
  assert.equal(new URL(page.url()).pathname, '/badges/' + id);
  assert.deepEqual(errors.filter((e) => !ignorable(e)), []);
  await page.close();
});

test('a member sees every card and detail state, and shares an owned badge', async (t) => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/badges');
  const email = `member-${Date.now()}@example.com`;
  const reg = await page.evaluate(async (email) => {
    const r = await fetch('/backend/api/v1/auth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ name: 'Casey Member', email, password: 'browser-test-pass-1' }),
    });
    return { status: r.status, body: await r.text() };
  }, email);
  if (reg.status === 404) {
    t.skip('POST /auth/register is not served yet: the signed-in states were not checked in the browser');
    await page.close();
    return;
  }
  assert.ok(reg.status === 200 || reg.status === 201, `register: ${reg.status} ${reg.body}`);
  await confirmSignup(server, page.request, email, 'browser-test-pass-1');

  const bin = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mm-fixtures-')), 'fixtures');
  execFileSync('go', ['build', '-o', bin, './tests/browser/fixtures'], { cwd: root, stdio: 'inherit' });
  const grants = JSON.parse(
    execFileSync(bin, ['--data-dir', server.dataDir], {
      input: JSON.stringify([
        { email, badge: 'React Developer', state: 'owned' },
        { email, badge: 'UX Design Fundamentals', state: 'pending' },
        { email, badge: 'Open Source Contributor', state: 'awaiting_payment' },
        { email, badge: 'Agile Project Manager', state: 'rejected', reason: 'The quiz score was below the passing mark.' },
        { email, badge: 'Cloud Infrastructure Engineer', state: 'grant_only' },
      ]),
    }).toString(),
  );
  fs.rmSync(path.dirname(bin), { recursive: true, force: true });

  // catalogue cards
  await page.goto(server.url + '/badges');
  const owned = card(page, 'React Developer');
  assert.equal(await owned.getAttribute('data-state'), 'owned');
  assert.ok(await owned.getByText('You already own this badge!').isVisible());
  assert.ok(await owned.getByRole('button', { name: 'Already Owned' }).isDisabled());
  assert.equal(await owned.getByRole('link', { name: 'View Details' }).getAttribute('href'), `/badges/${ids['React Developer']}`);
  const pending = card(page, 'UX Design Fundamentals');
  assert.equal(await pending.getAttribute('data-state'), 'pending');
  assert.ok(await pending.getByText('Your application is in process.').isVisible());
  assert.ok(await pending.getByRole('button', { name: 'In Process' }).isDisabled());
  const awaiting = card(page, 'Open Source Contributor');
  assert.equal(await awaiting.getAttribute('data-state'), 'open');
  assert.ok(await awaiting.getByText('Awaiting payment').isVisible());
  assert.equal(await awaiting.getByRole('link', { name: 'Check Eligibility' }).getAttribute('href'), `/badges/${ids['Open Source Contributor']}`);
  assert.equal(await page.getByRole('link', { name: 'Login to Apply' }).count(), 0);
  assert.equal(await page.getByRole('link', { name: 'Check Eligibility' }).count(), 10);
  await shot(page, 'catalogue-member-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await owned.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(root, 'tests/browser/screenshots/catalogue-member-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // owned: grant date, verification ID, no start button, share dialog
  const reactId = ids['React Developer'];
  await page.goto(server.url + '/badges/' + reactId);
  assert.equal(await page.getByTestId('verification-id').textContent(), grants['React Developer'].verificationId);
  assert.ok((await page.getByTestId('granted-at').textContent()).length > 0);
  assert.equal(await page.getByTestId('application-status').getAttribute('data-status'), 'approved');
  assert.equal(await page.getByTestId('start').count(), 0);
  await shot(page, 'catalogue-detail-owned-1280');
  await wake(page, 'BadgeActions');
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await page.evaluate(() => {
    window.__opened = [];
    window.open = (...a) => (window.__opened.push(a), {});
  });
  await page.getByTestId('share-open').click();
  const dialog = page.getByTestId('share-dialog');
  await dialog.waitFor();
  const verifyUrl = `${server.url}/verify/${grants['React Developer'].publicVerificationId}`;
  assert.equal(await page.inputValue('[data-testid="share-url"]'), verifyUrl);
  await page.getByTestId('share-copy').click();
  await dialog.getByText('Copied').waitFor();
  await page.getByText('Badge verification link copied!').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), verifyUrl);
  await shot(page, 'catalogue-share-dialog-1280');
  await dialog.getByText('Copy', { exact: true }).waitFor({ timeout: 3500 }); // back after 2 s
  await page.getByTestId('share-linkedin').click();
  await page.getByTestId('share-twitter').click();
  const opened = await page.evaluate(() => window.__opened);
  assert.equal(opened.length, 2);
  assert.equal(opened[0][0], 'https://www.linkedin.com/sharing/share-offsite/?url=' + encodeURIComponent(verifyUrl));
  assert.ok(opened[1][0].startsWith('https://twitter.com/intent/tweet?text='), opened[1][0]);
  for (const o of opened) assert.match(o[2], /width=600,height=400/);
  const add = new URL(await page.getByTestId('share-linkedin-add').getAttribute('href'));
  assert.equal(add.origin + add.pathname, 'https://www.linkedin.com/profile/add');
  assert.equal(add.searchParams.get('startTask'), 'CERTIFICATION_NAME');
  assert.equal(add.searchParams.get('name'), 'React Developer');
  assert.equal(add.searchParams.get('organizationName'), 'Meritmark');
  assert.equal(add.searchParams.get('certUrl'), verifyUrl);
  assert.equal(add.searchParams.get('certId'), grants['React Developer'].publicVerificationId);
  const granted = new Date(grants['React Developer'].grantedAt);
  assert.equal(add.searchParams.get('issueYear'), String(granted.getUTCFullYear()));
  assert.equal(add.searchParams.get('issueMonth'), String(granted.getUTCMonth() + 1));
  await page.keyboard.press('Escape');

  // pending: status, no start, no payment
  await page.goto(server.url + '/badges/' + ids['UX Design Fundamentals']);
  assert.equal(await page.getByTestId('application-status').getAttribute('data-status'), 'pending');
  assert.ok(await page.getByText('Your application is in process.', { exact: false }).isVisible());
  assert.equal(await page.getByTestId('start').count(), 0);
  assert.equal(await page.getByTestId('continue-payment').count(), 0);

  // awaiting payment: Continue Payment, no start
  await page.goto(server.url + '/badges/' + ids['Open Source Contributor']);
  assert.equal(await page.getByTestId('continue-payment').getAttribute('href'), `/payment/${ids['Open Source Contributor']}`);
  assert.equal(await page.getByTestId('start').count(), 0);
  await shot(page, 'catalogue-detail-awaiting-1280');

  // rejected: reason shown, can start again
  await page.goto(server.url + '/badges/' + ids['Agile Project Manager']);
  assert.equal(await page.getByTestId('rejection-reason').textContent(), 'The quiz score was below the passing mark.');
  assert.equal(await page.getByTestId('start').getAttribute('href'), `/quiz/${ids['Agile Project Manager']}`);
  await shot(page, 'catalogue-detail-rejected-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'catalogue-detail-rejected-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // nothing yet: Start Quiz / Upload Proof
  await page.goto(server.url + '/badges/' + ids['Docker & Containers']);
  assert.equal(await page.getByTestId('start').getAttribute('href'), `/quiz/${ids['Docker & Containers']}`);
  await page.goto(server.url + '/badges/' + ids['Team Leadership']);
  assert.equal(await page.getByTestId('start').getAttribute('href'), `/proof-upload/${ids['Team Leadership']}`);
  assert.match(await page.getByTestId('start').textContent(), /Upload Proof/);

  // an owner trying to start again gets the toast, not the upload
  await page.goto(server.url + '/badges/' + ids['Cloud Infrastructure Engineer']);
  await page.getByTestId('start').click(); // wakes the island; the click is replayed
  await page.getByText('Badge Already Owned').waitFor();
  await page.getByText('You already own this badge!').waitFor();
  assert.equal(new URL(page.url()).pathname, '/badges/' + ids['Cloud Infrastructure Engineer']);
  await shot(page, 'catalogue-detail-already-owned-1280');

  // dark theme
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.goto(server.url + '/badges/' + reactId);
  await shot(page, 'catalogue-detail-owned-dark-1280');
  await page.goto(server.url + '/badges');
  await shot(page, 'catalogue-member-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));

  assert.deepEqual(errors.filter((e) => !ignorable(e)), []);
  await page.close();
});
