// Prints what each island costs a visitor: its closure gzipped, i.e. the client entry and
// its static imports, plus the island's chunk, the hydrate chunk (React) and every chunk they
// import statically (the same figure as manifest.json's sizes, which the server reports).
// For each island it also names the heaviest packages in that closure and flags the two
// that should not be there unless used: tailwind-merge and Radix's menu code.
//
//   node esbuild.config.mjs && node bench/islands.mjs            (or: make islands)
//   node bench/islands.mjs --save bench/islands-before.json      record a baseline
//   node bench/islands.mjs --compare bench/islands-before.json   before / after table
//
// It reads static/dist/manifest.json and .cache/client-meta.json (esbuild's metafile).
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const BUDGET = 90 * 1024;

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'static/dist/manifest.json'), 'utf8'));
const meta = JSON.parse(fs.readFileSync(path.join(root, '.cache/client-meta.json'), 'utf8'));
const toOut = (url) => 'static/' + url.replace(/^\/static\//, '');
const gz = (f) => gzipSync(fs.readFileSync(path.join(root, f)), { level: 9 }).length;
const initialFiles = [toOut(manifest.entry)];
for (const imp of meta.outputs[toOut(manifest.entry)].imports || []) if (imp.kind === 'import-statement') initialFiles.push(imp.path);

// a module's package: node_modules/<pkg> (scoped or not), else views/<dir>
const pkgOf = (input) => {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  const v = input.match(/^views\/([^/]+)/);
  return v ? 'views/' + v[1] : input;
};
const isMenu = (input) => /@radix-ui\/react-(menu|dropdown-menu|context-menu|menubar|navigation-menu|select)\//.test(input);

const rows = {};
for (const [name, urls] of Object.entries(manifest.islands)) {
  const files = [...new Set([...initialFiles, ...urls.map(toOut)])];
  const bytes = files.reduce((n, f) => n + gz(f), 0);
  const byPkg = {};
  let merge = false;
  let menu = false;
  for (const f of files) {
    for (const [input, m] of Object.entries(meta.outputs[f]?.inputs || {})) {
      const p = pkgOf(input);
      byPkg[p] = (byPkg[p] || 0) + m.bytesInOutput;
      if (p === 'tailwind-merge' && m.bytesInOutput > 0) merge = true;
      if (isMenu(input) && m.bytesInOutput > 0) menu = true;
    }
  }
  const top = Object.entries(byPkg).sort((a, b) => b[1] - a[1]).slice(0, 5)
    .map(([p, n]) => `${p} ${(n / 1024).toFixed(0)}k`);
  rows[name] = { gz: bytes, tailwindMerge: merge, menu, top };
}
const initial = initialFiles.reduce((n, f) => n + gz(f), 0);

if (arg('--save')) {
  fs.writeFileSync(arg('--save'), JSON.stringify({ initial, islands: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, { gz: v.gz, tailwindMerge: v.tailwindMerge, menu: v.menu }])) }, null, 2) + '\n');
}
const base = arg('--compare') ? JSON.parse(fs.readFileSync(arg('--compare'), 'utf8')) : null;
const kib = (n) => (n / 1024).toFixed(1).padStart(6);
console.log(`initial script: ${(initial / 1024).toFixed(1)} KiB gz${base ? ` (before ${(base.initial / 1024).toFixed(1)})` : ''}`);
console.log(`${'island'.padEnd(20)} ${base ? 'before  ' : ''}KiB gz  twm  menu  over  heaviest (minified, raw)`);
for (const [name, r] of Object.entries(rows).sort((a, b) => b[1].gz - a[1].gz)) {
  const b = base?.islands[name];
  console.log(`${name.padEnd(20)} ${base ? (b ? kib(b.gz) : '     -') + '  ' : ''}${kib(r.gz)}  ${r.tailwindMerge ? 'yes' : ' - '}  ${r.menu ? 'yes ' : ' -  '}  ${r.gz > BUDGET ? 'OVER' : '  - '}  ${r.top.join(', ')}`);
}
