// A signed-in member's view of a page that shows members what it shows visitors (home, the
// Hall of Fame) is made from the visitor's held copy with the member's own header
// (pagecache.SameForMembers, web.Site.ForViewer). In a real browser: the member's header is
// on that page, hydrates without a mismatch, and its menu works; the server counts the page
// as made from the held copy (meritmark_pagecache_member_pages_total).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, wake, shot, watchErrors, signUp, freePort, axeBothThemes } from './harness.mjs';

let server, browser, metrics;

before(async () => {
  metrics = `127.0.0.1:${await freePort()}`;
  server = await startServer({ MERITMARK_METRICS_ADDR: metrics });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function memberPages() {
  const text = await (await fetch(`http://${metrics}/metrics`)).text();
  const m = text.match(/^meritmark_pagecache_member_pages_total (\d+)/m);
  assert.ok(m, 'no member_pages_total in the metrics');
  return Number(m[1]);
}

test("a member's home and Hall of Fame: the visitors' copies with the member's header, hydrated", async () => {
  // a visitor's views put both pages in the cache
  for (const p of ['/', '/hall-of-fame']) {
    const r = await fetch(server.url + p, { headers: { Accept: 'text/html' } });
    assert.equal(r.status, 200);
  }
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signUp(server, page, 'Mira Member', 'memberpages');
  for (const [p, name] of [['/hall-of-fame', 'hall-of-fame'], ['/', 'home']]) {
    const before = await memberPages();
    const r = await page.goto(server.url + p);
    assert.equal(r.status(), 200);
    assert.equal(await memberPages(), before + 1, `${p}: not made from the visitor's copy`);
    assert.match(r.headers()['cache-control'] || '', /no-store/, `${p}: a signed-in answer must not be stored`);
    // the member's header, server-rendered, then hydrated
    assert.equal(await page.getByTestId('header-initials').first().innerText(), 'MM');
    await wake(page, 'Header');
    await page.getByTestId('user-menu').click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    assert.ok(await menu.getByText('Mira Member').first().isVisible(), `${p}: the menu names the member`);
    await axeBothThemes(page, `${p} as a member, its menu open`);
    await shot(page, `member-pages-${name}-1280`);
    await page.keyboard.press('Escape');
  }
  assert.deepEqual(errors, []);
  await page.close();
});
