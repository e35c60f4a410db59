// The quiz screen end to end: a member opens the start screen (which starts nothing),
// presses Start Quiz and takes the seeded React Developer quiz (5 questions drawn from a
// pool of 6) to a pass (with a reload in the middle and the keyboard) and to a fail that
// shows no answer key and when the next attempt opens; the timer warns and auto-submits,
// and the unavailable / missing-id states render.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'playwright-core';
import { startServer, launch, hydrated, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, seededBadges, badgeIdOf, signUp as signUpMember } from './harness.mjs';

// The seeded React Developer quiz (app/seed/content.go): question -> correct option.
const REACT = {
  'Which hook keeps a value between renders without causing a re-render when it changes?': 'useRef',
  'What does React use the key prop on list items for?': 'Matching items between renders',
  'When does an effect with an empty dependency array run?': 'Only after the first render (mount)',
  'Which API renders React on the server to an HTML string?': 'renderToString',
  'What is the main benefit of lifting state up?': 'Sharing one source of truth between components',
  'Which value is NOT a valid return from a component?': 'A plain object',
};

// Distinctive parts of the React questions' explanations: none may ever reach the browser.
const EXPLANATIONS = [
  'useRef returns a mutable object',
  'Keys let React match elements',
  'An empty array means the effect has no dependencies',
  'renderToString (react-dom/server) produces HTML',
  'Lifting state to the closest common parent',
  'Components may return elements',
];

