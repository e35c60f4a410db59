// Catalogue administration end to end: the demo admin creates a skill badge (form
// defaults checked), is refused activation before the badge has a quiz, creates its quiz
// with the defaults and three questions (one with an empty slot before the correct answer),
// edits a question from the bank, activates the badge, and manages coupons (free grant,
// New Coupon, copy, filter, delete). A member then finds the badge in the catalogue and
// takes its quiz to a pass. Screenshots at 1280 px, 390 px and in dark mode.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, hydrated, shot, watchErrors, screenshotDir, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

const API = '/backend/api/v1';
const BADGE = 'Kubernetes Operator';
const QUESTIONS = [
  { text: 'Which object keeps a set number of identical pods running?', options: ['ConfigMap', 'ReplicaSet', 'Secret', 'Ingress'], correct: 1 },
  { text: 'Which command shows the pods of the current namespace?', options: ['kubectl get pods', 'kubectl pods', 'kube list', 'docker ps'], correct: 0 },
  // slot 3 left empty before the correct answer in slot 4: the index must follow it
  { text: 'Where does a pod read non-secret configuration from?', options: ['A Secret', 'A PersistentVolume', '', 'A ConfigMap'], correct: 3, kept: 'A ConfigMap' },
];

let server, browser;

async function post(ctx, path, data) {
  const r = await ctx.request.post(server.url + API + path, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

async function signIn(ctx, email, password) {
  await ctx.clearCookies();
  const r = await post(ctx, '/auth/login', { email, password });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** A viewport screenshot (for dialogs, which a full-page shot cuts). */
const viewShot = (page, name) => page.screenshot({ path: path.join(screenshotDir, name + '.png') });

const toast = (page, text) => page.locator('#toaster').getByText(text, { exact: false }).first();

async function expectToast(page, text) {
  await toast(page, text).waitFor({ timeout: 10000 });
}

async function openAdminTab(page, name) {
  await page.getByRole('tab', { name }).click();
}

before(async () => {
  server = await startServer();
  browser = await launch();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the admin creates a skill badge, its quiz and three questions, and activates it', async () => {
  const ctx = browser.context;
  await signIn(ctx, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');

  // ---- Badge Management ----
  await openAdminTab(page, 'Badge Management');
  await page.getByTestId('admin-badge').first().waitFor();
  // the stats load apart from the list and show "–" until they arrive
  const totalStat = page.getByTestId('stat-total-badges').locator('p').nth(1);
  await page.waitForFunction((el) => /^\d+$/.test(el.textContent.trim()), await totalStat.elementHandle());
  assert.equal(Number(await totalStat.innerText()), 13, 'the seeded badges');
  await shot(page, 'admin-catalogue-badges-1280');

  await page.getByTestId('create-badge').click();
  const form = page.getByTestId('badge-form');
  await form.waitFor();
  // the spec's defaults
  assert.equal(await page.inputValue('#badge-type'), 'skill');
  assert.equal(await page.inputValue('#badge-level'), 'beginner');
  assert.equal(await page.inputValue('#badge-price'), '0');
  assert.equal(await form.getByRole('radio', { name: 'Award', exact: true }).getAttribute('aria-checked'), 'true');
  assert.equal(await form.getByRole('radio', { name: 'blue', exact: true }).getAttribute('aria-checked'), 'true');
  assert.equal(await form.getByRole('switch', { name: 'Requires a resume' }).getAttribute('aria-checked'), 'false');

  await page.fill('#badge-name', BADGE);
  await page.fill('#badge-description', 'Runs production workloads on Kubernetes with confidence.');
  await page.selectOption('#badge-category', 'DevOps');
  await page.selectOption('#badge-level', 'intermediate');
  await page.fill('#badge-price', '39.50');
  await page.fill('#badge-criteria', 'Pass the Kubernetes Operator assessment with at least 70%.');
  await form.getByRole('radio', { name: 'Cloud', exact: true }).click();
  await form.getByRole('radio', { name: 'teal', exact: true }).click();
  assert.equal(await form.getByRole('radio', { name: 'teal', exact: true }).getAttribute('aria-checked'), 'true');
  assert.equal(await form.getByRole('radio', { name: 'blue', exact: true }).getAttribute('aria-checked'), 'false');
  await viewShot(page, 'admin-catalogue-create-badge-1280');
  await page.getByTestId('badge-form-submit').click();
  await expectToast(page, 'Badge created successfully');
  const card = page.locator(`[data-testid="admin-badge"][data-badge-name="${BADGE}"]`);
  await card.waitFor();
  assert.ok(await card.getByText('Inactive', { exact: true }).first().isVisible());
  assert.ok(await card.getByText('$39.50').isVisible());
  assert.ok(await card.getByText('No quiz yet').isVisible());

  // a skill badge cannot go live before its quiz has questions
  await card.getByTestId('badge-active-toggle').click();
  await expectToast(page, 'Add an active quiz with at least one question before activating this skill badge.');
  assert.equal(await card.getByTestId('badge-active-toggle').getAttribute('aria-checked'), 'false');

  // ---- Quiz Management: select the badge, create the quiz with the defaults ----
  await openAdminTab(page, 'Quiz Management');
  await page.getByRole('tab', { name: 'Manage Quiz' }).click();
  await page.getByText('Please select a badge first').waitFor();
  await page.getByRole('tab', { name: 'Select Badge' }).click();
  await page.locator(`[data-testid="select-badge"][data-badge-name="${BADGE}"]`).click();
  await page.getByTestId('create-quiz-form').waitFor();
  assert.equal(await page.getAttribute('#quiz-title', 'placeholder'), `${BADGE} Assessment`);
  await page.getByTestId('create-quiz').click();
  await expectToast(page, 'Quiz created successfully');
  assert.equal(await page.getByTestId('quiz-title').innerText(), `${BADGE} Assessment`);
  assert.ok(await page.getByText('Pass at 70%').isVisible());
  assert.ok(await page.getByText('15 min').isVisible());
  assert.equal(await page.getByTestId('create-quiz').count(), 0, 'Create Quiz is hidden once the badge has a quiz');

  // ---- three questions created for the quiz ----
  for (const q of QUESTIONS) {
    await page.getByTestId('create-question-for-quiz').click();
    const qf = page.getByTestId('question-form');
    await qf.waitFor();
    assert.equal(await page.inputValue('#question-difficulty'), 'medium');
    assert.equal(await page.getAttribute('#question-topic', 'placeholder'), BADGE);
    assert.equal(await page.getAttribute('#question-category', 'placeholder'), 'DevOps');
    await page.fill('#question-text', q.text);
    for (let i = 0; i < 4; i++) await page.getByTestId(`option-${i}`).fill(q.options[i]);
    await page.getByTestId(`correct-${q.correct}`).check();
    if (q === QUESTIONS[0]) await viewShot(page, 'admin-catalogue-question-form-1280');
    await page.getByTestId('question-form-submit').click();
    await expectToast(page, 'Question created and added to quiz successfully');
    await qf.waitFor({ state: 'detached' });
  }
  await page.getByTestId('quiz-question').nth(2).waitFor();
  assert.equal(await page.getByTestId('quiz-question').count(), 3);
  // the third question kept 3 options, with the correct one marked
  const third = page.getByTestId('quiz-question').nth(2);
  assert.equal(await third.locator('li').count(), 3);
  assert.ok(await third.locator('li', { hasText: 'A ConfigMap' }).getByLabel('Correct answer').isVisible());
  await shot(page, 'admin-catalogue-quiz-1280');

  // ---- question bank: search by topic, edit (the flow the spec did not show) ----
  await page.getByRole('tab', { name: 'Question Bank' }).click();
  await page.getByTestId('question-bank').waitFor();
  await page.getByTestId('question-bank').getByTestId('view-cards').click(); // this test follows the cards
  await page.getByLabel('Search questions').fill('kubernetes operator'); // the topic
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="bank-question"]').length === 3);
  const first = page.getByTestId('bank-question').filter({ hasText: QUESTIONS[0].text });
  await first.getByRole('button', { name: 'Edit question' }).click();
  await page.getByTestId('question-form').waitFor();
  assert.equal(await page.inputValue('#question-text'), QUESTIONS[0].text);
  QUESTIONS[0].text = 'Which controller keeps a set number of identical pods running?';
  await page.fill('#question-text', QUESTIONS[0].text);
  await page.selectOption('#question-difficulty', 'easy');
  await page.getByTestId('question-form-submit').click();
  await expectToast(page, 'Question updated successfully');
  await page.getByTestId('bank-question').filter({ hasText: QUESTIONS[0].text }).waitFor();
  await shot(page, 'admin-catalogue-bank-1280');

  // a bank question: created, added to the quiz from the bank, removed again, deleted
  const HELM = 'Which file describes a Helm chart?';
  await page.getByTestId('create-bank-question').click();
  await page.getByTestId('question-form').waitFor();
  await page.fill('#question-text', HELM);
  await page.getByTestId('option-0').fill('Chart.yaml');
  await page.getByTestId('option-1').fill('values.yaml');
  await page.getByTestId('correct-0').check();
  await page.getByTestId('question-form-submit').click();
  await expectToast(page, 'Question created successfully');
  await page.getByRole('tab', { name: 'Manage Quiz' }).click();
  await page.getByTestId('add-from-bank').click();
  const picker = page.getByRole('dialog');
  await picker.getByLabel('Search the question bank').fill('helm');
  await picker.getByTestId('bank-pick').filter({ hasText: HELM }).getByRole('button', { name: 'Add' }).click();
  await expectToast(page, 'Question added to quiz');
  await picker.getByText('No questions match.').waitFor();
  await page.keyboard.press('Escape');
  const helmRow = page.getByTestId('quiz-question').filter({ hasText: HELM });
  await helmRow.waitFor();
  assert.equal(await page.getByTestId('quiz-question').count(), 4);
  await helmRow.getByRole('button', { name: /Remove question 4/ }).click();
  await expectToast(page, 'Question removed from quiz');
  await helmRow.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('quiz-question').count(), 3);
  await page.getByRole('tab', { name: 'Question Bank' }).click();
  await page.getByLabel('Search questions').fill('helm');
  await page.getByTestId('bank-question').filter({ hasText: HELM }).getByRole('button', { name: 'Delete question' }).click();
  await page.getByRole('alertdialog').getByText('Delete this question?').waitFor();
  await page.getByTestId('confirm-action').click();
  await expectToast(page, 'Question deleted successfully');
  await page.getByText('No questions match').waitFor();

  // ---- overview counts the new quiz ----
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByTestId('recent-quizzes').getByText(`${BADGE} Assessment`).waitFor();

  // ---- activate the badge ----
  await openAdminTab(page, 'Badge Management');
  await card.waitFor();
  assert.ok(await card.getByText('3 questions').isVisible());
  await card.getByTestId('badge-active-toggle').click();
  await expectToast(page, 'Badge status updated successfully');
  await card.getByText('Active', { exact: true }).first().waitFor();
  assert.equal(await card.getByTestId('badge-active-toggle').getAttribute('aria-checked'), 'true');

  // edit: the dialog holds the badge's values
  await card.getByRole('button', { name: `Edit ${BADGE}` }).click();
  await page.getByRole('heading', { name: 'Edit Badge' }).waitFor();
  assert.equal(await page.inputValue('#badge-name'), BADGE);
  assert.equal(await page.inputValue('#badge-category'), 'DevOps');
  assert.equal(await page.inputValue('#badge-price'), '39.5');
  await page.fill('#badge-price', '45');
  await page.getByTestId('badge-form-submit').click();
  await expectToast(page, 'Badge updated successfully');
  await card.getByText('$45.00').waitFor();

  // Quick Free Badge: a free proof badge, published at once
  await page.getByRole('button', { name: 'Quick Free Badge' }).click();
  await page.getByRole('heading', { name: 'Quick Free Badge' }).waitFor();
  assert.equal(await page.inputValue('#badge-type'), 'proof');
  assert.equal(await page.inputValue('#badge-price'), '0');
  assert.equal(await page.getByRole('switch', { name: 'Publish now' }).getAttribute('aria-checked'), 'true');
  await page.fill('#badge-name', 'Kubernetes Community Helper');
  await page.selectOption('#badge-category', 'DevOps');
  await page.getByTestId('badge-form-submit').click();
  await expectToast(page, 'Badge created successfully');
  const free = page.locator('[data-testid="admin-badge"][data-badge-name="Kubernetes Community Helper"]');
  await free.waitFor();
  assert.ok(await free.getByText('Free', { exact: true }).isVisible());
  assert.equal(await free.getByTestId('badge-active-toggle').getAttribute('aria-checked'), 'true');

  // the delete confirmation for a badge nobody applied for
  await card.getByRole('button', { name: `Delete ${BADGE}` }).click();
  await page.getByRole('alertdialog').getByText(`Delete ${BADGE}?`).waitFor();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  // ... and deleting the free one
  await free.getByRole('button', { name: 'Delete Kubernetes Community Helper' }).click();
  await page.getByTestId('confirm-action').click();
  await expectToast(page, 'Badge deleted successfully');
  await free.waitFor({ state: 'detached' });

  // 390 px
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('heading', { name: 'Badge Management' }).scrollIntoViewIfNeeded();
  await viewShot(page, 'admin-catalogue-badges-390');
  await card.scrollIntoViewIfNeeded();
  await viewShot(page, 'admin-catalogue-badge-card-390');
  await page.getByTestId('create-badge').click();
  await page.getByTestId('badge-form').waitFor();
  await page.waitForTimeout(300); // the dialog's entry
  await viewShot(page, 'admin-catalogue-create-badge-390');
  await page.keyboard.press('Escape');
  await page.getByTestId('badge-form').waitFor({ state: 'detached' });
  await openAdminTab(page, 'Quiz Management');
  await page.getByRole('tab', { name: 'Select Badge' }).click();
  await page.locator(`[data-testid="select-badge"][data-badge-name="${BADGE}"]`).click();
  await page.getByTestId('quiz-question').first().waitFor();
  await page.getByTestId('quiz-manager').scrollIntoViewIfNeeded();
  await viewShot(page, 'admin-catalogue-quiz-390');
  await page.getByTestId('quiz-question').first().scrollIntoViewIfNeeded();
  await viewShot(page, 'admin-catalogue-quiz-questions-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  await page.close();
});

test('the admin manages coupons: free grant, new coupon, copy, filter, delete', async () => {
  const ctx = browser.context;
  await signIn(ctx, ADMIN_EMAIL, ADMIN_PASSWORD);
  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/admin');
  await hydrated(page, 'AdminDashboard');
  await openAdminTab(page, 'Coupons');
  // the cards (wide screens show a table unless an admin keeps the cards)
  await page.getByRole('tabpanel').getByTestId('view-cards').click();
  await page.locator('[data-testid="coupon"][data-code="WELCOME10"]').waitFor();

  await page.getByTestId('free-grant').click();
  await expectToast(page, 'Free grant coupon FREE-');
  const msg = await toast(page, 'Free grant coupon FREE-').innerText();
  const code = msg.match(/FREE-[A-Z0-9]{13}/)[0];
  const grant = page.locator(`[data-testid="coupon"][data-code="${code}"]`);
  await grant.waitFor();
  assert.ok(await grant.getByText('100% off', { exact: true }).isVisible());

  // New Coupon: the defaults, then a code typed in lower case
  await page.getByTestId('new-coupon').click();
  await page.getByTestId('coupon-form').waitFor();
  assert.equal(await page.inputValue('#coupon-type'), 'percentage');
  assert.equal(await page.inputValue('#coupon-value'), '10');
  assert.equal(await page.inputValue('#coupon-minimum'), '0');
  const from = new Date(await page.inputValue('#coupon-from'));
  const until = new Date(await page.inputValue('#coupon-until'));
  assert.equal(Math.round((until - from) / 86400000), 30, 'valid for 30 days');
  await page.fill('#coupon-code', 'k8s-launch');
  assert.equal(await page.inputValue('#coupon-code'), 'K8S-LAUNCH');
  await page.fill('#coupon-name', 'Kubernetes launch');
  await page.fill('#coupon-value', '15');
  await page.fill('#coupon-limit', '50');
  await page.getByTestId('coupon-form').getByRole('button', { name: 'DevOps' }).click();
  await viewShot(page, 'admin-catalogue-new-coupon-1280');
  await page.getByTestId('coupon-form-submit').click();
  await expectToast(page, 'Coupon created successfully');
  const launch = page.locator('[data-testid="coupon"][data-code="K8S-LAUNCH"]');
  await launch.waitFor();
  assert.ok(await launch.getByText('15% off', { exact: true }).isVisible());
  assert.ok(await launch.getByText('0 / 50').isVisible());

  // copy
  await launch.getByTestId('copy-code').click();
  await expectToast(page, 'Copied!');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'K8S-LAUNCH');

  // deactivate and filter
  await launch.getByTestId('coupon-active-toggle').click();
  await expectToast(page, 'Coupon status updated successfully');
  await launch.getByTestId('coupon-status').getByText('Inactive').waitFor();
  await page.selectOption('[data-testid="coupon-status-filter"]', 'inactive');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="coupon"]')].every((e) => e.querySelector('[data-testid="coupon-status"]').textContent === 'Inactive'));
  assert.equal(await launch.count(), 1);
  await page.selectOption('[data-testid="coupon-status-filter"]', 'active');
  await launch.waitFor({ state: 'detached' });
  await page.selectOption('[data-testid="coupon-status-filter"]', 'all');

  // search
  await page.getByLabel('Search coupons').fill('launch');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="coupon"]').length === 1);
  await page.getByLabel('Search coupons').fill('');
  await grant.waitFor();

  // delete with confirmation
  await launch.getByRole('button', { name: 'Delete K8S-LAUNCH' }).click();
  await page.getByRole('alertdialog').getByText('Delete coupon K8S-LAUNCH?').waitFor();
  await page.getByTestId('confirm-action').click();
  await expectToast(page, 'Coupon deleted successfully');
  await launch.waitFor({ state: 'detached' });
  await shot(page, 'admin-catalogue-coupons-1280');

  // dark mode
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  await hydrated(page, 'AdminDashboard');
  await openAdminTab(page, 'Coupons');
  await grant.waitFor();
  await shot(page, 'admin-catalogue-coupons-dark-1280');
  await openAdminTab(page, 'Badge Management');
  await page.getByTestId('admin-badge').first().waitFor();
  await shot(page, 'admin-catalogue-badges-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));

  assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  await page.close();
});

test('a member finds the new badge in the catalogue and takes its quiz to a pass', async () => {
  const ctx = browser.context;
  await ctx.clearCookies();
  const email = `member-${Date.now()}@example.com`;
  const r = await post(ctx, '/auth/register', { name: 'Grace Hopper', email, password: 'grace-password-1' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, ctx.request, email, 'grace-password-1');

  const page = await ctx.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/badges?category=DevOps');
  const card = page.locator(`[data-testid="badge-card"][data-badge-name="${BADGE}"]`);
  await card.waitFor();
  assert.equal(await card.getByTestId('badge-price').textContent(), '$45.00');
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'admin-catalogue-member-catalogue-1280');

  const list = await (await ctx.request.get(server.url + API + '/badges/with-ownership')).json();
  const id = list.badges.find((b) => b.name === BADGE)._id;
  await page.goto(`${server.url}/quiz/${id}`);
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-begin').click(); // the start screen: Start Quiz starts the attempt
  await page.getByTestId('quiz-position').waitFor();
  assert.match(await page.getByTestId('quiz-position').innerText(), /Question 1 of 3/);
  await shot(page, 'admin-catalogue-member-quiz-1280');
  for (let i = 0; i < 3; i++) {
    const text = (await page.getByTestId('quiz-question').innerText()).trim();
    const q = QUESTIONS.find((x) => x.text === text);
    assert.ok(q, `question shown: ${text}`);
    const answer = q.kept ?? q.options[q.correct];
    const labels = page.locator('fieldset label');
    const texts = (await labels.allInnerTexts()).map((t) => t.trim());
    assert.equal(texts.length, q.options.filter(Boolean).length, 'empty options were dropped');
    const idx = texts.indexOf(answer);
    await labels.nth(idx).click();
    await page.waitForFunction((n) => document.querySelectorAll('fieldset input[type=radio]')[n]?.checked, idx);
    await page.getByRole('button', { name: i === 2 ? /Submit Quiz/ : /Next/ }).click();
  }
  const result = page.getByTestId('quiz-result');
  await result.waitFor({ timeout: 15000 });
  assert.equal(await result.getAttribute('data-passed'), 'true');
  assert.match(await page.getByTestId('quiz-percent').innerText(), /100/);
  await shot(page, 'admin-catalogue-member-result-1280');
  assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  await page.close();
});
