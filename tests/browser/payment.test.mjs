// The payment journey in a real browser: an application for a proof badge, the payment
// page (coupon messages, order summary), the sandbox simulator's approve / cancel /
// decline, the success page (also after a reload), the failed page and a free grant.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, hydrated, shot, watchErrors, ADMIN_EMAIL, ADMIN_PASSWORD, confirmSignup } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const API = '/backend/api/v1';

async function signUp(email) {
  const ctx = browser.context;
  await ctx.clearCookies();
  const r = await ctx.request.post(server.url + API + '/auth/register', { data: { name: 'Pat Payer', email, password: 'pat-payer-pass-1' } });
  assert.equal(r.status(), 201, await r.text());
  await confirmSignup(server, ctx.request, email, 'pat-payer-pass-1');
}

async function badgeNamed(name) {
  const r = await browser.context.request.get(server.url + API + '/badges/with-ownership');
  const { badges } = await r.json();
  const b = badges.find((x) => x.name === name);
  assert.ok(b, `badge ${name}`);
  return b;
}

// An application through the API, as the application page sends it: a proof badge with a
// portfolio URL.
async function apply(badge) {
  const r = await browser.context.request.post(server.url + API + '/applications', {
    multipart: {
      badgeId: badge._id,
      type: 'proof',
      fullName: 'Pat Payer',
      position: 'Software Engineer',
      linkedin: 'https://linkedin.com/in/pat-payer',
      portfolio: 'https://github.com/pat-payer',
      description: 'Maintainer of two open source libraries.',
    },
  });
  assert.equal(r.status(), 201, await r.text());
  const { application } = await r.json();
  assert.equal(application.status, 'awaiting_payment');
  return application;
}

