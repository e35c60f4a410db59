// The icons and colours a badge may name have one source, app/model/badge-style.json. The
// views keep literal Tailwind class strings per colour (Tailwind keeps only what it sees),
// so each colour of the list must have its classes in each map that styles a colour, and
// each icon a lucide file the sprite can draw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const style = JSON.parse(fs.readFileSync(path.join(root, 'app/model/badge-style.json'), 'utf8'));
const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');

/** The keys of `const NAME ... = { key: '...', ... }` in a source file. */
function mapKeys(src, name) {
  const m = src.match(new RegExp(`const ${name}[^=]*=\\s*\\{([\\s\\S]*?)\\n\\};`));
  assert.ok(m, `no map ${name}`);
  return new Set([...m[1].matchAll(/(?:^|[\s,{])([a-z]+):\s*'/g)].map((x) => x[1]));
}

test('every badge colour has its classes wherever a colour is styled', () => {
  const colors = style.colors.map(([n]) => n);
  assert.ok(colors.length >= 10);
  for (const [file, name] of [['views/components/badges.tsx', 'COLORS'], ['views/components/admin/BadgeAdminKit.tsx', 'SWATCH']]) {
    const keys = mapKeys(read(file), name);
    assert.deepEqual([...keys].sort(), [...colors].sort(), `${file} ${name}`);
  }
  for (const [n, hex] of style.colors) assert.match(hex, /^#[0-9a-f]{6}$/, n);
});

test('every badge icon names a lucide icon the sprite can draw', () => {
  for (const [name, file] of [...style.icons, ...style.legacyIcons]) {
    assert.ok(fs.existsSync(path.join(root, 'node_modules/lucide-react/dist/esm/icons', file + '.js')), `${name}: ${file}`);
  }
  const offered = style.icons.map(([n]) => n);
  assert.equal(new Set(offered).size, offered.length, 'no icon twice');
});
