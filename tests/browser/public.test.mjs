import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, wake, hydrated, shot, watchErrors } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const SUPPORT = 'support@meritmark.example';

// path, screenshot name, a line of the page's real content
const pages = [
  ['/', 'home', 'Professional badges that'],
  ['/about', 'about', 'We make professional skills verifiable'],
  ['/services', 'services', 'Three ways to certify skills'],
  ['/contact', 'contact', 'Send us a message'],
  ['/shippingpolicy', 'policy-shipping', 'Digital delivery'],
  ['/termsandconditions', 'policy-terms', 'Acceptable use'],
  ['/cancellationsandrefunds', 'policy-refunds', 'No cancellations after payment'],
  ['/privacypolicy', 'policy-privacy', 'What we collect'],
  ['/no-such-page', '404', 'Return Home'],
];

test('each public page renders with the shell and no script errors', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  for (const [path, , text] of pages) {
    const res = await page.goto(server.url + path);
    assert.equal(res.status(), path === '/no-such-page' ? 404 : 200, path);
    await page.getByText(text, { exact: false }).first().waitFor();
    assert.ok(await page.locator('footer').getByText(`© ${new Date().getUTCFullYear()}`).isVisible(), `${path}: footer copyright`);
    assert.ok(await page.locator('footer').getByText(SUPPORT).isVisible(), `${path}: footer support address`);
  }
  assert.deepEqual(errors.filter((e) => !e.includes('404')), []);
  await page.close();
});

test('screenshots of every public page at 1280 and 390 px, light and dark, without sideways scrolling', async () => {
  for (const theme of ['light', 'dark']) {
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await page.setViewportSize({ width, height });
      await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      for (const [path, name, text] of pages) {
        await page.goto(server.url + path);
        await page.getByText(text, { exact: false }).first().waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), theme === 'dark', `${path}: ${theme} theme`);
        // every image (the logos, avatars) actually loaded
        await page.waitForFunction(() => [...document.images].every((i) => i.complete));
        const broken = await page.evaluate(() => [...document.images].filter((i) => i.naturalWidth === 0).map((i) => i.src));
        assert.deepEqual(broken, [], `${path}: broken images`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${path} at ${width} px scrolls sideways by ${overflow} px`);
        await shot(page, `public-${name}-${width}-${theme}`);
      }
      assert.deepEqual(errors.filter((e) => !e.includes('404')), [], `${theme} ${width}`);
      await page.close();
    }
  }
  const page = await browser.context.newPage();
  await page.goto(server.url + '/');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  // the header switches between the menu button and the full navigation without overflowing
  for (const width of [768, 1023, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ['/', '/contact', '/cancellationsandrefunds']) {
      await page.goto(server.url + path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} at ${width} px scrolls sideways by ${overflow} px`);
    }
    assert.equal(await page.isVisible('[data-testid="mobile-menu-toggle"]'), width < 1024, `menu button at ${width} px`);
  }
  await page.close();
});