test('from an application to Payment Successful! through the PayPal sandbox simulator', async () => {
  await signUp('payer@example.com');
  const badge = await badgeNamed('Open Source Contributor'); // proof, Development, $29.00
  await apply(badge);

  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(server.url + '/payment/' + badge._id);
  await hydrated(page, 'PaymentCheckout');
  await page.getByText('Verification Completed').waitFor();
  assert.equal(await page.getByTestId('summary-fee').textContent(), '$29.00');
  assert.match(await page.getByTestId('summary-total').textContent(), /^\$29\.00/);
  assert.ok(await page.getByText('Processing fee').isVisible());
  assert.ok(await page.getByTestId('paypal-sim-button').isVisible(), 'the simulator button is shown without PayPal credentials');
  assert.match(await page.getByTestId('paypal-sim-button').textContent(), /sandbox simulator/);
  await shot(page, 'payment-page-1280');

  // an empty code
  await page.getByTestId('coupon-apply').click();
  await page.getByText('Please enter a coupon code').first().waitFor();
  // typed in lower case, upper-cased as typed; an unknown code
  await page.getByTestId('coupon-input').fill('nope');
  assert.equal(await page.getByTestId('coupon-input').inputValue(), 'NOPE');
  await page.getByTestId('coupon-apply').click();
  await page.getByText('Invalid Coupon').first().waitFor();
  await page.getByText('Coupon code is invalid or expired').first().waitFor();
  await shot(page, 'payment-invalid-coupon-1280');
  // a coupon that applies: 10% off 29.00
  await page.getByTestId('coupon-input').fill('welcome10');
  await page.getByTestId('coupon-apply').click();
  await page.getByText('Coupon applied! You saved $2.90').first().waitFor();
  assert.equal(await page.getByTestId('summary-discount').textContent(), '-$2.90');
  assert.match(await page.getByTestId('summary-total').textContent(), /^\$26\.10/);
  await shot(page, 'payment-coupon-applied-1280');

  // cancel in the simulator
  await page.getByTestId('paypal-sim-button').click();
  await page.getByTestId('paypal-sim-dialog').waitFor();
  assert.match(await page.getByTestId('paypal-sim-dialog').textContent(), /\$26\.10 USD/);
  await shot(page, 'payment-simulator-dialog-1280');
  await page.getByTestId('sim-cancel').click();
  await page.getByText('PayPal payment was cancelled').first().waitFor();
  assert.equal(await page.getByTestId('paypal-sim-dialog').count(), 0);
  assert.equal(await page.getByTestId('paypal-sim-button').isDisabled(), false);

  // approve
  await page.getByTestId('paypal-sim-button').click();
  await page.getByTestId('sim-approve').click();
  await page.waitForURL('**/payment-success/' + badge._id, { timeout: 20000 });
  assert.equal(await page.getByTestId('result-title').textContent(), 'Payment Successful!');
  assert.match(await page.getByTestId('result-amount').textContent(), /\$26\.10/);
  assert.match(await page.getByTestId('result-details').textContent(), /Original amount\$29\.00/);
  assert.match(await page.getByTestId('result-details').textContent(), /WELCOME10/);
  assert.equal(await page.getByTestId('result-status').textContent(), 'Processing');
  assert.match(await page.getByTestId('review-note').textContent(), /2-3 business days/);
  await shot(page, 'payment-success-1280');

  // a reload asks the server again
  await page.reload();
  assert.equal(await page.getByTestId('result-title').textContent(), 'Payment Successful!');
  assert.match(await page.getByTestId('result-amount').textContent(), /\$26\.10/);

  // the payment page now says there is nothing to pay
  await page.goto(server.url + '/payment/' + badge._id);
  await page.getByTestId('state-in-review').waitFor();

  // dark theme and a phone
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.goto(server.url + '/payment-success/' + badge._id);
  await shot(page, 'payment-success-dark-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'payment-success-dark-390');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  assert.deepEqual(errors.filter((e) => !/Failed to load resource: the server responded with a status of (404|422)/.test(e)), []); // expected API refusals
  await page.close();
});

test('a declined payment goes to the failed page; retry goes back; then a free grant', async () => {
  await signUp('decliner@example.com');
  const badge = await badgeNamed('Team Leadership'); // proof, $69.00
  await apply(badge);
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(server.url + '/payment/' + badge._id);
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.reload();
  await hydrated(page, 'PaymentCheckout');
  await shot(page, 'payment-page-dark-390');
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await page.reload();
  await hydrated(page, 'PaymentCheckout');
  await shot(page, 'payment-page-390');

  // the dialog on a phone; a pending capture is not offered here: decline
  await page.getByTestId('paypal-sim-button').click();
  await page.getByTestId('paypal-sim-dialog').waitFor();
  await shot(page, 'payment-simulator-dialog-390');
  await page.getByTestId('sim-decline').click();
  await page.waitForURL('**/payment-failed/' + badge._id, { timeout: 20000 });
  await page.getByTestId('failed-title').waitFor();
  await hydrated(page, 'PaymentRetry');
  await page.getByTestId('failed-reason').waitFor();
  assert.match(await page.getByTestId('failed-reason').textContent(), /declined by PayPal/);
  await shot(page, 'payment-failed-390');
  await page.getByTestId('retry-payment').click();
  await page.waitForURL('**/payment/' + badge._id);
  await hydrated(page, 'PaymentCheckout');

  // a 100% coupon makes it free: the provider button gives way to the free grant
  await page.getByTestId('coupon-input').fill('freegrant');
  await page.getByTestId('coupon-apply').click();
  await page.getByText('Coupon applied! You saved $69.00').first().waitFor();
  assert.equal(await page.getByTestId('paypal-sim-button').count(), 0);
  assert.match(await page.getByTestId('summary-total').textContent(), /^\$0\.00/);
  await shot(page, 'payment-free-grant-390');
  await page.getByTestId('free-grant').click();
  await page.waitForURL('**/payment-success/' + badge._id, { timeout: 20000 });
  assert.equal(await page.getByTestId('result-title').textContent(), 'Payment Successful!');
  assert.match(await page.getByTestId('result-details').textContent(), /Free grant coupon/);
  assert.equal(await page.getByTestId('result-status').textContent(), 'Processing', 'a free grant is never approved by itself');
  await shot(page, 'payment-free-grant-success-390');
  assert.deepEqual(errors.filter((e) => !/Failed to load resource: the server responded with a status of (404|422)/.test(e)), []); // expected API refusals
  await page.close();
});

test('a member without an application awaiting payment sees a clear state', async () => {
  await signUp('nobody@example.com');
  const badge = await badgeNamed('Machine Learning Practitioner');
  const page = await browser.context.newPage();
  await page.goto(server.url + '/payment/' + badge._id);
  await page.getByTestId('state-no-application').waitFor();
  await shot(page, 'payment-no-application-1280');
  const res = await page.goto(server.url + '/payment/0123456789abcdef01234567');
  assert.equal(res.status(), 404);
  await page.getByText('Badge not found').waitFor();
  await page.goto(server.url + '/payment-success/' + badge._id);
  await page.getByTestId('state-no-payment').waitFor();
  await page.close();
});

test('a coupon leaving less than $1.00 shows the minimum adjustment to $1.00', async () => {
  const ctx = browser.context;
  await ctx.clearCookies();
  let r = await ctx.request.post(server.url + API + '/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  assert.equal(r.status(), 200, await r.text());
  const now = Date.now();
  r = await ctx.request.post(server.url + API + '/coupons', {
    data: {
      code: 'ALMOSTFREE', name: 'Almost free', description: '', discountType: 'fixed', discountValue: 58.5, minimumAmount: 0,
      maximumDiscount: null, usageLimit: null, validFrom: new Date(now - 60000).toISOString(), validUntil: new Date(now + 86400000).toISOString(),
      applicableBadges: [], applicableCategories: [], isActive: true,
    },
  });
  assert.ok(r.ok(), await r.text());

  await signUp('minimum@example.com');
  const badge = await badgeNamed('Product Design Portfolio'); // proof, $59.00
  await apply(badge);
  const page = await ctx.newPage();
  await page.goto(server.url + '/payment/' + badge._id);
  await hydrated(page, 'PaymentCheckout');
  await page.getByTestId('coupon-input').fill('almostfree');
  await page.getByTestId('coupon-apply').click();
  await page.getByText('Coupon applied! You saved $58.50').first().waitFor();
  assert.equal(await page.getByTestId('summary-minimum').textContent(), '+$0.50');
  assert.match(await page.getByTestId('minimum-notice').textContent(), /at least \$1\.00/);
  assert.match(await page.getByTestId('summary-total').textContent(), /^\$1\.00/);
  assert.ok(await page.getByTestId('paypal-sim-button').isVisible(), 'a $1.00 charge still goes through PayPal');
  await shot(page, 'payment-minimum-adjustment-1280');
  await page.close();
});
