// The application screens end to end: a member passes the seeded React Developer quiz,
// arrives on /resume-upload with the result, completes the profile card, picks a resume,
// a photo and documents (wrong types and sizes are refused per file), watches the upload
// progress and lands on the payment page; a proof badge by drag and drop, with the
// server's refusal shown as 'Submission Failed'; the guard and the status views.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, hydrated, shot as fullShot, watchErrors, seededBadges, badgeIdOf, signUp as signUpMember } from './harness.mjs';

// The seeded React Developer quiz (app/seed/content.go): question -> correct option.
const REACT = {
  'Which hook keeps a value between renders without causing a re-render when it changes?': 'useRef',
  'What does React use the key prop on list items for?': 'Matching items between renders',
  'When does an effect with an empty dependency array run?': 'Only after the first render (mount)',
  'Which API renders React on the server to an HTML string?': 'renderToString',
  'What is the main benefit of lifting state up?': 'Sharing one source of truth between components',
  'Which value is NOT a valid return from a component?': 'A plain object',
};

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
// a 1x1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const MB = 1024 * 1024;

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
const signUp = (page, name) => signUpMember(server, page, name, 'apply');

async function completeProfile(page) {
  const r = await page.request.post(server.url + '/backend/api/v1/users/profile', {
    data: { name: 'Grace Hopper', position: 'Staff Engineer', linkedin: 'https://linkedin.com/in/grace', portfolio: '' },
    headers: { Origin: server.url },
  });
  assert.equal(r.status(), 200, await r.text());
}

async function mine(page, id) {
  const r = await page.request.get(`${server.url}/backend/api/v1/applications/mine?badgeId=${id}`);
  assert.equal(r.status(), 200);
  return (await r.json()).application;
}

/** Takes the seeded React quiz (5 questions drawn from 6) to a pass through the quiz screen. */
async function passReactQuiz(page, id) {
  await page.goto(`${server.url}/quiz/${id}`);
  await hydrated(page, 'QuizRunner');
  await page.getByTestId('quiz-begin').click(); // the start screen: Start Quiz starts the attempt
  await page.getByTestId('quiz-position').waitFor();
  for (let last = false; !last; ) {
    const q = (await page.getByTestId('quiz-question').innerText()).trim();
    const labels = page.locator('fieldset label');
    const texts = (await labels.allInnerTexts()).map((t) => t.trim());
    const at = texts.indexOf(REACT[q]);
    assert.ok(at >= 0, `answer to ${q}`);
    await labels.nth(at).click();
    await page.waitForFunction((idx) => document.querySelectorAll('fieldset input[type=radio]')[idx]?.checked, at);
    last = (await page.getByTestId('quiz-submit').count()) > 0;
    await page.getByRole('button', { name: last ? /Submit Quiz/ : /Next/ }).click();
    if (!last) await page.waitForFunction((prev) => document.querySelector('[data-testid="quiz-question"]')?.textContent?.trim() !== prev, q);
  }
  await page.waitForSelector('[data-testid="quiz-result"][data-passed="true"]', { timeout: 15000 });
}

/** Drops files onto the drop zone the way a browser does (a DataTransfer on a drop event). */
async function dropFiles(page, files) {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    const zone = document.querySelector('[data-testid="dropzone"]');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files.map((f) => ({ name: f.name, type: f.type, bytes: [...f.data] })));
}

const rows = (page) => page.getByTestId('file-row');

/** A full-page screenshot from the top (so the sticky header sits where it belongs). */
async function shot(page, name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await fullShot(page, name);
}

/** Server errors (5xx) on anything but the payment pages, which another feature renders. */
function watchServerErrors(page) {
  const bad = [];
  page.on('response', (r) => {
    if (r.status() >= 500 && !new URL(r.url()).pathname.startsWith('/payment')) bad.push(`${r.status()} ${r.url()}`);
  });
  return bad;
}

/** Console errors other than failed resource loads (those are checked by status above). */
const scriptErrors = (errors) => errors.filter((e) => !e.startsWith('Failed to load resource'));

