// Verification and the Hall of Fame end to end. Setup goes through the real flow: members
// apply for proof badges, pay with the seeded 100% coupon, and the demo admin approves them
// (which signs each credential). Then: a visitor verifies a badge by typing its id and by
// opening a shared link (with JavaScript and without), downloads the baked PNG, sees a
// revoked badge with its reason and a 'Badge Not Found'; the Hall of Fame's stats, Top
// Performers, filters (with and without JavaScript), empty states and load failure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, hydrated, shot as fullShot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

/** A full-page screenshot from the top (the sticky header stays at the top). */
async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullShot(page, name);
}

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

const PEOPLE = [
  { name: 'Ada Lovelace', position: 'Principal Engineer', badges: ['Open Source Contributor', 'Product Design Portfolio', 'Team Leadership'] },
  { name: 'Grace Hopper', position: 'Compiler Architect', badges: ['Open Source Contributor', 'Cloud Infrastructure Engineer'] },
  { name: 'Alan Turing', position: 'Research Scientist', badges: ['Machine Learning Practitioner'] },
  { name: 'Katherine Johnson', position: 'Flight Data Analyst', badges: ['Team Leadership'] },
  { name: 'Hedy Lamarr', position: 'Inventor', badges: ['Open Source Contributor'] },
  { name: 'Margaret Hamilton', position: 'Software Engineering Lead', badges: ['Product Design Portfolio'] },
];

let server, browser, grants;

