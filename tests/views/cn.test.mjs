// views/lib/cn.ts against tailwind-merge: for every class found in views/ (any string
// literal's words that tailwind-merge knows as Tailwind classes) and every pair of them,
// cn(a, b) must equal twMerge(a, b) (and cn(a, a) must be a).
// So cn may stand in for tailwind-merge in the islands as long as this passes: a new kind
// of class that cn's table misses fails here, naming the pair.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { twMerge } from 'tailwind-merge';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

async function loadCn() {
  const out = await esbuild.build({ entryPoints: [path.join(root, 'views/lib/cn.ts')], bundle: true, format: 'esm', write: false, platform: 'neutral' });
  const url = 'data:text/javascript;base64,' + Buffer.from(out.outputFiles[0].text).toString('base64');
  return (await import(url)).cn;
}

function viewsWords() {
  const words = new Set();
  const walk = (dir) => {
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, f.name);
      if (f.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(f.name)) {
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
          for (const w of (m[1] ?? m[2] ?? m[3]).split(/\s+/)) if (w && !/[${}<>"'`]/.test(w)) words.add(w);
        }
      }
    }
  };
  walk(path.join(root, 'views'));
  return [...words].sort();
}

test('cn merges every pair of the classes views/ uses as tailwind-merge does', async () => {
  const cn = await loadCn();
  const known = viewsWords().filter((w) => twMerge(w + ' ' + w) === w);
  assert.ok(known.length > 500, `only ${known.length} Tailwind classes found in views/`);
  // classes under different variants never conflict (hover:x and x), so pairs are taken
  // within each set of variants: [&_svg]:size-4 with [&_svg]:shrink-0, p-6 with pt-0
  const byVariants = new Map();
  for (const w of known) {
    const variants = w.replace(/\[[^\]]*\]/g, (m) => m.replace(/:/g, '.')).split(':').slice(0, -1).sort().join(':');
    if (!byVariants.has(variants)) byVariants.set(variants, []);
    byVariants.get(variants).push(w);
  }
  const bad = [];
  let pairs = 0;
  for (const list of byVariants.values()) {
    for (const a of list) {
      for (const b of list) {
        pairs++;
        const want = twMerge(a, b);
        const got = cn(a, b);
        if (got !== want) bad.push(`${a} ${b}: cn "${got}", tailwind-merge "${want}"`);
      }
    }
  }
  assert.ok(pairs > 100000, `only ${pairs} pairs`);
  assert.deepEqual(bad.slice(0, 40), [], `${bad.length} of ${pairs} pairs differ`);
});

test('cn keeps the caller\'s class over the component\'s default', async () => {
  const cn = await loadCn();
  assert.equal(cn('p-6 pt-0', 'pt-6'), 'p-6 pt-6');
  assert.equal(cn('h-10 px-4 py-2', false, 'h-auto px-0'), 'py-2 h-auto px-0');
  assert.equal(cn('text-lg font-semibold leading-none', 'text-base'), 'font-semibold text-base');
  assert.equal(cn('bg-card text-card-foreground', 'bg-destructive/5'), 'text-card-foreground bg-destructive/5');
  assert.equal(cn('hover:bg-accent', 'hover:bg-destructive/10', 'sm:justify-end', 'sm:justify-between'), 'hover:bg-destructive/10 sm:justify-between');
});