test('from a passed quiz to the payment page', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const serverErrors = watchServerErrors(page);
  const id = badgeId('React Developer');
  await signUp(page, 'Ada Lovelace');

  // the quiz, then Continue Application
  await passReactQuiz(page, id);
  await page.getByTestId('quiz-continue').click();
  await page.waitForURL(`**/resume-upload/${id}`);
  await hydrated(page, 'ApplicationForm');

  // the result arrived with us; the profile is incomplete, so the button waits
  const banner = page.getByTestId('quiz-banner');
  await banner.getByText('Quiz passed. Well done!').waitFor();
  assert.match(await banner.innerText(), /100% · 5 of 5 correct/);
  await page.getByText('Fill up your details to proceed').waitFor();
  assert.match(await page.getByTestId('fill-details').innerText(), /your position, LinkedIn; your resume; a profile picture/);
  assert.equal(await page.getByTestId('submit-application').isDisabled(), true);
  assert.equal(await page.locator('#pf-email').getAttribute('readonly'), '');
  await shot(page, 'application-skill-start-1280');

  // Edit, Cancel restores, Edit + Save keeps
  await page.getByTestId('profile-edit').click();
  await page.locator('#pf-position').fill('Something else');
  await page.getByTestId('profile-cancel').click();
  assert.equal(await page.locator('#pf-position').inputValue(), '');
  await page.getByTestId('profile-edit').click();
  await page.locator('#pf-position').fill('Principal Engineer');
  await page.locator('#pf-linkedin').fill('https://linkedin.com/in/ada');
  await page.locator('#pf-portfolio').fill('https://ada.dev');
  assert.equal(await page.getByTestId('submit-application').isDisabled(), true, 'disabled while editing');
  await page.getByTestId('profile-save').click();
  await page.getByText('Profile Updated', { exact: true }).waitFor();
  assert.equal(await page.locator('#pf-position').getAttribute('readonly'), '');

  // resume and photo
  await page.setInputFiles('[data-testid="resume-input"]', { name: 'ada-cv.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.setInputFiles('[data-testid="profilePic-input"]', { name: 'ada.png', mimeType: 'image/png', buffer: PNG });
  await page.getByTestId('resume-picked').getByText('ada-cv.pdf').waitFor();
  await page.getByTestId('profilePic-picked').getByText('ada.png').waitFor();

  // documents: a PDF renamed .png and an 11 MB file are refused per file
  await page.setInputFiles('[data-testid="proof-input"]', [
    { name: 'scan.png', mimeType: 'image/png', buffer: PDF },
    { name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.alloc(10 * MB + 1 - PDF.length)]) },
    { name: 'talk-slides.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([PDF, Buffer.alloc(3 * MB)]) },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="file-row"]').length === 3);
  const errs = await page.getByTestId('file-list').getByTestId('file-error').allInnerTexts();
  assert.deepEqual(errs, [
    '"scan.png" is not a real PNG file: its content does not match its extension.',
    '"huge.pdf" is larger than 10 MB. Each file can be at most 10 MB.',
  ]);
  assert.equal(await rows(page).nth(2).getByTestId('file-size').innerText(), '3.0 MB');
  assert.equal(await page.getByTestId('submit-application').isDisabled(), true);
  await page.getByText('Remove the files marked in red to continue.').waitFor();
  await shot(page, 'application-skill-file-errors-1280');
  await rows(page).nth(0).getByTestId('file-remove').click();
  await rows(page).nth(0).getByTestId('file-remove').click();
  assert.equal(await rows(page).count(), 1);
  assert.equal(await page.getByTestId('proof-count').innerText(), '1 / 10');
  assert.equal(await page.getByTestId('submit-application').isDisabled(), false);
  await page.getByTestId('description').fill('Five years of React in production, including a design system and SSR.');
  await shot(page, 'application-skill-ready-1280');

  // submit over a slow uplink so that the per-file progress shows
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1.5 * MB });
  await page.getByTestId('submit-application').click();
  await page.locator('[role="progressbar"]').first().waitFor({ timeout: 5000 });
  await page.waitForFunction(() => [...document.querySelectorAll('[role="progressbar"]')].some((p) => Number(p.getAttribute('aria-valuenow')) > 0));
  await shot(page, 'application-skill-uploading-1280');
  await page.getByText('Application Submitted Successfully!', { exact: true }).waitFor({ timeout: 30000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.waitForURL(`**/payment/${id}`, { timeout: 15000 });
  await shot(page, 'application-landed-on-payment-1280');

  // what the server recorded: its own score, the files, the price at apply time
  const app = await mine(page, id);
  assert.equal(app.status, 'awaiting_payment');
  assert.equal(app.quizScore, 100);
  assert.equal(app.price, 49);
  assert.equal(app.position, 'Principal Engineer');
  assert.equal(app.resume.originalName, 'ada-cv.pdf');
  assert.equal(app.profilePic.contentType, 'image/png');
  assert.deepEqual(app.proofFiles.map((f) => f.originalName), ['talk-slides.pdf']);
  const dl = await page.request.get(server.url + app.resume.url);
  assert.equal(dl.status(), 200);
  assert.equal(dl.headers()['content-disposition'], `attachment; filename="ada-cv.pdf"; filename*=UTF-8''ada-cv.pdf`);
  assert.equal(dl.headers()['x-content-type-options'], 'nosniff');

  // back on the application page: the status, not the form
  await page.goto(`${server.url}/resume-upload/${id}`);
  await page.getByTestId('state-awaiting-payment').waitFor();
  assert.equal(await page.locator('[data-island="ApplicationForm"]').count(), 0);
  assert.equal(await page.getByTestId('continue-payment').getAttribute('href'), `/payment/${id}`);
  await shot(page, 'application-awaiting-payment-1280');

  assert.deepEqual(scriptErrors(errors), []);
  assert.deepEqual(serverErrors, []);
  await page.close();
});

