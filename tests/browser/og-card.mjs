// Renders the default social card, static/images/og-card.png (1200x630), in headless
// Chromium. The server uses it as og:image / twitter:image when a page gives none.
//
//   node tests/browser/og-card.mjs          # writes static/images/og-card.png, prints its size
//
// The PNG is committed; rerun this after changing the card. It must stay under 150 KB.
import fs from 'node:fs';
import path from 'node:path';
import { launch } from './harness.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const out = path.join(root, 'static', 'images', 'og-card.png');
const LIMIT = 150 * 1024;

const mark = `<svg viewBox="0 0 24 24" width="34" height="34" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="8" r="6"/><path d="M15.477 12.89 17 22l-5-3-5 3 1.523-9.11"/></svg>`;
const check = `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><path d="M20 6 9 17l-5-5"/></svg>`;
const shield = `<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><path d="M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z"/><path d="m9 12 2 2 4-4"/></svg>`;

const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  body { width: 1200px; height: 630px; overflow: hidden; font-family: Inter, "Segoe UI", "DejaVu Sans", sans-serif; background: #0b0d1a; color: #fff; }
  .wrap { position: relative; width: 1200px; height: 630px; padding: 64px 72px; overflow: hidden; }
  /* flat shapes, not gradients: a gradient's dithering would triple the PNG */
  .disc1 { position: absolute; width: 720px; height: 720px; right: -250px; top: -210px; border-radius: 50%; background: #171538; }
  .disc2 { position: absolute; width: 520px; height: 520px; right: -150px; top: -110px; border-radius: 50%; background: #1f1b4d; }
  .bar { position: absolute; left: 0; right: 0; bottom: 0; height: 8px; background: #6d28d9; }
  .brand { position: relative; display: flex; align-items: center; gap: 14px; font-size: 30px; font-weight: 700; letter-spacing: -0.5px; }
  .logo { width: 56px; height: 56px; border-radius: 14px; background: #4f46e5; display: flex; align-items: center; justify-content: center; }
  h1 { position: relative; margin-top: 44px; width: 660px; font-size: 58px; line-height: 1.08; font-weight: 800; letter-spacing: -1.5px; }
  h1 span { color: #c4b5fd; }
  p.lead { position: relative; margin-top: 22px; width: 620px; font-size: 24px; line-height: 1.4; color: #c7c9e0; }
  .chips { position: absolute; left: 72px; bottom: 56px; display: flex; gap: 12px; }
  .chip { display: flex; align-items: center; gap: 8px; padding: 10px 16px; border-radius: 999px; background: rgba(255,255,255,.08); border: 1px solid rgba(255,255,255,.16); font-size: 18px; color: #e4e4f5; }
  .chip svg { color: #6ee7b7; }
  .card { position: absolute; right: 64px; top: 120px; width: 360px; border-radius: 24px; background: #fff; color: #111827; overflow: hidden; box-shadow: 0 0 0 8px rgba(255,255,255,.06); }
  .card .top { background: #6d28d9; padding: 26px 28px; color: #fff; }
  .card .icon { width: 64px; height: 64px; border-radius: 16px; background: rgba(255,255,255,.16); display: flex; align-items: center; justify-content: center; }
  .card .cat { margin-top: 20px; font-size: 14px; letter-spacing: 1.5px; text-transform: uppercase; color: #ddd6fe; font-weight: 600; }
  .card .name { margin-top: 6px; font-size: 26px; font-weight: 700; line-height: 1.2; }
  .card .body { padding: 22px 28px 26px; }
  .row { display: flex; justify-content: space-between; font-size: 15px; color: #6b7280; }
  .row b { display: block; margin-top: 4px; font-size: 18px; color: #111827; font-weight: 600; }
  .vid { margin-top: 16px; font-size: 15px; color: #6b7280; }
  .vid b { display: block; margin-top: 4px; font-family: "DejaVu Sans Mono", monospace; font-size: 17px; color: #111827; }
  .ok { margin-top: 20px; display: inline-flex; align-items: center; gap: 8px; padding: 8px 14px; border-radius: 999px; background: #dcfce7; color: #15803d; font-weight: 700; font-size: 16px; }
</style></head><body><div class="wrap">
  <div class="disc1"></div><div class="disc2"></div><div class="bar"></div>
  <div class="brand"><div class="logo">${mark}</div>Meritmark</div>
  <h1>Professional badges that <span>prove themselves</span></h1>
  <p class="lead">Earn it by quiz or proof. Share a signed credential anyone can verify.</p>
  <div class="chips">
    <div class="chip">${check} Open Badges 3.0</div>
    <div class="chip">${check} Ed25519-signed</div>
      </div>
  <div class="card">
    <div class="top">
      <div class="icon">${mark}</div>
      <div class="cat">DevOps · Advanced</div>
      <div class="name">Kubernetes Platform Engineer</div>
    </div>
    <div class="body">
      <div class="row"><div>Issued to<b>Jordan Rivera</b></div><div>Issued<b>Mar 14, 2025</b></div></div>
      <div class="vid">Verification ID<b>MM-8F2K-41QZ-7C9D</b></div>
      <div class="ok">${shield} Signature valid</div>
    </div>
  </div>
</div></body></html>`;

const { context, close } = await launch();
try {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1200, height: 630 });
  await page.setContent(html);
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1200, height: 630 } });
} finally {
  await close();
}
const size = fs.statSync(out).size;
console.log(`${path.relative(root, out)}: 1200x630, ${(size / 1024).toFixed(1)} KB`);
if (size > LIMIT) {
  console.error(`too large: over ${LIMIT / 1024} KB`);
  process.exit(1);
}