async function post(ctx, path, data, method = 'post') {
  const r = await ctx.request[method](server.url + API + path, { data, headers: { Origin: server.url } });
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
  const ctx = await browser.context.browser()?.newContext?.() ?? browser.context;
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  const byName = Object.fromEntries(list.badges.map((b) => [b.name, b._id]));
  const apps = [];
  for (const [i, p] of PEOPLE.entries()) {
    const email = `${p.name.split(' ')[0].toLowerCase()}-${Date.now()}@example.com`;
    let r = await post(ctx, '/auth/register', { name: p.name, email, password: 'password-123' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await confirmSignup(server, ctx.request, email, 'password-123');
    const slug = p.name.toLowerCase().replace(/ /g, '-');
    r = await post(ctx, '/users/profile', { name: p.name, position: p.position, linkedin: `https://linkedin.com/in/${slug}`, portfolio: i % 2 ? '' : `https://${slug}.example` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const badge of p.badges) {
      const badgeId = byName[badge];
      assert.ok(badgeId, badge);
      const sub = await ctx.request.post(server.url + API + '/applications', {
        headers: { Origin: server.url },
        multipart: {
          badgeId, type: 'proof', fullName: p.name, position: p.position, linkedin: `https://linkedin.com/in/${slug}`,
          portfolio: `https://${slug}.example`, description: `Evidence for ${badge}.`,
          proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF },
        },
      });
      assert.equal(sub.status(), 201, await sub.text());
      const appId = (await sub.json()).application._id;
      r = await post(ctx, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      apps.push({ person: p.name, badge, appId });
    }
    await ctx.clearCookies();
  }
  await signIn(ctx, ADMIN_EMAIL, ADMIN_PASSWORD);
  grants = [];
  for (const a of apps) {
    const r = await post(ctx, `/admin/applications/${a.appId}/approve`, {}, 'put');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    grants.push({ ...a, ...r.body.application.grant });
  }
  await ctx.clearCookies();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const ada = () => grants.find((g) => g.person === 'Ada Lovelace' && g.badge === 'Open Source Contributor');

test('a visitor verifies a badge by typing its id', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.goto(server.url + '/verify-badge');
  await hydrated(page, 'VerifyBadge');
  await shot(page, 'verify-empty-1280');
  const g = ada();
  // typed loosely: lower case, spaces instead of dashes
  await page.getByTestId('verify-input').fill('  ' + g.verificationId.toLowerCase().replace(/-/g, ' ') + ' ');
  await page.getByTestId('verify-submit').click();
  await page.locator('[data-testid="verify-result"][data-state="valid"]').waitFor();
  // the address is the shareable form of the id
  assert.equal(new URL(page.url()).pathname, '/verify/' + g.verificationId);
  assert.equal(await page.getByTestId('verify-badge-name').innerText(), 'Open Source Contributor');
  assert.equal(await page.getByTestId('verify-holder').innerText(), 'Ada Lovelace');
  assert.equal(await page.getByTestId('verify-id').innerText(), g.verificationId);
  assert.ok(await page.getByRole('heading', { name: 'Verified Badge' }).isVisible());
  // every check passed, and they are shown
  const checks = page.locator('[data-testid="verify-checks"] li');
  assert.equal(await checks.count(), 4);
  assert.equal(await page.locator('[data-testid="verify-checks"] li[data-ok="false"]').count(), 0);
  for (const label of ['Signature valid', 'Issued by Meritmark', 'Not revoked', 'Not expired']) {
    assert.ok(await page.getByText(label, { exact: true }).isVisible(), label);
  }
  // the e-mail is masked
  assert.ok(await page.getByText(/^a\*\*\*@example\.com$/).isVisible());
  // downloads; Add to LinkedIn is the holder's alone (share-cards.test.mjs)
  const dl = page.getByTestId('verify-downloads');
  assert.equal(await dl.locator('a').count(), 3);
  assert.equal(await page.getByTestId('linkedin-add').count(), 0);
  await shot(page, 'verify-valid-typed-1280');

  // another id that does not exist: Badge Not Found with the reasons
  await page.getByTestId('verify-input').fill('MM-0000-0000-0000');
  await page.getByTestId('verify-submit').click();
  await page.locator('[data-testid="verify-result"][data-state="not-found"]').waitFor();
  for (const t of ['Badge Not Found', 'The badge was not issued by Meritmark', 'The badge has been revoked or has expired', 'The verification ID is in an invalid format']) {
    assert.ok(await page.getByText(t, { exact: true }).isVisible(), t);
  }
  await shot(page, 'verify-not-found-1280');
  // back to the verified badge
  await page.goBack();
  await page.locator('[data-testid="verify-result"][data-state="valid"]').waitFor();
  assert.deepEqual(errors.filter((e) => !e.includes('404')), []);
  await page.close();
});

test('a shared link opens with the result already in the page, with a social card', async () => {
  const g = ada();
  const link = `${server.url}/verify/${g.publicVerificationId}`;
  // the HTML as a crawler gets it: result and Open Graph tags
  const html = await (await fetch(link)).text();
  assert.ok(html.includes('Open Source Contributor') && html.includes('Ada Lovelace'), 'result in the HTML');
  const og = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  assert.equal(og, `${server.url}/credentials/${g.publicVerificationId}/card.png`);
  assert.ok(html.includes('<meta name="twitter:card" content="summary_large_image">'));
  assert.match(html, /<meta property="og:title" content="Open Source Contributor · Verified badge of Ada Lovelace/);
  const card = await fetch(og);
  assert.equal(card.status, 200);
  assert.equal(card.headers.get('content-type'), 'image/png');
  const buf = Buffer.from(await card.arrayBuffer());
  assert.equal(buf.readUInt32BE(16), 1200);
  assert.equal(buf.readUInt32BE(20), 630);

  // the baked PNG carries the credential
  const png = Buffer.from(await (await fetch(`${server.url}/credentials/${g.publicVerificationId}.png`)).arrayBuffer());
  const jwt = await (await fetch(`${server.url}/credentials/${g.publicVerificationId}.jwt`)).text();
  assert.ok(png.includes(Buffer.from('openbadgecredential\0\0\0\0\0' + jwt)), 'iTXt chunk with the JWT');

  for (const [theme, width, height] of [['light', 1280, 800], ['dark', 1280, 800], ['light', 390, 844], ['dark', 390, 844]]) {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height });
    await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    const res = await page.goto(link);
    assert.equal(res.status(), 200);
    await page.locator('[data-testid="verify-result"][data-state="valid"]').waitFor();
    await hydrated(page, 'VerifyBadge');
    assert.equal(await page.getByTestId('verify-input').inputValue(), g.publicVerificationId);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `verify page at ${width} px scrolls sideways by ${overflow} px`);
    await shot(page, `verify-shared-${width}-${theme}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
  // the social card, to look at
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.goto(og);
  await page.screenshot({ path: new URL('./screenshots/verify-og-card.png', import.meta.url).pathname });
  await page.close();
});

test('with JavaScript off: ?id= and the form are answered by the server', async () => {
  const ctx = await browser.context.browser()?.newContext?.({ javaScriptEnabled: false });
  const own = !ctx;
  const page = ctx ? await ctx.newPage() : await browser.context.newPage();
  if (own) await page.route('**/*.js', (r) => r.abort());
  const g = grants.find((x) => x.person === 'Grace Hopper');
  await page.goto(`${server.url}/verify-badge?id=${encodeURIComponent(g.verificationId)}`);
  await page.locator('[data-testid="verify-result"][data-state="valid"]').waitFor();
  assert.equal(await page.getByTestId('verify-holder').innerText(), 'Grace Hopper');
  await page.getByTestId('verify-input').fill('not a real id');
  await Promise.all([page.waitForNavigation(), page.getByTestId('verify-submit').click()]);
  assert.equal(new URL(page.url()).pathname, '/verify-badge');
  await page.getByText('Badge Not Found', { exact: true }).waitFor();
  await page.close();
  await ctx?.close();
});

test('a revoked badge shows why', async () => {
  const g = grants.find((x) => x.person === 'Katherine Johnson');
  await signIn(browser.context, ADMIN_EMAIL, ADMIN_PASSWORD);
  const r = await post(browser.context, `/admin/grants/${g._id}/revoke`, { category: 'fraud', reason: 'The submitted proof belonged to someone else.' }, 'put');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.goto(`${server.url}/verify/${g.publicVerificationId}`);
  await page.locator('[data-testid="verify-result"][data-state="revoked"]').waitFor();
  assert.ok(await page.getByRole('heading', { name: 'Badge Revoked' }).isVisible());
  assert.match(await page.getByTestId('verify-reason').innerText(), /^This badge was revoked on .+\. Reason: Fraudulent or misrepresented evidence$/);
  assert.equal(await page.locator('[data-testid="verify-checks"] li[data-ok="false"]').count(), 1);
  assert.equal(await page.getByTestId('verify-downloads').count(), 0);
  await shot(page, 'verify-revoked-1280');
  await page.close();
});

test('the Hall of Fame: stats, top performers, filters with and without JavaScript', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.goto(server.url + '/hall-of-fame');
  await hydrated(page, 'HallOfFameBoard');
  const stats = await page.getByTestId('hof-stats').innerText();
  // Katherine's only badge was revoked: 5 earners, 8 badges, 5 categories
  assert.match(stats, /Badge Earners\s+5/);
  assert.match(stats, /Badges Earned\s+8/);
  assert.match(stats, /Categories\s+5/);
  const top = page.getByTestId('hof-top-card');
  assert.equal(await top.count(), 3);
  assert.match(await top.first().innerText(), /#1[\s\S]*Ada Lovelace[\s\S]*3\s+badges/);
  assert.equal(await page.getByTestId('hof-first').count(), 1);
  assert.equal(await top.first().locator('[aria-label="Recent badges"] li').count(), 3);
  assert.ok(await top.first().getByRole('link', { name: 'Ada Lovelace on LinkedIn' }).isVisible());
  assert.ok(!(await page.getByText('Katherine Johnson').count()), 'a revoked grant does not count');
  // the rest, with their joined date
  const rows = page.getByTestId('hof-row');
  assert.equal(await rows.count(), 2);
  assert.match(await rows.first().innerText(), /#4[\s\S]*(Hedy Lamarr|Margaret Hamilton)[\s\S]*Joined\s+[A-Z][a-z]{2} \d+, \d{4}[\s\S]*1\s+badge/);
  await shot(page, 'hof-1280-light');

  // category chip (client side), then sort by name, then a search with no result
  await page.getByTestId('hof-categories').getByRole('link', { name: 'Data Science' }).click();
  await page.waitForURL('**/hall-of-fame?category=Data+Science');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="hof-top-card"]').length === 1);
  assert.match(await top.first().innerText(), /Alan Turing/);
  await page.getByTestId('hof-categories').getByRole('link', { name: 'All' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="hof-top-card"]').length === 3);
  await page.getByTestId('hof-sort').selectOption('name');
  await page.waitForURL('**/hall-of-fame?sort=name');
  await page.waitForFunction(() => /Ada Lovelace/.test(document.querySelector('[data-testid="hof-top-card"]')?.textContent || ''));
  assert.match(await top.nth(1).innerText(), /Alan Turing/);
  await page.getByTestId('hof-search').fill('compiler');
  await page.getByTestId('hof-apply').click();
  await page.waitForURL('**/hall-of-fame?search=compiler&sort=name');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="hof-top-card"]').length === 1);
  assert.match(await top.first().innerText(), /Grace Hopper/);
  await page.getByTestId('hof-search').fill('nobody at all');
  await page.getByTestId('hof-apply').click();
  await page.getByTestId('hof-empty').getByText('No badge earners match your filters').waitFor();
  await shot(page, 'hof-empty-filtered-1280');

  // a failed load says so
  await page.route('**/backend/api/v1/hall-of-fame**', (r) => r.abort());
  await page.getByTestId('hof-search').fill('ada');
  await page.getByTestId('hof-apply').click();
  await page.getByTestId('hof-error').getByText('Failed to load Hall of Fame data').waitFor();
  await page.unroute('**/backend/api/v1/hall-of-fame**');
  assert.deepEqual(errors.filter((e) => !e.includes('net::ERR_FAILED')), []);
  await page.close();

  // 390 px and dark
  for (const [theme, width, height] of [['dark', 1280, 800], ['light', 390, 844], ['dark', 390, 844]]) {
    const p = await browser.context.newPage();
    await p.setViewportSize({ width, height });
    await p.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
    await p.goto(server.url + '/hall-of-fame');
    await p.getByTestId('hof-top').waitFor();
    const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `hall of fame at ${width} px scrolls sideways by ${overflow} px`);
    await shot(p, `hof-${width}-${theme}`);
    await p.close();
  }
});

test('the Hall of Fame works with JavaScript off (filters in the address)', async () => {
  const ctx = await browser.context.browser()?.newContext?.({ javaScriptEnabled: false });
  const page = ctx ? await ctx.newPage() : await browser.context.newPage();
  if (!ctx) await page.route('**/*.js', (r) => r.abort());
  await page.goto(server.url + '/hall-of-fame?category=Design');
  assert.equal(await page.getByTestId('hof-top-card').count(), 2);
  assert.match(await page.getByTestId('hof-top-card').first().innerText(), /Ada Lovelace/);
  await page.getByTestId('hof-search').fill('research');
  await Promise.all([page.waitForNavigation(), page.getByTestId('hof-apply').click()]);
  assert.equal(new URL(page.url()).search, '?search=research&category=Design&sort=badges');
  await page.getByText('No badge earners match your filters').waitFor();
  await page.goto(server.url + '/hall-of-fame?search=research');
  assert.match(await page.getByTestId('hof-top-card').first().innerText(), /Alan Turing/);
  await page.close();
  await ctx?.close();
});
