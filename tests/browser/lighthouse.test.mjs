// Lighthouse (13.x, through chrome-launcher on Debian's Chromium) accessibility and SEO on
// the public pages a search engine or a visitor lands on: home, the catalogue, a badge's
// page, the verify page (empty and with a real grant), the Hall of Fame and a public
// profile; mobile and desktop. Every score must be 100; the scores are printed (LH ...
// lines) so CI logs carry them. No performance run, so throttling is left simulated: that
// only changes how performance figures are computed, never how the page loads, and it keeps
// Lighthouse's quiet windows at 1 s (an observed method such as 'provided' raises each of
// the four to 5.25 s: 14 s a run instead of about 5). Lighthouse runs offline: every request
// it makes goes to our server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { request } from 'playwright-core';
import { startServer, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const API = '/backend/api/v1';
const CATEGORIES = ['accessibility', 'seo'];
let server, chrome, userDataDir, api;
const urls = [];

before(async () => {
  server = await startServer();
  api = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { Origin: server.url } });
  const badges = {};
  for (const b of (await (await fetch(server.url + API + '/badges/with-ownership')).json()).badges) badges[b.name] = b._id;
  // a member holding a badge: the verify page of a real grant and a public profile
  const email = `lh-${Date.now()}@example.com`;
  const password = 'lighthouse-password-1';
  let r = await api.post(API + '/auth/register', { data: { name: 'Lena Lighthouse', email, password } });
  assert.equal(r.status(), 201, await r.text());
  await confirmSignup(server, api, email, password);
  const memberId = (await (await api.get(API + '/auth/me')).json()).user._id;
  r = await api.post(API + '/applications', {
    multipart: { badgeId: badges['Team Leadership'], type: 'proof', fullName: 'Lena Lighthouse', position: 'Engineer', linkedin: 'https://linkedin.com/in/lena', portfolio: 'https://lena.example', description: 'Evidence.' },
  });
  assert.equal(r.status(), 201, await r.text());
  const application = (await r.json()).application;
  r = await api.post(API + '/payments', { data: { badgeId: badges['Team Leadership'], amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' } });
  assert.equal(r.status(), 201, await r.text());
  await api.post(API + '/auth/logout', { data: {} });
  r = await api.post(API + '/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  assert.equal(r.status(), 200, await r.text());
  r = await api.put(API + `/admin/applications/${application._id}/approve`, { data: {} });
  assert.equal(r.status(), 200, await r.text());
  const publicId = (await r.json()).application.grant.publicVerificationId;
  urls.push('/', '/badges', '/badges/' + badges['React Developer'], '/verify-badge', '/verify/' + publicId, '/hall-of-fame', '/profile/' + memberId);

  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-lighthouse-'));
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    userDataDir,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    logLevel: 'silent',
    // Chromium can take over half a minute to open its port on a loaded machine
    maxConnectionRetries: 240,
  });
});

after(async () => {
  await api?.dispose();
  await chrome?.kill();
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  await server?.stop();
});

const flags = () => ({
  port: chrome.port,
  output: 'json',
  logLevel: 'error',
  onlyCategories: CATEGORIES,
  throttlingMethod: 'simulate',
  disableFullPageScreenshot: true,
  maxWaitForLoad: 20000,
});

// one test per form factor, so each stays well inside the per-test time limit
for (const [formFactor, config] of [['mobile', undefined], ['desktop', desktopConfig]]) test(`Lighthouse accessibility and SEO are 100 on the public pages (${formFactor})`, async () => {
  const started = Date.now();
  const failures = [];
  {
    for (const u of urls.filter((x) => !process.env.LH_ONLY || new RegExp(process.env.LH_ONLY).test(x))) {
      const { lhr } = await lighthouse(server.url + u, flags(), config);
      assert.equal(lhr.runtimeError, undefined, `${u}: ${JSON.stringify(lhr.runtimeError)}`);
      const scores = CATEGORIES.map((c) => Math.round(lhr.categories[c].score * 100));
      console.log(`LH ${formFactor.padEnd(7)} ${u.padEnd(40)} accessibility ${scores[0]} seo ${scores[1]}`);
      for (const c of CATEGORIES) {
        if (lhr.categories[c].score === 1) continue;
        // the failing audits, with a node or two each, so the fix is obvious from the log
        for (const ref of lhr.categories[c].auditRefs) {
          const a = lhr.audits[ref.id];
          if (ref.weight === 0 || a.score === null || a.score === 1) continue;
          const items = (a.details?.items || []).slice(0, 2).map((i) => i.node?.snippet || i.source?.url || i.url || JSON.stringify(i).slice(0, 120));
          failures.push(`${formFactor} ${u} ${c}: ${a.id} (${a.title}) ${items.join(' | ')}`);
          console.log('LH FAIL', failures[failures.length - 1]);
        }
      }
    }
  }
  console.log(`LH ${formFactor}: ${urls.length} runs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.deepEqual(failures, [], failures.join('\n'));
});

// LH_PERF=1: Lighthouse mobile performance on the same pages, three runs each, the median
// printed with its total blocking time and script bytes (LH perf ... lines);
// LH_PERF=strict also fails a page whose median is under 95 (issue 33's budget). Off by
// default: the score depends on the machine's load, which a shared CI runner cannot promise.
if (process.env.LH_PERF) test('Lighthouse mobile performance of the public pages (median of 3)', async () => {
  const low = [];
  for (const u of urls.filter((x) => !process.env.LH_ONLY || new RegExp(process.env.LH_ONLY).test(x))) {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const { lhr } = await lighthouse(server.url + u, { ...flags(), onlyCategories: ['performance'] });
      assert.equal(lhr.runtimeError, undefined, `${u}: ${JSON.stringify(lhr.runtimeError)}`);
      const script = (lhr.audits['network-requests'].details?.items || []).filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize || 0), 0);
      const ms = (id) => Math.round(lhr.audits[id].numericValue);
      runs.push({ score: Math.round(lhr.categories.performance.score * 100), tbt: ms('total-blocking-time'), fcp: ms('first-contentful-paint'), lcp: ms('largest-contentful-paint'), si: ms('speed-index'), script });
    }
    runs.sort((a, b) => a.score - b.score);
    const m = runs[1];
    console.log(`LH perf mobile ${u.padEnd(40)} ${m.score} (runs ${runs.map((r) => r.score).join(', ')}) FCP ${m.fcp} LCP ${m.lcp} SI ${m.si} TBT ${m.tbt} ms, script ${(m.script / 1024).toFixed(1)} KiB`);
    if (m.score < 95) low.push(`${u}: ${m.score}`);
  }
  if (process.env.LH_PERF === 'strict') assert.deepEqual(low, [], low.join('\n'));
});
