// What a recruiter opening a shared link sees (issue 38, item 5), in Chromium with axe in
// both themes. A member with a profile photo holds two proof badges through the real flow
// (apply, FREEGRANT, the admin approves). Each badge page, the verify page of each
// credential and the public profile share their own 1200x630 PNG card (og:image with its
// size and alt); the badge and verify pages show the badge's medallion; on a phone the
// verify page leads with the badge, its holder and the verdict; the holder's name links
// to the public profile and the badge to its page; Add to LinkedIn is the holder's alone;
// the Hall of Fame links names to profiles and badges to their pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, hydrated, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup, seededBadges, badgeIdOf, axeBothThemes } from './harness.mjs';

const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const PHOTO = fs.readFileSync(new URL('../../static/images/og-card.png', import.meta.url));
const BADGES = ['Open Source Contributor', 'Team Leadership'];

let server, browser, badges, userId;
const holder = { name: 'Robin Recruit', email: `robin-${Date.now()}@example.com`, password: 'robin-password-1' };
const grants = {}; // badge name -> grant

async function call(ctx, path, data, method = 'post') {
  const r = await ctx.request[method](server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

async function signIn(ctx, who) {
  await ctx.clearCookies();
  const r = await call(ctx, '/auth/login', { email: who.email, password: who.password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const ctx = browser.context;
  badges = await seededBadges(server);
  let r = await call(ctx, '/auth/register', { name: holder.name, email: holder.email, password: holder.password });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, holder.email, holder.password);
  r = await call(ctx, '/users/profile', { name: holder.name, position: 'Staff Platform Engineer', linkedin: 'https://linkedin.com/in/robin' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  userId = r.body.user._id;
  const pic = await ctx.request.post(server.url + API + '/users/profile-pic', {
    headers: { Origin: server.url }, multipart: { profilePic: { name: 'me.png', mimeType: 'image/png', buffer: PHOTO } },
  });
  assert.equal(pic.status(), 200, await pic.text());
  const apps = [];
  for (const name of BADGES) {
    const badgeId = badgeIdOf(badges, name);
    const sub = await ctx.request.post(server.url + API + '/applications', {
      headers: { Origin: server.url },
      multipart: {
        badgeId, type: 'proof', fullName: holder.name, position: 'Engineer', linkedin: 'https://linkedin.com/in/robin',
        portfolio: 'https://robin.example', description: `Evidence for ${name}.`,
        proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF },
      },
    });
    assert.equal(sub.status(), 201, await sub.text());
    r = await call(ctx, '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    apps.push({ name, badgeId, appId: (await sub.json()).application._id });
  }
  await signIn(ctx, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  for (const a of apps) {
    r = await call(ctx, `/admin/applications/${a.appId}/approve`, {}, 'put');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    grants[a.name] = { ...r.body.application.grant, badgeId: a.badgeId };
  }
  await ctx.clearCookies();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** axe in both themes (harness.mjs). */
/** axe in both themes (harness.mjs), and no sideways scroll (WCAG 1.4.10 at 320 px). */
async function axe(page, what) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(over <= 0, `${what} scrolls sideways by ${over}px`);
  await axeBothThemes(page, what);
}

/** The page's share card as an unfurler reads it: og:image (checked against twitter:image,
 * og:image:width/height and alt), fetched; returns { url, png, cacheControl }. */
async function card(path, altHas) {
  const html = await (await fetch(server.url + path)).text();
  const meta = (p) => {
    const m = new RegExp(`<meta (?:property|name)="${p}" content="([^"]*)"`).exec(html);
    return m ? m[1].replace(/&amp;/g, '&').replace(/&#39;/g, "'") : null;
  };
  const url = meta('og:image');
  assert.ok(url && url.startsWith(server.url + '/'), `${path}: og:image ${url}`);
  assert.notEqual(url, server.url + '/static/images/og-card.png', `${path} shares the site card`);
  assert.equal(meta('twitter:image'), url, `${path}: twitter:image`);
  assert.equal(meta('og:image:width'), '1200', `${path}: og:image:width`);
  assert.equal(meta('og:image:height'), '630', `${path}: og:image:height`);
  assert.ok(meta('og:image:alt')?.includes(altHas), `${path}: og:image:alt ${meta('og:image:alt')}`);
  const res = await fetch(url);
  assert.equal(res.status, 200, url);
  assert.equal(res.headers.get('content-type'), 'image/png', url);
  const png = Buffer.from(await res.arrayBuffer());
  assert.equal(png.subarray(1, 4).toString(), 'PNG', url);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], `${url} size`);
  return { url, png, cacheControl: res.headers.get('cache-control') || '' };
}

async function look(url, name) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.goto(url);
  await page.screenshot({ path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname });
  await page.close();
}

test('every shared page has its own 1200x630 card', async () => {
  // badge pages: one card each, named by version, immutable
  const [a, b] = [grants[BADGES[0]], grants[BADGES[1]]];
  const ca = await card(`/badges/${a.badgeId}`, BADGES[0]);
  const cb = await card(`/badges/${b.badgeId}`, BADGES[1]);
  assert.notEqual(ca.url, cb.url);
  assert.ok(!ca.png.equals(cb.png), 'two badges share a card');
  assert.match(ca.url, /\/badges\/[0-9a-f]+\/card\.png\?v=[0-9a-f]+$/);
  assert.match(ca.cacheControl, /immutable/);
  // the old site card's badge is gone from badge pages
  assert.ok(!ca.png.equals(fs.readFileSync(new URL('../../static/images/og-card.png', import.meta.url))));
  // verify pages: one card per credential, naming its holder
  const va = await card(`/verify/${a.publicVerificationId}`, holder.name);
  const vb = await card(`/verify/${b.publicVerificationId}`, holder.name);
  assert.ok(!va.png.equals(vb.png), 'two credentials share a card');
  // the public profile with a photo
  const p = await card(`/profile/${userId}`, holder.name);
  assert.match(p.url, /\/profile\/[0-9a-f]+\/card\.png\?v=[0-9a-f]+$/);
  assert.match(p.cacheControl, /immutable/);
  // a bad id: 404 with a message
  for (const path of ['/badges/nope/card.png', `/badges/${'0'.repeat(24)}/card.png`, '/profile/nope/card.png']) {
    const r = await fetch(server.url + path);
    assert.equal(r.status, 404, path);
    assert.ok((await r.json()).msg, path);
  }
  await look(ca.url, 'share-card-badge');
  await look(cb.url, 'share-card-badge-2');
  await look(p.url, 'share-card-profile');
});

test('the badge page shows its medallion', async () => {
  const g = grants[BADGES[0]];
  for (const [w, h] of [[1280, 900], [390, 844], [320, 640]]) {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${server.url}/badges/${g.badgeId}`);
    const art = page.getByTestId('badge-art');
    await art.waitFor();
    assert.equal(await art.getAttribute('alt'), `Medallion of the ${BADGES[0]} badge`);
    assert.equal(await art.getAttribute('src'), `/achievements/${g.badgeId}/image.png`);
    await page.waitForFunction(() => document.querySelector('[data-testid="badge-art"]')?.naturalWidth === 600);
    const box = await art.boundingBox();
    assert.ok(box && box.y + box.height < h, `medallion below the fold at ${w} px`);
    await axe(page, `badge page at ${w}`);
    await shot(page, `share-badge-page-${w}`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('on a phone the verify page leads with the badge, its holder and the verdict', async () => {
  const g = grants[BADGES[0]];
  const link = `${server.url}/verify/${g.publicVerificationId}`;
  for (const [w, h] of [[390, 844], [320, 640], [1280, 900]]) {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: w, height: h });
    await page.goto(link);
    await hydrated(page, 'VerifyBadge');
    await page.locator('[data-testid="verify-result"][data-state="valid"]').first().waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="badge-art"]')?.naturalWidth === 600);
    // in the first screen: medallion, badge name, holder, verdict
    for (const id of ['badge-art', 'verify-badge-name', 'verify-holder', 'verify-banner']) {
      const box = await page.getByTestId(id).boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= h, `${id} at ${w} px: ${JSON.stringify(box)}`);
    }
    // and before the search form, in reading order
    const order = await page.evaluate(() => {
      const at = (id) => document.querySelector(`[data-testid="${id}"]`);
      const before = (x, y) => !!(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);
      return {
        verdictBeforeForm: before(at('verify-banner'), at('verify-input')),
        badgeBeforeForm: before(at('badge-art'), at('verify-input')),
        holderBeforeForm: before(at('verify-holder'), at('verify-input')),
      };
    });
    assert.deepEqual(order, { verdictBeforeForm: true, badgeBeforeForm: true, holderBeforeForm: true });
    assert.equal(await page.getByTestId('badge-art').getAttribute('alt'), `Medallion of the ${BADGES[0]} badge`);
    // links: the holder to the public profile, the badge to its page
    assert.equal(await page.getByTestId('verify-holder-link').getAttribute('href'), `/profile/${userId}`);
    assert.equal(await page.getByTestId('verify-badge-link').getAttribute('href'), `/badges/${g.badgeId}`);
    // a visitor is not offered Add to LinkedIn (it adds to the viewer's own profile)
    assert.equal(await page.getByTestId('linkedin-add').count(), 0);
    assert.equal(await page.getByRole('link', { name: /Add to LinkedIn/ }).count(), 0);
    await axe(page, `verify page at ${w}`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: new URL(`./screenshots/share-verify-first-screen-${w}.png`, import.meta.url).pathname });
    await shot(page, `share-verify-${w}`);
    if (w === 390) {
      await Promise.all([page.waitForURL(`**/profile/${userId}`), page.getByTestId('verify-holder-link').click()]);
      await page.getByRole('heading', { name: holder.name }).first().waitFor();
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('Add to LinkedIn shows to the holder only', async () => {
  const g = grants[BADGES[0]];
  await signIn(browser.context, holder);
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/verify/${g.publicVerificationId}`);
    await hydrated(page, 'VerifyBadge');
    const add = page.getByTestId('linkedin-add');
    await add.waitFor();
    assert.match(await add.getAttribute('href'), /^https:\/\/www\.linkedin\.com\/profile\/add\?startTask=CERTIFICATION_NAME&name=Open\+Source\+Contributor/);
    await axe(page, 'verify page, holder');
    await shot(page, 'share-verify-holder-390');
    await page.close();
  } finally {
    await browser.context.clearCookies();
  }
  // another member is a visitor here
  const other = { name: 'Olive Other', email: `olive-${Date.now()}@example.com`, password: 'olive-password-1' };
  const r = await call(browser.context, '/auth/register', other);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, browser.context.request, other.email, other.password);
  try {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/verify/${g.publicVerificationId}`);
    await hydrated(page, 'VerifyBadge');
    await page.getByTestId('verify-holder-link').waitFor();
    assert.equal(await page.getByTestId('linkedin-add').count(), 0);
    await page.close();
  } finally {
    await browser.context.clearCookies();
  }
});

test('Hall of Fame names and badges are links', async () => {
  for (const [w, h] of [[1280, 900], [390, 844], [320, 640]]) {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.setViewportSize({ width: w, height: h });
    await page.goto(`${server.url}/hall-of-fame`);
    await hydrated(page, 'HallOfFameBoard');
    const name = page.getByTestId('hof-profile-link').filter({ hasText: holder.name }).first();
    await name.waitFor();
    assert.equal(await name.getAttribute('href'), `/profile/${userId}`);
    const hrefs = await page.getByTestId('hof-badge-link').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    for (const b of BADGES) {
      assert.ok(hrefs.some(([t, href]) => t === b && href === `/badges/${grants[b].badgeId}`), `${b} links its page: ${JSON.stringify(hrefs)}`);
    }
    await axe(page, `hall of fame at ${w}`);
    await shot(page, `share-hall-of-fame-${w}`);
    if (w === 1280) {
      const badge = page.getByTestId('hof-badge-link').filter({ hasText: BADGES[1] }).first();
      await Promise.all([page.waitForURL(`**/badges/${grants[BADGES[1]].badgeId}`), badge.click()]);
      await page.getByRole('heading', { level: 1, name: BADGES[1] }).waitFor();
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});
