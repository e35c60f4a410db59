// Webhooks end to end from the admin dashboard: the admin adds an endpoint (a receiver of
// this test on loopback, allowed on an http development origin) for badge.changed, copies
// its one-time secret, changes a badge, and the receiver gets a delivery whose signature
// the standardwebhooks package (an implementation this project did not write) accepts and
// whose altered copy it refuses; the Deliveries list shows it succeeded. axe checks the tab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, shot, watchErrors, seededBadges, ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.mjs';

const API = '/backend/api/v1';
let server, browser, receiver;
const received = [];

before(async () => {
  server = await startServer();
  browser = await launch();
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, path: req.url });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  receiver?.close();
});

test('an admin adds a webhook endpoint and a badge change is delivered, signed', async () => {
  const ctx = browser.context;
  const login = await ctx.request.post(server.url + API + '/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, headers: { Origin: server.url } });
  assert.equal(login.status(), 200);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: 'Webhooks' }).click();
  await page.getByText('No webhook endpoints').waitFor();

  const url = `http://127.0.0.1:${receiver.address().port}/meritmark`;
  await page.getByTestId('add-webhook').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Endpoint URL').fill('ftp://nope');
  await dialog.getByRole('checkbox', { name: 'badge.changed' }).check();
  await dialog.getByTestId('add-webhook-submit').click();
  // a bad URL: the message stays beside the form, the dialog and its fields stay
  await dialog.getByRole('alert').filter({ hasText: 'full URL' }).waitFor();
  await dialog.getByLabel('Endpoint URL').fill(url);
  await dialog.getByLabel('Description (optional)').fill('Test receiver');
  await dialog.getByTestId('add-webhook-submit').click();
  const secretEl = page.getByTestId('webhook-secret');
  await secretEl.waitFor();
  const secret = (await secretEl.textContent()).trim();
  assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
  await shot(page, 'webhooks-secret');
  await page.getByRole('button', { name: 'Done' }).click();
  const card = page.getByTestId('webhook-endpoint');
  await card.getByText(url).waitFor();
  assert.equal(await page.getByTestId('webhook-secret').count(), 0, 'the secret is shown only once');

  // a badge change (the admin toggles a badge off and on again)
  const [badge] = await seededBadges(server);
  for (let i = 0; i < 2; i++) {
    const r = await ctx.request.patch(server.url + API + `/badge-management/badges/${badge._id}/toggle`, { headers: { Origin: server.url } });
    assert.equal(r.status(), 200, await r.text());
  }
  const deadline = Date.now() + 15000;
  while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.equal(received.length, 2, 'two deliveries arrived');

  const wh = new Webhook(secret);
  for (const d of received) {
    assert.equal(d.path, '/meritmark');
    const event = wh.verify(d.body, d.headers); // throws when the signature is wrong or stale
    assert.equal(event.type, 'badge.changed');
    assert.equal(event.data.id, badge._id);
    assert.match(d.headers['webhook-id'], /^evt_/);
  }
  assert.notEqual(received[0].headers['webhook-id'], received[1].headers['webhook-id']);
  assert.throws(() => wh.verify(received[0].body.replace('badge.changed', 'grant.revoked'), received[0].headers), 'an altered body is refused');
  assert.throws(() => new Webhook('whsec_' + Buffer.from('another secret key!!').toString('base64')).verify(received[0].body, received[0].headers), 'another secret is refused');

  // the Deliveries list shows both, succeeded (204)
  await card.getByRole('button', { name: 'Deliveries' }).click();
  const rows = page.getByTestId('deliveries').locator('tbody tr');
  await rows.nth(1).waitFor();
  assert.equal(await rows.count(), 2);
  for (let i = 0; i < 2; i++) {
    const text = await rows.nth(i).textContent();
    assert.match(text, /badge\.changed/);
    assert.match(text, /succeeded/);
    assert.match(text, /204/);
  }
  await shot(page, 'webhooks-deliveries');
  const axe = await new AxeBuilder({ page }).include('[role="tabpanel"]').analyze();
  assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`), []);

  // pause: a change while paused is not sent
  await card.getByRole('button', { name: 'Pause' }).click();
  await card.getByText('Paused').waitFor();
  const r = await ctx.request.patch(server.url + API + `/badge-management/badges/${badge._id}/toggle`, { headers: { Origin: server.url } });
  assert.equal(r.status(), 200);
  await new Promise((res) => setTimeout(res, 1500));
  assert.equal(received.length, 2, 'a paused endpoint received a delivery');
  await card.getByRole('button', { name: 'Resume' }).click();
  const until = Date.now() + 15000;
  while (received.length < 3 && Date.now() < until) await new Promise((res) => setTimeout(res, 100));
  assert.equal(received.length, 3, 'the queued delivery arrived after resuming');
  // the one refused URL above is logged by the browser as a 400; nothing else went wrong
  assert.deepEqual(errors.filter((e) => !/status of 400/.test(e)), []);
  assert.equal(errors.length, 1);
  await page.close();
});