let server, browser, badges;
before(async () => {
  server = await startServer();
  browser = await launch();
  badges = await seededBadges(server);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const badgeId = (name) => badgeIdOf(badges, name);

/** Registers a new member in the browser context (the session cookie lands in it). */
const signUp = (page, name) => signUpMember(server, page, name, 'quiz');

/** Opens the start screen and presses Start Quiz (the explicit POST). */
async function openQuiz(page, id) {
  await page.goto(`${server.url}/quiz/${id}`);
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-begin').click();
  await page.getByTestId('quiz-position').waitFor();
}

/** Records every API answer's body (to search them for the key). */
function recordApi(page) {
  const bodies = [];
  page.on('response', async (r) => {
    if (!r.url().includes('/backend/api/v1/quiz')) return;
    try {
      bodies.push(`${r.request().method()} ${r.url()} ${r.status()}: ${await r.text()}`);
    } catch {
      // a navigation dropped the body
    }
  });
  return bodies;
}

function assertNoKey(text, where) {
  for (const k of ['correctIndex', 'explanation', 'Explanation', 'chosenIndex', '"review"', ...EXPLANATIONS]) {
    assert.ok(!text.includes(k), `${where} carries ${k}: ${text.slice(0, 400)}`);
  }
}

const position = (page) => page.getByTestId('quiz-position').innerText();
const answered = (page) => page.getByTestId('quiz-answered').innerText();
const question = async (page) => (await page.getByTestId('quiz-question').innerText()).trim();
const timerSeconds = async (page) => {
  const [m, s] = (await page.getByTestId('quiz-timer').innerText()).trim().split(':').map(Number);
  return m * 60 + s;
};

/** Chooses the right (or a wrong) option of the question on screen. */
async function choose(page, right) {
  const q = await question(page);
  const correct = REACT[q];
  assert.ok(correct, `unknown question ${q}`);
  const labels = page.locator('fieldset label');
  const texts = (await labels.allInnerTexts()).map((t) => t.trim());
  const i = right ? texts.indexOf(correct) : texts.findIndex((t) => t !== correct);
  assert.ok(i >= 0, `option for ${q} in ${texts}`);
  await labels.nth(i).click();
  await page.waitForFunction((idx) => document.querySelectorAll('fieldset input[type=radio]')[idx]?.checked, i);
}

async function next(page) {
  const isLast = (await page.getByTestId('quiz-submit').count()) > 0;
  await page.getByRole('button', { name: isLast ? /Submit Quiz/ : /Next/ }).click();
}

test('a member starts the quiz from its start screen and passes: keyboard, reload resumes, result without the key, Continue Application', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signUp(page, 'Quinn Passer');
  const id = badgeId('React Developer');

  // the loading skeleton, held long enough to see it
  await page.route(
    '**/backend/api/v1/quiz/badge/**',
    async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    },
    { times: 1 },
  );
  await page.goto(`${server.url}/quiz/${id}`);
  await page.getByTestId('quiz-loading').waitFor();
  await shot(page, 'quiz-loading-1280');
  await hydrated(page, 'QuizRunner');

  // the start screen: the rules, and nothing started yet
  const startScreen = page.getByTestId('quiz-start');
  await startScreen.waitFor();
  const intro = await startScreen.innerText();
  for (const s of ['5 drawn from 6', '15 min', '70%', '0 of 3 used', 'Retake 1 day after a failed attempt; at most 3 attempts in 30 days']) {
    assert.ok(intro.includes(s), `start screen shows ${s}: ${intro}`);
  }
  await shot(page, 'quiz-start-1280');
  const before0 = await (await page.request.get(`${server.url}/backend/api/v1/quiz/badge/${id}`)).json();
  assert.equal(before0.attempt, null, 'opening the start screen started nothing');
  await page.getByTestId('quiz-begin').click();
  await page.getByTestId('quiz-position').waitFor();

  assert.equal(await position(page), 'Question 1 of 5');
  assert.match(await page.locator('main').innerText(), /Passing score: 70%/);
  assert.equal(await answered(page), '0 of 5 answered');
  const t0 = await timerSeconds(page);
  assert.ok(t0 > 14 * 60 && t0 <= 15 * 60, `timer starts near 15:00, got ${t0}`);
  assert.equal(await page.getByTestId('quiz-timer').getAttribute('data-warning'), 'false');
  assert.ok(await page.getByRole('button', { name: /Previous/ }).isDisabled(), 'Previous disabled on the first question');
  assert.ok(await page.getByRole('button', { name: /Next/ }).isDisabled(), 'Next disabled until answered');
  await shot(page, 'quiz-question-1280');

  // keyboard: arrows move between options, Enter goes next
  const q1 = await question(page);
  const labels = page.locator('fieldset label');
  const texts = (await labels.allInnerTexts()).map((t) => t.trim());
  await labels.nth(0).click();
  await page.focus('fieldset input[type=radio]:checked');
  for (let i = 0; i < texts.indexOf(REACT[q1]); i++) await page.keyboard.press('ArrowDown');
  const checked = await page.evaluate(() => document.querySelector('fieldset input[type=radio]:checked')?.closest('label')?.innerText.trim());
  assert.equal(checked, REACT[q1], 'arrow keys chose the option');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=quiz-position]')?.textContent === 'Question 2 of 5');
  assert.ok(await page.getByRole('button', { name: /Next/ }).isDisabled());
  assert.ok(await page.getByRole('button', { name: /Previous/ }).isEnabled());

  await choose(page, true);
  await next(page);
  assert.equal(await position(page), 'Question 3 of 5');
  assert.equal(await answered(page), '2 of 5 answered');
  await page.getByText('Answer saved').waitFor();

  // a reload resumes the same attempt: same place, answers kept, the clock not reset
  const before = await timerSeconds(page);
  const q3 = await question(page);
  await page.reload();
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-position').waitFor();
  assert.equal(await position(page), 'Question 3 of 5');
  assert.equal(await question(page), q3);
  assert.equal(await answered(page), '2 of 5 answered');
  assert.ok((await timerSeconds(page)) <= before, 'the countdown continued from the server deadline');
  await page.getByRole('button', { name: /Previous/ }).click();
  const kept = await page.evaluate(() => document.querySelector('fieldset input[type=radio]:checked')?.closest('label')?.innerText.trim());
  assert.equal(kept, REACT[await question(page)], 'the saved answer is checked after the reload');
  await page.getByRole('button', { name: /Next/ }).click();

  for (let i = 3; i <= 5; i++) {
    assert.equal(await position(page), `Question ${i} of 5`);
    await choose(page, true);
    if (i === 5) assert.ok((await page.getByTestId('quiz-submit').innerText()).includes('Submit Quiz'));
    await next(page);
  }
  const result = page.getByTestId('quiz-result');
  await result.waitFor();
  assert.equal(await result.getAttribute('data-passed'), 'true');
  assert.equal(await page.getByTestId('quiz-percent').innerText(), '100%');
  const text = await result.innerText();
  for (const s of ['Congratulations, you passed!', '5 / 5', 'Passing score', '70%', 'Time taken', 'Your score', 'Continue Application', 'Retake Quiz']) {
    assert.ok(text.includes(s), `result shows ${s}`);
  }
  assert.equal(await page.getByText('Back to Badges').count(), 0, 'a pass offers Continue Application instead');
  // the figures only: no review of right and wrong options, even after a pass
  assert.equal(await page.getByTestId('quiz-review').count(), 0);
  assertNoKey(await page.content(), 'the pass result page');
  assert.match(page.url(), /\/quiz\/[0-9a-f]{24}\?attempt=[0-9a-f]{24}$/);
  await shot(page, 'quiz-result-pass-1280');

  // the result screen survives a reload
  await page.reload();
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-result').waitFor();
  assert.equal(await page.getByTestId('quiz-percent').innerText(), '100%');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'quiz-result-pass-390');
  await page.evaluate(() => {
    document.documentElement.classList.add('dark');
    document.documentElement.style.colorScheme = 'dark';
  });
  await page.waitForTimeout(400);
  await shot(page, 'quiz-result-pass-390-dark');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize({ width: 1280, height: 800 });

  // Continue Application: to the upload page with the result as navigation state
  await page.getByTestId('quiz-continue').click();
  await page.waitForURL(`**/resume-upload/${id}`);
  const state = await page.evaluate((k) => JSON.parse(sessionStorage.getItem(k) || 'null'), `quizResult:${id}`);
  assert.equal(state.passed, true);
  assert.equal(state.score, 100);
  assert.equal(state.correctAnswers, 5);
  assert.equal(state.total, 5);
  assert.equal(state.fromQuiz, true);
  assert.match(state.attemptId, /^[0-9a-f]{24}$/);
  assert.ok(Number.isInteger(state.timeSpent) && state.timeSpent >= 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a member fails the quiz: no answer key anywhere, and the next attempt opens in 24 hours', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const bodies = recordApi(page);
  await signUp(page, 'Fay Failer');
  const id = badgeId('React Developer');
  await openQuiz(page, id);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'quiz-question-390');
  for (let i = 1; i <= 5; i++) {
    await choose(page, false);
    await next(page);
  }
  const result = page.getByTestId('quiz-result');
  await result.waitFor();
  const submittedAt = Date.now();
  assert.equal(await result.getAttribute('data-passed'), 'false');
  assert.equal(await page.getByTestId('quiz-percent').innerText(), '0%');
  const text = await result.innerText();
  for (const s of ['Not quite there yet', '0 / 5', 'Back to Badges', 'Your next attempt opens']) {
    assert.ok(text.includes(s), `result shows ${s}`);
  }
  // no key: no review, no marked options, no explanations in the page or any API answer
  for (const s of ['Incorrect', 'Your answer', 'Not answered']) assert.ok(!text.includes(s), `result shows ${s}`);
  assert.equal(await page.getByTestId('quiz-review').count(), 0);
  assertNoKey(await page.content(), 'the fail result page');
  assert.ok(bodies.length >= 7, `recorded ${bodies.length} API answers`);
  for (const b of bodies) assertNoKey(b, b.slice(0, 80));
  // the next attempt: 24 hours after the submission, and no Retake Quiz before then
  const nextAt = await page.getByTestId('quiz-next-attempt').getAttribute('data-next');
  const wait = Date.parse(nextAt) - submittedAt;
  assert.ok(wait > 23.9 * 3600e3 && wait < 24.1 * 3600e3, `next attempt in ${wait / 3600e3} h`);
  assert.equal(await page.getByRole('button', { name: /Retake Quiz/ }).count(), 0, 'no Retake Quiz while the retake waits');
  assert.equal(await page.getByTestId('quiz-continue').count(), 0);
  await shot(page, 'quiz-result-fail-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'quiz-result-fail-1280');

  // the start screen says when, in the reader's zone (the server's HTML names UTC), and
  // offers no Start Quiz; a forced start is refused
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Pacific/Auckland' });
  await page.goto(`${server.url}/quiz/${id}`);
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-start').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="quiz-next-attempt"] time')?.dataset.localised === 'true');
  const inAuckland = new Intl.DateTimeFormat('en-US', { timeZone: 'Pacific/Auckland', month: 'short', day: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(new Date(nextAt)).reduce((o, p) => ({ ...o, [p.type]: p.value }), {});
  const shown = /^Your next attempt opens (\w{3} \d+, \d{4}, \d\d:\d\d) GMT\+1[23]\.$/.exec(await page.getByTestId('quiz-next-attempt').innerText());
  assert.ok(shown, 'the next attempt in the reader\'s zone, named');
  assert.equal(shown[1], `${inAuckland.month} ${inAuckland.day}, ${inAuckland.year}, ${inAuckland.hour}:${inAuckland.minute}`);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' });
  assert.equal(await page.getByTestId('quiz-begin').count(), 0);
  await shot(page, 'quiz-start-waiting-1280');
  const r = await page.request.post(`${server.url}/backend/api/v1/quiz/badge/${id}/start`, { headers: { Origin: server.url } });
  assert.equal(r.status(), 429);
  const refusal = await r.json();
  assert.match(refusal.msg, /^You can retake this quiz at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
  assert.equal(refusal.nextAttemptAt, nextAt);
  // a cross-site start is refused too
  const cross = await page.request.post(`${server.url}/backend/api/v1/quiz/badge/${id}/start`, { headers: { Origin: 'https://evil.example' } });
  assert.equal(cross.status(), 403);

  // the badge page says it as well, next to the assessment's rules
  await page.goto(`${server.url}/badges/${id}`);
  const about = page.getByTestId('badge-assessment');
  await about.waitFor();
  const aboutText = await about.innerText();
  for (const s of ['Pass mark', '70%', 'Questions per attempt', 'Question pool', 'Time limit', 'Pass rate', 'Holders', 'Retake rule: Retake 1 day after a failed attempt']) {
    assert.ok(aboutText.includes(s), `badge page shows ${s}: ${aboutText}`);
  }
  assert.match(await page.getByTestId('badge-next-attempt').innerText(), /Your next attempt opens/);
  await about.scrollIntoViewIfNeeded();
  await shot(page, 'quiz-badge-assessment-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await about.scrollIntoViewIfNeeded();
  await shot(page, 'quiz-badge-assessment-390');
  assert.deepEqual(errors.filter((e) => !/429|403/.test(e)), []);
  await page.close();
});

test('an admin sees the member waiting, grants an extra attempt in Quiz Management, and the member starts at once', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const id = badgeId('React Developer');
  const email = await signUp(page, 'Gil Granted');
  const api = `${server.url}/backend/api/v1`;
  const post = (path, data) => page.request.post(api + path, { data, headers: { Origin: server.url } });
  // a failed attempt (nothing answered)
  const started = await (await post(`/quiz/badge/${id}/start`)).json();
  assert.equal((await post(`/quiz/attempts/${started.attempt._id}/submit`, { answers: {} })).status(), 200);
  assert.equal((await post(`/quiz/badge/${id}/start`)).status(), 429);

  // the admin: Quiz Management > React Developer
  await page.context().clearCookies();
  assert.equal((await post('/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status(), 200);
  await page.goto(`${server.url}/admin`);
  await hydrated(page, 'AdminDashboard');
  await page.getByRole('tab', { name: 'Quiz Management' }).click();
  await page.getByRole('tab', { name: 'Select Badge' }).click();
  await page.locator('[data-testid="select-badge"][data-badge-name="React Developer"]').click();
  await page.getByTestId('quiz-manager').waitFor();
  assert.equal(await page.getByTestId('quiz-pool').innerText(), '5 drawn per attempt from a pool of 6');
  // item analysis over the attempts so far
  const analysis = page.getByTestId('item-analysis');
  await analysis.getByTestId('analysis-row').first().waitFor();
  assert.equal(await analysis.getByTestId('analysis-row').count(), 6);
  assert.ok(Number(await analysis.getByTestId('analysis-attempts').innerText()) >= 1);
  // settings refuse a draw larger than the pool
  await page.getByTestId('quiz-settings').click();
  await page.getByTestId('quiz-settings-form').waitFor();
  await page.fill('#qs-draw', '7');
  await page.getByText('The pool has only 6 questions: add questions before drawing 7.').waitFor();
  await page.getByTestId('save-quiz-settings').click();
  await page.getByText('Questions per attempt (7) cannot be more than the 6 questions in the quiz\'s pool.').first().waitFor();
  await page.screenshot({ path: `tests/browser/screenshots/quiz-admin-settings-1280.png` });
  await page.keyboard.press('Escape');
  await page.getByTestId('quiz-settings-form').waitFor({ state: 'detached' });
  // the member list: grant the waiting member an extra attempt
  const row = page.getByTestId('quiz-member').filter({ hasText: email });
  await row.waitFor();
  assert.match(await row.innerText(), /Next attempt .* UTC/);
  await analysis.scrollIntoViewIfNeeded();
  await shot(page, 'quiz-admin-analysis-1280');
  await row.getByTestId('grant-attempt').click();
  await page.locator('#toaster').getByText('Extra attempt granted').first().waitFor();
  await row.getByText('Extra attempt waiting').waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('quiz-members').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `tests/browser/screenshots/quiz-admin-members-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  // the member may start at once, and the start uses the extra attempt
  await page.context().clearCookies();
  assert.equal((await post('/auth/login', { email, password: 'quiz-password-1' })).status(), 200);
  await page.goto(`${server.url}/quiz/${id}`);
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-start').waitFor();
  assert.match(await page.getByTestId('quiz-next-attempt').innerText(), /An administrator granted you an extra attempt/);
  await shot(page, 'quiz-start-extra-1280');
  await page.getByTestId('quiz-begin').click();
  await page.getByTestId('quiz-position').waitFor();
  assert.equal(await position(page), 'Question 1 of 5');
  assert.deepEqual(errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  await page.close();
});

test('the timer turns red under 5 minutes and auto-submits at 0 with "Time\'s Up!"', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.clock.install();
  await signUp(page, 'Tim Timer');
  await openQuiz(page, badgeId('React Developer'));
  await choose(page, true);
  await page.getByText('Answer saved').waitFor();
  await page.clock.fastForward('10:05');
  await page.waitForFunction(() => document.querySelector('[data-testid=quiz-timer]')?.getAttribute('data-warning') === 'true');
  const left = await timerSeconds(page);
  assert.ok(left < 300 && left > 240, `under 300 s, got ${left}`);
  await shot(page, 'quiz-timer-warning-1280');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.waitForTimeout(400); // let colour transitions finish
  await shot(page, 'quiz-timer-warning-1280-dark');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.clock.fastForward('05:00');
  await page.getByText("Time's Up!").waitFor();
  const result = page.getByTestId('quiz-result');
  await result.waitFor();
  assert.equal(await result.getAttribute('data-passed'), 'false');
  assert.match(await result.innerText(), /1 \/ 5/);
  await shot(page, 'quiz-times-up-1280');
  assert.deepEqual(errors, []);
  await page.close();
});

test('unavailable, missing-id and empty quizzes, and visitors are sent to log in', async () => {
  const res = await fetch(`${server.url}/quiz/${badgeId('React Developer')}`, { redirect: 'manual' });
  assert.ok([302, 303].includes(res.status), `visitor status ${res.status}`);
  assert.match(res.headers.get('location'), /^\/login\?next=%2Fquiz%2F/);

  const page = await browser.context.newPage();
  await signUp(page, 'Una Available');
  await page.goto(`${server.url}/quiz/${badgeId('Open Source Contributor')}`);
  await hydrated(page, 'QuizRunner');
  const box = page.getByTestId('quiz-unavailable');
  await box.waitFor();
  const t = await box.innerText();
  assert.ok(t.includes('Quiz Unavailable') && t.includes('This badge is earned by uploading proof, not by a quiz.'), t);
  assert.ok(await page.getByRole('button', { name: /Try Again/ }).isVisible());
  assert.equal(await page.getByRole('link', { name: /Back to Badges/ }).getAttribute('href'), '/badges');
  await shot(page, 'quiz-unavailable-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'quiz-unavailable-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(`${server.url}/quiz`);
  await hydrated(page, 'QuizRunner');
  await page.getByText('Badge ID is missing').waitFor();

  // an admin publishes a skill badge, then takes the last question out of its quiz
  const admin = await request.newContext({ baseURL: server.url, extraHTTPHeaders: { Origin: server.url } });
  const ok = async (r, status = 200) => {
    assert.equal(r.status(), status, await r.text());
    return r.json();
  };
  await ok(await admin.post('/backend/api/v1/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } }));
  const { badge: empty } = await ok(
    await admin.post('/backend/api/v1/badge-management/badges', {
      data: { name: 'Empty Quiz Badge', description: 'A badge whose quiz is being rewritten.', category: 'Development', type: 'skill', level: 'beginner', price: 10, icon: 'Award', color: 'blue', criteria: 'Pass the quiz.', requiresResume: false },
    }),
    201,
  );
  const { quiz: emptyQuiz } = await ok(
    await admin.post(`/backend/api/v1/admin/badges/${empty._id}/quiz`, { data: { title: 'Empty Quiz Badge Assessment', description: 'Soon.', passingScore: 70, timeLimit: 15 } }),
    201,
  );
  const { question } = await ok(
    await admin.post('/backend/api/v1/admin/questions', { data: { text: 'Placeholder?', options: ['Yes', 'No'], correctIndex: 0, quizId: emptyQuiz._id } }),
    201,
  );
  await ok(await admin.patch(`/backend/api/v1/badge-management/badges/${empty._id}/toggle`));
  // the last question of an active badge's quiz cannot go: members never meet an empty quiz
  const refused = await admin.delete(`/backend/api/v1/admin/quizzes/${emptyQuiz._id}/questions/${question._id}`);
  assert.equal(refused.status(), 409);
  assert.equal((await refused.json()).msg, 'Empty Quiz Badge is active in the catalogue, so its quiz must keep at least one question. Deactivate the badge first.');
  const off = await admin.patch(`/backend/api/v1/admin/quizzes/${emptyQuiz._id}/toggle`);
  assert.equal(off.status(), 409);
  await admin.dispose();

  await page.goto(`${server.url}/quiz/${empty._id}`);
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-start').waitFor();
  assert.match(await page.getByTestId('quiz-start').innerText(), /Questions\s*1/);
  assert.equal(await page.getByTestId('quiz-empty').count(), 0);
  await page.close();
});

// The seeded Docker & Containers quiz: 5 single-choice and 2 multiple-response questions
// (6 drawn per attempt): question -> the correct option(s).
const DOCKER = {
  'What does each instruction in a Dockerfile usually create?': ['An image layer'],
  'Why copy dependency manifests before the source code in a Dockerfile?': ['Better layer caching'],
  'Where should a container keep data that must survive restarts?': ['In a volume'],
  'What does a multi-stage build help with?': ['Leaving build tools out of the final image'],
  'Which signal does docker stop send first?': ['SIGTERM'],
  'Which of these are Dockerfile instructions? Select all that apply.': ['FROM', 'COPY', 'EXPOSE'],
  'Which make an image smaller? Select all that apply.': ['A slim or distroless base image', 'A multi-stage build'],
};

test('a member takes a quiz with single-choice and multiple-response questions by keyboard alone', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const bodies = recordApi(page);
  await signUp(page, 'Kim Keys');
  await openQuiz(page, badgeId('Docker & Containers'));
  assert.equal(await position(page), 'Question 1 of 6');
  await page.focus('fieldset input');
  let multiples = 0;
  for (let n = 1; n <= 6; n++) {
    assert.equal(await position(page), `Question ${n} of 6`);
    assert.equal(await answered(page), `${n - 1} of 6 answered`);
    if (n > 1) {
      // Enter moved the focus to the new question's heading: Tab reaches its first option
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'quiz-heading');
      await page.keyboard.press('Tab');
    }
    const q = await question(page);
    const want = DOCKER[q];
    assert.ok(want, `unknown question ${q}`);
    const texts = (await page.locator('fieldset label').allInnerTexts()).map((t) => t.trim());
    const isLast = n === 6;
    const nextButton = page.getByRole('button', { name: isLast ? /Submit Quiz/ : /Next/ });
    assert.ok(await nextButton.isDisabled(), `Next disabled before answering ${q}`);
    const boxes = await page.locator('fieldset input[type=checkbox]').count();
    if (boxes > 0) {
      multiples++;
      assert.equal(boxes, texts.length, 'every option of a multiple-response question is a checkbox');
      const pick = await page.getByTestId('quiz-pick').innerText();
      assert.equal(pick, q.startsWith('Which of these') ? 'Select 3.' : 'Select all that apply.');
      // Tab through the options, Space ticks the right ones (focus starts on the first)
      for (let i = 0; i < texts.length; i++) {
        if (want.includes(texts[i])) await page.keyboard.press('Space');
        if (i < texts.length - 1) await page.keyboard.press('Tab');
      }
      const ticked = await page.evaluate(() =>
        [...document.querySelectorAll('fieldset input[type=checkbox]')].filter((x) => x.checked).map((x) => x.closest('label').innerText.trim()),
      );
      assert.deepEqual([...ticked].sort(), [...want].sort(), 'Space ticked the right options');
    } else {
      // Space chooses the focused radio, the arrow keys move the choice
      await page.keyboard.press('Space');
      for (let i = 0; i < texts.indexOf(want[0]); i++) await page.keyboard.press('ArrowDown');
      const checked = await page.evaluate(() => document.querySelector('fieldset input[type=radio]:checked')?.closest('label')?.innerText.trim());
      assert.equal(checked, want[0], 'the arrow keys chose the option');
    }
    assert.ok(await nextButton.isEnabled(), `Next enabled once ${q} is answered`);
    assert.equal(await answered(page), `${n} of 6 answered`);
    if (boxes > 0 && multiples === 1) await shot(page, 'quiz-multiple-1280');
    await page.getByText('Answer saved').waitFor();
    await page.keyboard.press('Enter');
    if (!isLast) await page.waitForFunction((want) => document.querySelector('[data-testid=quiz-position]')?.textContent === want, `Question ${n + 1} of 6`);
  }
  assert.ok(multiples >= 1, 'the form asked a multiple-response question');
  const result = page.getByTestId('quiz-result');
  await result.waitFor();
  assert.equal(await page.getByTestId('quiz-percent').innerText(), '100%');
  assert.ok((await result.innerText()).includes('6 / 6'));
  for (const b of bodies) {
    assertNoKey(b, 'an API answer');
    assert.ok(!b.includes('correctIndexes') && !b.includes('showCount'), `an API answer carries the key: ${b.slice(0, 300)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
