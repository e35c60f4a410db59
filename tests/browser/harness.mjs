// Shared browser-test harness: starts bin/meritmark on a free port with a fresh data dir
// (SQLite, seeded demo content), and Debian's Chromium through playwright-core.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const screenshotDir = path.join(root, 'tests', 'browser', 'screenshots');
fs.mkdirSync(screenshotDir, { recursive: true });

export const ADMIN_EMAIL = 'admin@meritmark.local';
export const ADMIN_PASSWORD = 'demo-admin-password-for-tests';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Starts the server; returns { url, dataDir, stop(), logs() }. */
export async function startServer(extraEnv = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-browser-'));
  const port = await freePort();
  const env = { ...process.env, MERITMARK_DATA_DIR: dataDir, MERITMARK_ADDR: `127.0.0.1:${port}`, MERITMARK_DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD, ...extraEnv };
  delete env.DATABASE_URL;
  const bin = path.join(root, 'bin', 'meritmark');
  execFileSync(bin, ['seed'], { env, stdio: 'ignore' });
  const proc = spawn(bin, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(url + '/readyz');
      if (r.ok) break;
    } catch {}
    if (i > 200 || proc.exitCode !== null) throw new Error('server did not start:\n' + out);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    dataDir,
    logs: () => out,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium with the house flags and a fresh profile. */
export async function launch() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
  });
  const close = async () => {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, close };
}

/** Waits until the island named is hydrated (data-hydrated set by the client entry). */
export async function hydrated(page, name) {
  await page.waitForSelector(`[data-island="${name}"][data-hydrated="true"]`, { timeout: 15000 });
}

/** Wakes a lazily hydrated island (the header) and waits for it. */
export async function wake(page, name) {
  await page.hover(`[data-island="${name}"]`);
  await hydrated(page, name);
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(screenshotDir, name + '.png'), fullPage: true });
}

/** Collects console errors and page errors, to assert a page ran clean. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/** The seeded catalogue as the public API lists it. */
export async function seededBadges(server) {
  const r = await fetch(server.url + '/backend/api/v1/badges/with-ownership');
  return (await r.json()).badges;
}

/** The id of the badge named name in badges (fails the test when it is missing). */
export function badgeIdOf(badges, name) {
  const b = badges.find((x) => x.name === name);
  if (!b) throw new Error(`seeded badge ${name} not found`);
  return b._id;
}

let userSeq = 0;
/** Registers a new member from the browser context, so the session cookie lands in it;
 * returns the e-mail used. */
export async function signUp(server, page, name, prefix = 'member') {
  const email = `${prefix}-${Date.now()}-${++userSeq}@example.com`;
  const r = await page.request.post(server.url + '/backend/api/v1/auth/register', {
    data: { name, email, password: `${prefix}-password-1` },
    headers: { Origin: server.url },
  });
  if (r.status() !== 201) throw new Error(`sign-up answered ${r.status()}: ${await r.text()}`);
  return email;
}