test('home: the logo strip scrolls 11 logos in 30 s and stands still for reduced motion', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/');
  const strip = page.locator('[data-testid="logo-marquee"]');
  const track = strip.locator('.animate-marquee');
  const anim = await track.evaluate((el) => {
    const cs = getComputedStyle(el);
    return { name: cs.animationName, duration: cs.animationDuration, iteration: cs.animationIterationCount };
  });
  assert.deepEqual(anim, { name: 'marquee', duration: '30s', iteration: 'infinite' });
  // 11 distinct logos with alt text; the second copy (for the seamless loop) is hidden from assistive tech
  const named = await strip.locator('img:not([alt=""])').evaluateAll((imgs) => imgs.map((i) => [i.getAttribute('src'), i.alt]));
  assert.equal(named.length, 11);
  assert.equal(new Set(named.map(([src]) => src)).size, 11);
  assert.ok(named.every(([src, alt]) => /^\/static\/dist\/images\/[a-z]+-[0-9A-F]{8}\.svg$/.test(src) && alt.length > 0), JSON.stringify(named));
  assert.equal(await strip.locator('ul[aria-hidden="true"] img').count(), 11);
  // the track really moves
  const x0 = await track.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41);
  await page.waitForTimeout(400);
  const x1 = await track.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41);
  assert.ok(x1 < x0, `marquee did not move: ${x0} -> ${x1}`);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal(await track.evaluate((el) => getComputedStyle(el).animationName), 'none');
  assert.equal(await strip.locator('ul[aria-hidden="true"]').isVisible(), false, 'the duplicate row is hidden when motion is reduced');
  const visible = await strip.locator('ul:not([aria-hidden]) img').evaluateAll((imgs) =>
    imgs.filter((i) => {
      const r = i.getBoundingClientRect();
      return r.left >= 0 && r.right <= window.innerWidth && r.width > 0;
    }).length,
  );
  assert.equal(visible, 11, 'all 11 logos are on screen when the strip stands still');
  await shot(page, 'public-home-reduced-motion-1280');
  await page.close();
});

test('home: the calls to action lead where the spec says', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/');
  const main = page.locator('main');
  assert.equal(await main.getByRole('link', { name: 'Discover Badges' }).getAttribute('href'), '/badges');
  assert.equal(await main.getByRole('link', { name: 'View Hall of Fame' }).getAttribute('href'), '/hall-of-fame');
  assert.equal(await main.getByRole('link', { name: 'Get Started Today' }).getAttribute('href'), '/signup');
  for (const h of ['Choose a badge', 'Prove your skills', 'Get verified']) {
    assert.ok(await main.getByRole('heading', { name: h }).isVisible(), h);
  }
  // a content page loads only the small client entry until the visitor reaches for the header
  const scripts = await page.evaluate(() =>
    performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.js')).map((r) => ({ path: new URL(r.name).pathname, bytes: r.encodedBodySize })),
  );
  assert.ok(scripts.some((s) => /\/entry-client-[A-Z0-9]+\.js$/.test(s.path)), JSON.stringify(scripts));
  assert.ok(scripts.every((s) => !/\/(Header|hydrate)-/.test(s.path)), 'the header is not hydrated before interaction: ' + JSON.stringify(scripts));
  const total = scripts.reduce((n, s) => n + s.bytes, 0);
  assert.ok(total < 8 * 1024, `JavaScript at load: ${total} bytes`);
  await page.close();
});

test('services: Get Started is a mailto link to the support address', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/services');
  const hrefs = await page.locator('main a', { hasText: 'Get Started' }).evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length >= 1);
  for (const h of hrefs) assert.ok(h.startsWith(`mailto:${SUPPORT}?subject=`), h);
  for (const step of ['Consultation', 'Setup', 'Launch', 'Scale']) {
    assert.ok(await page.locator('main').getByRole('heading', { name: step, exact: true }).isVisible(), step);
  }
  await page.close();
});

