// Member data rights end to end: on the profile's "Your data" section a member downloads
// their data (a dated zip) and deletes the account: the dialog names the consequences,
// takes the focus, refuses a wrong password with a message read out (role alert), and a
// right one ends the session and lands on the home page with a notice.
// Screenshots: tests/browser/screenshots/data-rights-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, hydrated, shot, signUp, focused, watchErrors } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('a member downloads their data, then deletes the account', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const email = await signUp(server, page, 'Dana Data', 'rights');
  await page.goto(server.url + '/profile');
  await hydrated(page, 'AccountData');
  const section = page.getByTestId('your-data');
  await section.scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'data-rights-profile-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'data-rights-profile-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // the download: a dated zip
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-data').click()]);
  assert.match(download.suggestedFilename(), /^meritmark-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = await download.path();
  const head = fs.readFileSync(file).subarray(0, 2).toString();
  assert.equal(head, 'PK', 'the download is a zip');
  for (const name of ['README.txt', 'profile.json', 'grants.json']) assert.ok(fs.readFileSync(file).includes(Buffer.from(name)), `the zip lists ${name}`);

  // the dialog: consequences named, focus inside, a wrong password refused
  await page.getByTestId('delete-account').click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /cannot be undone/);
  assert.equal(await focused(page, 'id', 'delete-password'), 'delete-password');
  await page.fill('#delete-password', 'not-my-password');
  await page.getByTestId('confirm-delete').click();
  const alert = page.getByTestId('delete-error');
  await alert.waitFor();
  assert.equal((await alert.textContent()).trim(), 'Your current password is not correct.');
  assert.equal(await alert.getAttribute('role'), 'alert');
  await shot(page, 'data-rights-dialog-error');

  // the right password: home page, a notice, signed out
  await page.fill('#delete-password', 'rights-password-1');
  await Promise.all([page.waitForURL(server.url + '/'), page.getByTestId('confirm-delete').click()]);
  const notice = page.getByRole('status').filter({ hasText: 'Account deleted' });
  await notice.waitFor({ timeout: 10000 });
  await shot(page, 'data-rights-deleted-home');
  const me = await page.request.get(server.url + '/backend/api/v1/auth/me');
  assert.equal(me.status(), 401);
  const login = await page.request.post(server.url + '/backend/api/v1/auth/login', {
    data: { email, password: 'rights-password-1' },
    headers: { Origin: server.url },
  });
  assert.notEqual(login.status(), 200, 'a deleted account cannot sign in');
  assert.deepEqual(errors.filter((e) => !/status of (400|401)/.test(e)) /* the refused password, and /auth/me once signed out */, []);
  await page.close();
});
