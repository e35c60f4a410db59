// XSS probes through the fields that only the browser renders (the server-rendered pages
// are covered by app/pagetest/xss_test.go with the real renderer): quiz question text and
// options in the quiz screen, coupon names and descriptions in the admin's coupon tab,
// questions in the question bank (its table, side panel and cards), a member's name in the
// header menu and the admin's user list. A probe fails when a dialog opens, an injected
// element or handler exists in the DOM, or the payload is not shown as the literal text typed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, hydrated, shot, wake, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const API = '/backend/api/v1';
const PAYLOADS = ['<img src=x onerror=alert(1)>', '"><svg onload=alert(2)>', '</script><script>alert(3)</script>', '{{7*7}}'];
const evil = (marker) => `${marker} ${PAYLOADS.join(' ')}`;

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function call(ctx, method, path, data) {
  const r = await ctx.request.fetch(server.url + API + path, { method, data, headers: { Origin: server.url } });
  const body = await r.json().catch(() => null);
  assert.ok(r.status() < 300, `${method} ${path}: ${r.status()} ${JSON.stringify(body)}`);
  return body;
}

/** Everything in the page that would have run script: dialogs seen, injected nodes. */
async function injected(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (a.name.toLowerCase().startsWith('on')) out.push(`<${el.tagName.toLowerCase()} ${a.name}>`);
        if (['href', 'src', 'action', 'formaction'].includes(a.name) && /^\s*(javascript|vbscript|data:text\/html)/i.test(a.value)) out.push(`<${el.tagName.toLowerCase()} ${a.name}=${a.value}>`);
      }
    }
    // executable scripts only: JSON props carry the payloads as (escaped) data
    for (const s of document.scripts) if ((!s.type || /javascript|module/i.test(s.type)) && s.text.includes('alert(')) out.push('a script with alert(');
    if (document.querySelector('img[src="x"]')) out.push('an <img src=x>');
    return out;
  });
}

async function probe(page, what, marker, dialogs) {
  assert.deepEqual(await injected(page), [], `${what}: injected markup`);
  assert.deepEqual(dialogs, [], `${what}: a dialog opened`);
  const text = await page.evaluate(() => document.body.innerText);
  assert.ok(text.includes(evil(marker)), `${what}: the payload is not shown as typed (${marker})`);
}

test('payloads in quiz questions, coupons and names stay text in every client-rendered view', async () => {
  const admin = browser.context;
  await admin.clearCookies();
  await call(admin, 'POST', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });

  // an admin's skill badge with a hostile quiz question, and a hostile coupon
  const b = await call(admin, 'POST', '/badge-management/badges', { name: 'XSS Probe', description: 'd', category: 'Design', type: 'skill', level: 'beginner', price: 0, criteria: 'c' });
  const badgeId = (b.badge || b)._id;
  const quiz = await call(admin, 'POST', `/admin/badges/${badgeId}/quiz`, {});
  const quizId = (quiz.quiz || quiz)._id;
  await call(admin, 'POST', '/admin/questions', { text: evil('QT'), options: [evil('OA'), evil('OB')], correctIndex: 0, quizId });
  await call(admin, 'PATCH', `/badge-management/badges/${badgeId}/toggle`, {});
  await call(admin, 'POST', '/coupons', { code: 'XSSPROBE', name: evil('CN'), description: evil('CD') });

  const page = await admin.newPage();
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: 'Coupons' }).click();
  // the table (wide screens), then the cards
  await page.locator('[data-testid="coupon-row"][data-code="XSSPROBE"]').waitFor();
  await probe(page, 'admin coupons table', 'CN', dialogs);
  await page.getByRole('tabpanel').getByTestId('view-cards').click();
  await page.locator('[data-testid="coupon"][data-code="XSSPROBE"]').waitFor();
  await probe(page, 'admin coupons', 'CN', dialogs);
  await page.getByRole('tab', { name: 'Quiz Management' }).click();
  await page.getByRole('tab', { name: 'Question Bank' }).click();
  await page.getByTestId('question-bank').waitFor();
  // the table (wide screens), the row's side panel with the options, then the cards
  const qrow = page.getByTestId('bank-question-row').filter({ hasText: 'QT' });
  await qrow.waitFor();
  await probe(page, 'question bank table', 'QT', dialogs);
  await qrow.getByTestId('open-row').click();
  await page.getByTestId('bank-question-panel').waitFor();
  await probe(page, 'question side panel', 'QT', dialogs);
  await probe(page, 'question side panel', 'OA', dialogs);
  await page.keyboard.press('Escape');
  await page.getByTestId('bank-question-panel').waitFor({ state: 'detached' });
  await page.getByTestId('question-bank').getByTestId('view-cards').click();
  await page.getByTestId('bank-question').filter({ hasText: 'QT' }).waitFor();
  await probe(page, 'question bank', 'QT', dialogs);
  await shot(page, 'xss-admin-question-bank-1280');
  await page.close();

  // a member with a hostile name takes the quiz
  await admin.clearCookies();
  const xssEmail = `xss-${Date.now()}@example.com`;
  await call(admin, 'POST', '/auth/register', { name: 'NAME ' + PAYLOADS.slice(0, 2).join(' '), email: xssEmail, password: 'xss-password-1' });
  await confirmSignup(server, admin.request, xssEmail, 'xss-password-1');
  const mp = await admin.newPage();
  const mdialogs = [];
  mp.on('dialog', (d) => {
    mdialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await mp.goto(`${server.url}/quiz/${badgeId}`);
  await hydrated(mp, 'QuizRunner');
  await mp.getByTestId('quiz-begin').click(); // the start screen: Start Quiz starts the attempt
  await mp.getByTestId('quiz-question').waitFor();
  await probe(mp, 'quiz screen', 'QT', mdialogs);
  const options = (await mp.locator('fieldset label').allInnerTexts()).map((t) => t.trim());
  assert.ok(options.includes(evil('OA')) && options.includes(evil('OB')), `options shown as typed: ${options}`);
  await shot(mp, 'xss-quiz-1280');
  // the header's user menu, opened
  await wake(mp, 'Header');
  await mp.locator('[data-island="Header"] button[aria-haspopup]').first().click().catch(() => {});
  assert.deepEqual(await injected(mp), [], 'header menu: injected markup');
  assert.deepEqual(mdialogs, []);
  await mp.close();
});
