// Shared browser-test harness: starts bin/meritmark on a free port with a fresh data dir
// (SQLite, seeded demo content), and Debian's Chromium through playwright-core.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { startSMTP } from './smtp.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const screenshotDir = path.join(root, 'tests', 'browser', 'screenshots');
fs.mkdirSync(screenshotDir, { recursive: true });

export const ADMIN_EMAIL = 'admin@meritmark.local';
export const ADMIN_PASSWORD = 'demo-admin-password-for-tests';

/** A free TCP port on 127.0.0.1. */
export function freePort() {
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
  // mail goes to an SMTP sink of our own unless the test brings one (server.smtp)
  const smtp = extraEnv.MERITMARK_SMTP_URL ? null : await startSMTP();
  const env = { ...process.env, MERITMARK_DATA_DIR: dataDir, MERITMARK_ADDR: `127.0.0.1:${port}`, MERITMARK_DEMO_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...(smtp ? { MERITMARK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } : {}), ...extraEnv };
  delete env.DATABASE_URL;
  const bin = path.join(root, 'bin', 'meritmark');
  execFileSync(bin, ['seed'], { env, stdio: 'ignore' });
  // the seeded admin must choose a new password at first sign-in; tests sign in with the
  // harness's own, set as an operator would, and without two-step sign-in (a test of that
  // first sign-in keeps both)
  if (!env.MM_KEEP_SEEDED_ADMIN) {
    execFileSync(bin, ['create-admin', '--email', ADMIN_EMAIL, '--password', ADMIN_PASSWORD, '--name', 'Demo Admin'], { env, stdio: 'ignore' });
    env.MERITMARK_INSECURE_ADMIN_WITHOUT_2FA = '1';
  }
  delete env.MM_KEEP_SEEDED_ADMIN;
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
    smtp,
    logs: () => out,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      await smtp?.close();
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

/**
 * Where the focus is, by one attribute of the focused element ('id', 'data-testid',
 * 'aria-label', or 'text' for its trimmed text). Dialogs and menus give the focus back a
 * frame or two after they unmount, so this waits (up to 3 s) for want before reading.
 */
export async function focused(page, attr, want) {
  const read = ([a]) => {
    const el = document.activeElement;
    if (!el) return null;
    return a === 'text' ? el.textContent?.trim() ?? null : el.getAttribute(a);
  };
  await page.waitForFunction(([a, w]) => {
    const el = document.activeElement;
    if (!el) return false;
    return (a === 'text' ? el.textContent?.trim() : el.getAttribute(a)) === w;
  }, [attr, want], { timeout: 3000 }).catch(() => {});
  return page.evaluate(read, [attr]);
}

/**
 * Waits two frames, then for every finite CSS transition and animation to end: a theme
 * switch or a dialog's fade-in, read mid-way by axe, gives colours that are never shown.
 */
export async function settled(page) {
  await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, 3000))]);
  });
}

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Fails unless axe finds nothing on the page as it stands, in the light theme and then the
 * dark one (the class the theme script sets; transitions settled first); back to light.
 */
export async function axeBothThemes(page, what) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
    await settled(page);
    const res = await new AxeBuilder({ page, axeSource }).withTags(AXE_TAGS).analyze();
    const found = res.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
    if (found.length) throw new Error(`axe on ${what} (${theme}):\n${found.join('\n')}`);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(screenshotDir, name + '.png'), fullPage: true });
}

/** Collects console errors and page errors, to assert a page ran clean. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    // a recoverable hydration error is reported as a warning (views/lib/hydrate.tsx): the
    // server's HTML was thrown away, which is a defect too
    if (m.type() === 'error' || (m.type() === 'warning' && m.text().startsWith('hydration:'))) errors.push(m.text());
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
  await confirmSignup(server, page.request, email, `${prefix}-password-1`);
  return email;
}

/** After POST /auth/register from request (a page's or a context's request): signs in, as
 * the sign-up page does, and confirms the address with the link mailed to server.smtp. */
export async function confirmSignup(server, request, email, password) {
  const headers = { Origin: server.url };
  const login = await request.post(server.url + '/backend/api/v1/auth/login', { data: { email, password }, headers });
  if (login.status() !== 200) throw new Error(`sign-in after sign-up answered ${login.status()}: ${await login.text()}`);
  const token = await confirmationToken(server, email);
  const v = await request.post(server.url + '/backend/api/v1/auth/verify-email', { data: { token }, headers });
  if (v.status() !== 200) throw new Error(`confirming ${email} answered ${v.status()}: ${await v.text()}`);
}

/** A message's text with its quoted-printable bodies decoded (soft line breaks joined,
 * =XX decoded; the links we look for are ASCII). */
export function mailBody(data) {
  return data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** The token of the newest confirmation link mailed to email. */
export async function confirmationToken(server, email) {
  if (!server.smtp) throw new Error('the server was started with its own SMTP sink: read the link from it');
  const deadline = Date.now() + 20000;
  for (;;) {
    const m = server.smtp.messages.filter((x) => x.to.includes(email) && /Subject: Confirm your Meritmark email address/.test(x.data));
    const link = m.length && (/(https?:\/\/[^\s"<>]+\/verify-email\?token=[^\s"<>]+)/.exec(mailBody(m[m.length - 1].data)) || [])[1];
    if (link) return new URL(link).searchParams.get('token');
    if (Date.now() > deadline) throw new Error('no confirmation mail to ' + email);
    await new Promise((r) => setTimeout(r, 100));
  }
}