test('contact: every field is required with inline errors, and sending opens a prefilled mailto', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  // intercept the hand-off to the mail client (an <a href="mailto:..."> click)
  await page.addInitScript(() => {
    window.__mailto = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      if (this.href.startsWith('mailto:')) window.__mailto.push(this.href);
      else click.call(this);
    };
  });
  const requests = [];
  await page.goto(server.url + '/contact');
  await hydrated(page, 'ContactForm');
  page.on('request', (r) => requests.push(r.method() + ' ' + r.url()));
  const form = page.locator('[data-testid="contact-form"]');
  const error = (f) => form.locator(`[data-testid="error-${f}"]`);

  await page.click('[data-testid="contact-submit"]');
  assert.equal(await error('name').textContent(), 'Please enter your name.');
  assert.equal(await error('email').textContent(), 'Please enter your email address.');
  assert.equal(await error('subject').textContent(), 'Please enter a subject.');
  assert.equal(await error('message').textContent(), 'Please enter a message.');
  assert.equal(await page.getAttribute('#contact-name', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('#contact-name', 'aria-describedby'), 'contact-name-error');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'contact-name', 'focus moves to the first invalid field');
  assert.deepEqual(await page.evaluate(() => window.__mailto), []);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'public-contact-errors-1280');

  // whitespace is not an answer; a malformed address is called out
  await page.fill('#contact-name', '   ');
  await page.fill('#contact-email', 'ada@');
  await page.fill('#contact-subject', 'Team badges');
  await page.click('[data-testid="contact-submit"]');
  assert.equal(await error('name').textContent(), 'Please enter your name.');
  assert.equal(await error('email').textContent(), 'Please enter a valid email address.');
  assert.equal(await error('subject').count(), 0);
  assert.equal(await error('message').textContent(), 'Please enter a message.');
  assert.deepEqual(await page.evaluate(() => window.__mailto), []);

  // fixing a field clears its message as you type
  await page.fill('#contact-name', 'Ada Lovelace');
  assert.equal(await error('name').count(), 0);
  await page.fill('#contact-email', 'ada@example.com');
  const message = 'Hello & welcome?\nCan 20 people take the quiz = 100% online?';
  await page.fill('#contact-message', message);
  await page.click('[data-testid="contact-submit"]');
  for (const f of ['name', 'email', 'subject', 'message']) assert.equal(await error(f).count(), 0, f);

  const sent = await page.evaluate(() => window.__mailto);
  const body = `${message}\r\n\r\n--\r\nAda Lovelace\r\nada@example.com`;
  const want = `mailto:${SUPPORT}?subject=${encodeURIComponent('Team badges')}&body=${encodeURIComponent(body)}`;
  assert.deepEqual(sent, [want]);
  const u = new URL(sent[0]);
  assert.equal(u.protocol + u.pathname, `mailto:${SUPPORT}`);
  assert.equal(u.searchParams.get('subject'), 'Team badges');
  assert.equal(u.searchParams.get('body'), body);
  assert.equal(await page.getAttribute('[data-testid="contact-mailto"]', 'href'), want, 'the fallback link reopens the same message');
  assert.ok(await page.locator('[data-testid="contact-sent"]').isVisible());
  assert.equal(page.url(), server.url + '/contact', 'the page stays put');
  assert.deepEqual(requests.filter((r) => !r.includes('/static/')), [], 'no server call');
  assert.deepEqual(errors, []);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'public-contact-sent-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'public-contact-sent-390');
  await page.close();
});

test('theme switches to dark, persists under vite-ui-theme, and applies before paint', async () => {
  const page = await browser.context.newPage();
  await page.goto(server.url + '/');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), false, 'light by default');
  await wake(page, 'Header');
  await page.click('[data-testid="theme-toggle"]');
  await page.click('[data-theme-choice="dark"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('vite-ui-theme')), 'dark');
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
  await page.reload();
  // the inline head script applied it before any module ran
  assert.equal(await page.evaluate(() => document.documentElement.classList.contains('dark')), true);
  await shot(page, 'public-home-dark-1280');
  await wake(page, 'Header');
  await page.click('[data-testid="theme-toggle"]');
  await page.click('[data-theme-choice="system"]');
  assert.equal(await page.evaluate(() => localStorage.getItem('vite-ui-theme')), 'system');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.close();
});

test('the mobile menu opens and lists the navigation', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/');
  assert.equal(await page.locator('#mobile-nav').count(), 0);
  await shot(page, 'public-home-390');
  // the first tap wakes the lazy header and is replayed once React has hydrated it
  await page.click('[data-testid="mobile-menu-toggle"]');
  await page.waitForSelector('#mobile-nav', { timeout: 15000 });
  for (const label of ['Home', 'Badges', 'Services', 'Hall of Fame', 'About', 'Contact', 'Verify']) {
    assert.ok(await page.locator('#mobile-nav').getByText(label, { exact: true }).first().isVisible(), label);
  }
  await shot(page, 'public-mobile-menu-390');
  await page.close();
});
