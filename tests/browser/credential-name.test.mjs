// The holder's choice to be named in their credentials (issue 36, item 10): the profile's
// "Name in credentials" card switches it on and off, says it applies to credentials issued
// from now on, keeps it across a reload, and passes axe in both themes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, settled, shot, watchErrors, signUp } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let server, browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the profile switches the name in new credentials on and off, and says for which', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signUp(server, page, 'Grace Hopper', 'grace');
  await page.goto(`${server.url}/profile`);
  await hydrated(page, 'Profile');
  const card = page.getByTestId('credential-name');
  const box = card.getByLabel('Show my name in my credentials');
  assert.equal(await box.isChecked(), false, 'off by default');
  assert.match(await card.innerText(), /Applies to credentials issued from now on .*“Grace Hopper”.*Credentials issued before keep what they say\./s);

  await box.check();
  await page.getByText('Credentials issued from now on show your name. Credentials issued before keep what they say.').first().waitFor();
  assert.equal(await box.isChecked(), true);
  const me = await (await page.request.get(`${server.url}/backend/api/v1/auth/me`)).json();
  assert.equal((me.user ?? me).nameInCredentials, true, JSON.stringify(me));

  await page.reload();
  await hydrated(page, 'Profile');
  assert.equal(await box.isChecked(), true, 'the choice is kept');
  await card.scrollIntoViewIfNeeded();
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
    await settled(page);
    const res = await new AxeBuilder({ page, axeSource }).include('[data-testid="credential-name"]').withTags(TAGS).analyze();
    assert.deepEqual(res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), [], `axe (${theme})`);
    await card.screenshot({ path: new URL(`./screenshots/profile-credential-name-${theme}.png`, import.meta.url).pathname });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await shot(page, 'profile-credential-name-1280');

  await box.uncheck();
  await page.getByText('Credentials issued from now on do not show your name. Credentials issued before keep what they say.').first().waitFor();
  await page.reload();
  await hydrated(page, 'Profile');
  assert.equal(await box.isChecked(), false);
  assert.deepEqual(errors, []);
  await page.close();
});
