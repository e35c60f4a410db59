// Deployment safety in the real binary: serve refuses the PayPal simulator on an https
// origin unless MERITMARK_PAYPAL_SIMULATOR=1, and a public listen without a base URL;
// with the simulator allowed every page shows the banner. Screenshots go to
// tests/browser/screenshots/deploy-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, shot } from './harness.mjs';

const bin = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'bin', 'meritmark');

/** Runs bin/meritmark with env; resolves { code, out }. */
function run(args, env) {
  return new Promise((resolve) => {
    execFile(bin, args, { env: { ...process.env, ...env }, timeout: 30000 }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, out: stdout + stderr });
    });
  });
}

let server, browser;
before(async () => {
  server = await startServer({ MERITMARK_BASE_URL: 'https://trial.meritmark.example', MERITMARK_PAYPAL_SIMULATOR: '1' });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('serve refuses unsafe starts with a clear message', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-deploy-'));
  try {
    const sim = await run(['serve'], { MERITMARK_DATA_DIR: dataDir, MERITMARK_ADDR: '127.0.0.1:0', MERITMARK_BASE_URL: 'https://badges.example', DATABASE_URL: '' });
    assert.equal(sim.code, 1);
    assert.match(sim.out, /MERITMARK_PAYPAL_SIMULATOR=1/);
    const pub = await run(['serve'], { MERITMARK_DATA_DIR: dataDir, MERITMARK_ADDR: '0.0.0.0:0', MERITMARK_BASE_URL: '', DATABASE_URL: '' });
    assert.equal(pub.code, 1);
    assert.match(pub.out, /MERITMARK_BASE_URL is not set, and MERITMARK_ADDR "0.0.0.0:0" accepts connections from other machines/);
    const check = await run(['check'], { MERITMARK_DATA_DIR: dataDir, MERITMARK_BASE_URL: '', DATABASE_URL: '' });
    assert.equal(check.code, 1);
    assert.match(check.out, /MERITMARK_BASE_URL: not set/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the simulator banner shows on every page, at 390 and 1440 px', async () => {
  const page = await browser.context.newPage();
  for (const p of ['/', '/badges', '/login']) {
    const res = await page.goto(server.url + p);
    assert.equal(res.headers()['strict-transport-security'], 'max-age=63072000; includeSubDomains');
    const banner = page.locator('[data-testid="simulator-banner"]');
    await banner.waitFor();
    assert.match(await banner.innerText(), /payments go to a PayPal simulator/);
  }
  await page.goto(server.url + '/');
  await page.setViewportSize({ width: 390, height: 800 });
  await shot(page, 'deploy-banner-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'deploy-banner-1440');
  await page.close();
});