test('a proof badge by drag and drop; the server refusal shows as Submission Failed', async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  const serverErrors = watchServerErrors(page);
  const id = badgeId('Open Source Contributor');
  await signUp(page, 'Grace Hopper');
  await completeProfile(page);

  await page.goto(`${server.url}/proof-upload/${id}`);
  await hydrated(page, 'ApplicationForm');
  assert.equal(await page.getByTestId('quiz-banner').count(), 0);
  assert.match(await page.getByTestId('fill-details').innerText(), /at least one proof file or a portfolio URL/);

  // a zip named .docx passes the browser's first-bytes check; the server reads inside it
  const zipNamedDocx = Buffer.from('504b0304140000000000', 'hex');
  await dropFiles(page, [
    { name: 'merged-prs.pdf', type: 'application/pdf', data: Buffer.concat([PDF, Buffer.alloc(200 * 1024)]) },
    { name: 'maintainer.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', data: Buffer.concat([zipNamedDocx, Buffer.alloc(4096)]) },
    { name: 'screenshot.png', type: 'image/png', data: PNG },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="file-row"]').length === 3);
  assert.deepEqual(await page.getByTestId('file-name').allInnerTexts(), ['merged-prs.pdf', 'maintainer.docx', 'screenshot.png']);
  assert.deepEqual(await page.getByTestId('file-size').allInnerTexts(), ['200 KB', '4 KB', '70 B']);
  // remove one
  await rows(page).nth(2).getByTestId('file-remove').click();
  assert.equal(await page.getByTestId('proof-count').innerText(), '2 / 10');
  await shot(page, 'application-proof-dropped-1280');

  await page.getByTestId('submit-application').click();
  const toast = page.locator('[role="status"][data-variant="destructive"]');
  await toast.getByText('Submission Failed').waitFor();
  assert.match(await toast.innerText(), /"maintainer\.docx" is not a real DOCX file: its content does not match its extension\./);
  assert.equal(await rows(page).nth(1).getAttribute('data-error'), 'true');
  await shot(page, 'application-proof-server-refusal-1280');
  assert.equal(await mine(page, id), null, 'nothing recorded');

  await rows(page).nth(1).getByTestId('file-remove').click();
  await page.getByTestId('submit-application').click();
  await page.getByText('Application Submitted Successfully!', { exact: true }).waitFor();
  await page.waitForURL(`**/payment/${id}`);
  const app = await mine(page, id);
  assert.equal(app.status, 'awaiting_payment');
  assert.deepEqual(app.proofFiles.map((f) => f.originalName), ['merged-prs.pdf']);
  assert.deepEqual(scriptErrors(errors), []);
  assert.deepEqual(serverErrors, []);
  await page.close();
});

test('status views, the quiz gate, the guard, and the small screen and dark theme', async () => {
  await browser.context.clearCookies();
  const page = await browser.context.newPage();
  // visitors are sent to log in
  await page.goto(`${server.url}/proof-upload/${badgeId('Team Leadership')}`);
  await page.waitForURL(/\/login\?next=/);
  assert.match(page.url(), /next=%2Fproof-upload%2F/);

  await signUp(page, 'Katherine Johnson');
  // a skill badge without a passing attempt asks for the quiz first
  const goId = badgeId('Go Backend Engineer');
  await page.goto(`${server.url}/resume-upload/${goId}`);
  await page.getByTestId('state-quiz').waitFor();
  assert.equal(await page.getByTestId('start-quiz').getAttribute('href'), `/quiz/${goId}`);
  await shot(page, 'application-needs-quiz-1280');

  // a free proof badge goes straight to review (the payment page says so); this page then shows it as in review
  await completeProfile(page);
  const freeId = badgeId('Community Builder');
  await page.goto(`${server.url}/proof-upload/${freeId}`);
  await hydrated(page, 'ApplicationForm');
  await page.setInputFiles('[data-testid="proof-input"]', { name: 'meetup-photos.jpg', mimeType: 'image/jpeg', buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]) });
  await page.getByTestId('submit-application').click();
  await page.getByText('Application Submitted Successfully!', { exact: true }).waitFor();
  await page.waitForURL(`**/payment/${freeId}`);
  assert.equal((await mine(page, freeId)).status, 'pending');
  await shot(page, 'application-free-landed-on-payment-1280');
  await page.goto(`${server.url}/proof-upload/${freeId}`);
  await page.getByTestId('state-pending').getByText('Your application is still being reviewed.').waitFor();
  await shot(page, 'application-pending-1280');

  // 390 px and dark
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/proof-upload/${badgeId('Team Leadership')}`);
  await hydrated(page, 'ApplicationForm');
  await page.setInputFiles('[data-testid="proof-input"]', [
    { name: 'a-very-long-file-name-for-the-team-leadership-evidence-2025-final-v2.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') },
  ]);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="file-row"]').length === 2);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no horizontal scroll at 390 px');
  await shot(page, 'application-proof-390');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  await hydrated(page, 'ApplicationForm');
  await shot(page, 'application-proof-dark-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'application-proof-dark-1280');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.close();
});
