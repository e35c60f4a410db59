// Integrity review end to end (issue 35, item 3): the admin sets a speed floor on the seeded
// React Developer quiz; a member passes it in a second (flagged), sees on the result screen
// that the attempt is being reviewed (no reason shown), adds a statement, applies and pays
// with the free-grant coupon; the admin's approval is refused while the attempt is held,
// View Details lists the reason and the statement, the admin clears it and approves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import { startServer, launch, hydrated, shot, watchErrors, signUp, seededBadges, badgeIdOf, ADMIN_EMAIL, ADMIN_PASSWORD } from './harness.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const API = '/backend/api/v1';
const REACT = {
  'Which hook keeps a value between renders without causing a re-render when it changes?': 'useRef',
  'What does React use the key prop on list items for?': 'Matching items between renders',
  'When does an effect with an empty dependency array run?': 'Only after the first render (mount)',
  'Which API renders React on the server to an HTML string?': 'renderToString',
  'What is the main benefit of lifting state up?': 'Sharing one source of truth between components',
  'Which value is NOT a valid return from a component?': 'A plain object',
};
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const call = async (req, method, p, data, extra = {}) => {
  const r = await req[method](server.url + API + p, { data, headers: { Origin: server.url }, ...extra });
  return { status: r.status(), body: await r.json().catch(() => null) };
};

async function axe(page, label) {
  const res = await new AxeBuilder({ page, axeSource }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  assert.deepEqual(res.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`), []);
}

test('a flagged pass is reviewed: the member adds a statement, the admin clears it and approves', async () => {
  const ctx = browser.context;
  const badgeId = badgeIdOf(await seededBadges(server), 'React Developer');
  // the admin sets a 30-second floor on the quiz
  await ctx.clearCookies();
  let r = await call(ctx.request, 'post', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200);
  r = await call(ctx.request, 'get', '/admin/quizzes');
  const quiz = (r.body.quizzes || r.body).find((q) => (q.badge?._id || q.badgeId) === badgeId);
  assert.ok(quiz, 'the React quiz');
  r = await call(ctx.request, 'put', `/admin/quizzes/${quiz._id}`, { minItemSeconds: 30 });
  assert.equal(r.status, 200, JSON.stringify(r.body));

  // a member passes it at once
  await ctx.clearCookies();
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await signUp(server, page, 'Grace Fast', 'integrity');
  r = await call(page.request, 'post', `/quiz/badge/${badgeId}/start`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const attemptId = r.body.attempt._id;
  const answers = Object.fromEntries(r.body.questions.map((q) => [q._id, q.options.indexOf(REACT[q.text])]));
  r = await call(page.request, 'post', `/quiz/attempts/${attemptId}/submit`, { answers });
  assert.equal(r.body.passed, true);
  assert.equal(r.body.integrity.status, 'review');
  assert.ok(!JSON.stringify(r.body).includes('floor'), 'the member sees a reason');

  // the result screen says so and takes a statement
  await page.goto(`${server.url}/quiz/${badgeId}?attempt=${attemptId}`);
  await hydrated(page, 'QuizRunner');
  const note = page.getByTestId('quiz-integrity');
  await note.waitFor();
  assert.equal(await note.getAttribute('data-status'), 'review');
  assert.match(await note.innerText(), /Your attempt is being reviewed/);
  await axe(page, 'result under review');
  await page.getByTestId('integrity-statement').fill('I wrote these hooks every day for two years.');
  await page.getByTestId('integrity-save').click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Statement saved' }).waitFor();
  await shot(page, 'integrity-result-1280');
  await page.reload();
  await hydrated(page, 'QuizRunner');
  assert.equal(await page.getByTestId('integrity-statement').inputValue(), 'I wrote these hooks every day for two years.');

  // apply and pay with the free-grant coupon
  const sub = await page.request.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId, type: 'skill', fullName: 'Grace Fast', position: 'Engineer', linkedin: 'https://linkedin.com/in/grace',
      portfolio: 'https://grace.example', resume: { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF },
      profilePic: { name: 'me.png', mimeType: 'image/png', buffer: PNG } },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;
  r = await call(page.request, 'post', '/payments', { badgeId, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));

  // the admin: approval refused while held; View Details lists the reason and statement
  await ctx.clearCookies();
  r = await call(ctx.request, 'post', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200);
  r = await call(ctx.request, 'put', `/admin/applications/${appId}/approve`, {});
  assert.equal(r.status, 409);
  assert.match(r.body.msg, /under integrity review/);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await page.getByTestId('view-cards').click(); // this test follows the cards
  const card = page.locator(`[data-application-id="${appId}"]`);
  await card.waitFor();
  await card.getByRole('button', { name: 'View Details' }).click();
  const dialog = page.getByRole('dialog');
  const review = dialog.getByTestId('integrity-review');
  await review.waitFor();
  assert.equal(await review.getAttribute('data-status'), 'flagged');
  assert.match(await dialog.getByTestId('integrity-flags').innerText(), /faster than the quiz's floor of 30 seconds/);
  assert.match(await dialog.getByTestId('integrity-member-statement').innerText(), /every day for two years/);
  await shot(page, 'integrity-details-1280');
  await axe(page, 'View Details with integrity flags');
  await dialog.getByTestId('integrity-clear').click();
  await page.locator('[data-toaster] [role=status]', { hasText: 'Attempt cleared' }).waitFor();
  assert.equal(await review.getAttribute('data-status'), 'cleared');
  r = await call(ctx.request, 'put', `/admin/applications/${appId}/approve`, {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
  // the audit log has the statement and the decision
  r = await call(ctx.request, 'get', '/admin/audit?limit=50');
  const actions = JSON.stringify(r.body);
  assert.ok(actions.includes('quiz_attempt.integrity_clear') && actions.includes('quiz_attempt.statement'), 'audit');
  assert.deepEqual(errors, []);
  await page.close();
});
