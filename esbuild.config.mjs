// Builds the three asset sets the Go binary embeds:
//   ssr/dist/server.js     one IIFE for V8: React's string renderer + every page in views/pages
//   static/dist/*.js       the client entry, split so each island is its own chunk
//   static/dist/app-*.css  Tailwind
// and static/dist/manifest.json, which tells the server which files a page needs.
//
// Pages and islands are discovered from the file system (views/pages/*.tsx and
// views/islands/*.tsx, default export): adding a file is all it takes to register one.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

const root = path.dirname(new URL(import.meta.url).pathname);
const views = path.join(root, 'views');
const staticDist = path.join(root, 'static', 'dist');
const ssrDist = path.join(root, 'ssr', 'dist');
const watch = process.argv.includes('--watch');

const names = (dir) =>
  fs.readdirSync(path.join(views, dir))
    .filter((f) => /^[A-Z][A-Za-z0-9]*\.tsx$/.test(f))
    .map((f) => f.replace(/\.tsx$/, ''))
    .sort();

// virtual:pages -> { Name: Component } (server only)
// virtual:islands -> { Name: () => import(...) } on the client; { Name: Component } on the server
const registry = (target) => ({
  name: 'registry',
  setup(build) {
    build.onResolve({ filter: /^virtual:(pages|islands)$/ }, (a) => ({ path: a.path, namespace: 'registry' }));
    build.onLoad({ filter: /.*/, namespace: 'registry' }, (a) => {
      const kind = a.path.slice('virtual:'.length);
      const list = names(kind);
      const abs = (n) => JSON.stringify(path.join(views, kind, n + '.tsx'));
      let contents;
      if (target === 'client') {
        contents = `export default {${list.map((n) => `${n}: () => import(${abs(n)})`).join(',')}};`;
      } else {
        contents = list.map((n) => `import ${n} from ${abs(n)};`).join('\n') + `\nexport default {${list.join(',')}};`;
      }
      return { contents, loader: 'js', resolveDir: views, watchDirs: [path.join(views, kind)] };
    });
  },
});

// Images imported from views (`import url from '../../static/images/logos/x.svg'`) are
// copied to static/dist/images/<name>-<HASH>.<ext> and the import is that URL: a hashed
// name, so the server can cache it for a year (both bundles get the same URL).
const hashedImages = {
  name: 'hashed-images',
  setup(build) {
    build.onLoad({ filter: /static[\\/]images[\\/].*\.(svg|png)$/ }, (a) => {
      const body = fs.readFileSync(a.path);
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 8).toUpperCase();
      const ext = path.extname(a.path);
      const name = `${path.basename(a.path, ext)}-${hash}${ext}`;
      fs.mkdirSync(path.join(staticDist, 'images'), { recursive: true });
      fs.writeFileSync(path.join(staticDist, 'images', name), body);
      return { contents: `export default ${JSON.stringify('/static/dist/images/' + name)};`, loader: 'js' };
    });
  },
};

// virtual:badge-icons -> { sprite, glyphs }: the icons a badge may name
// (app/model/badge-style.json, the list the server validates against) as one SVG sprite, static/dist/images/badge-icons-<HASH>.svg,
// whose <symbol id="award"> etc. BadgeIcon draws with <use>; so their paths are in neither bundle.
const badgeIcons = {
  name: 'badge-icons',
  setup(build) {
    build.onResolve({ filter: /^virtual:badge-icons$/ }, (a) => ({ path: a.path, namespace: 'badge-icons' }));
    build.onLoad({ filter: /.*/, namespace: 'badge-icons' }, async () => {
      const list = path.join(root, 'app', 'model', 'badge-style.json');
      const style = JSON.parse(fs.readFileSync(list, 'utf8'));
      const glyphs = Object.fromEntries([...style.icons, ...style.legacyIcons]);
      const attr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      let symbols = '';
      for (const file of [...new Set(Object.values(glyphs))].sort()) {
        const { __iconNode } = await import(path.join(root, 'node_modules/lucide-react/dist/esm/icons', file + '.js'));
        const body = __iconNode.map(([tag, a]) => `<${tag} ${Object.entries(a).filter(([k]) => k !== 'key').map(([k, v]) => `${k}="${attr(v)}"`).join(' ')}/>`).join('');
        symbols += `<symbol id="${file}" viewBox="0 0 24 24">${body}</symbol>`;
      }
      const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${symbols}</svg>\n`);
      const hash = createHash('sha256').update(svg).digest('hex').slice(0, 8).toUpperCase();
      fs.mkdirSync(path.join(staticDist, 'images'), { recursive: true });
      fs.writeFileSync(path.join(staticDist, 'images', `badge-icons-${hash}.svg`), svg);
      const sprite = `/static/dist/images/badge-icons-${hash}.svg`;
      return { contents: `export const sprite = ${JSON.stringify(sprite)}; export const glyphs = ${JSON.stringify(glyphs)};`, loader: 'js', watchFiles: [list] };
    });
  },
};

// The back office's icons from a sprite (both bundles): every `lucide-react/icons/<name>`
// imported by views/islands/AdminDashboard.tsx or a module under views/components/admin/
// becomes spriteIcon(sprite, '<name>') (views/lib/sprite-icon.tsx), and their paths are
// one SVG file, static/dist/images/admin-icons-<HASH>.svg, found by reading those modules'
// imports before the build. The dashboard is the largest island: its ~40 icons were ~3 KiB
// gz of its script, now a file fetched beside it and cached. Other pages keep lucide's
// icons (a sprite of every icon would cost a first visit more than their few icons do).
const spriteArea = (file) => file === path.join(views, 'islands', 'AdminDashboard.tsx') || file.startsWith(path.join(views, 'components', 'admin') + path.sep);
const lucideFile = (name) => path.join(root, 'node_modules/lucide-react/dist/esm/icons', name + '.js');
let adminSprite;
function buildAdminSprite() {
  adminSprite ??= (async () => {
    const files = [path.join(views, 'islands', 'AdminDashboard.tsx')];
    const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : /\.tsx?$/.test(e.name) && files.push(path.join(d, e.name))));
    walk(path.join(views, 'components', 'admin'));
    const used = new Set();
    for (const f of files) for (const m of fs.readFileSync(f, 'utf8').matchAll(/['"]lucide-react\/icons\/([a-z0-9-]+)['"]/g)) used.add(m[1]);
    const attr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    let symbols = '';
    for (const name of [...used].sort()) {
      const { __iconNode } = await import(lucideFile(name));
      const body = __iconNode.map(([tag, a]) => `<${tag} ${Object.entries(a).filter(([k]) => k !== 'key').map(([k, v]) => `${k}="${attr(v)}"`).join(' ')}/>`).join('');
      symbols += `<symbol id="${name}" viewBox="0 0 24 24">${body}</symbol>`;
    }
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${symbols}</svg>\n`);
    const hash = createHash('sha256').update(svg).digest('hex').slice(0, 8).toUpperCase();
    fs.mkdirSync(path.join(staticDist, 'images'), { recursive: true });
    fs.writeFileSync(path.join(staticDist, 'images', `admin-icons-${hash}.svg`), svg);
    return { url: `/static/dist/images/admin-icons-${hash}.svg`, used };
  })();
  return adminSprite;
}
const adminIcons = {
  name: 'admin-icons',
  setup(build) {
    build.onStart(() => {
      adminSprite = undefined; // a rebuild (--watch) reads the imports again
    });
    build.onResolve({ filter: /^lucide-react\/icons\/[a-z0-9-]+$/ }, (a) => {
      if (!spriteArea(a.importer)) return undefined;
      // a copy per importer, as iconsByCopy does: shared, each icon became a chunk of its own
      return { path: a.path.slice('lucide-react/icons/'.length) + '?from=' + path.relative(root, a.importer), namespace: 'admin-icon' };
    });
    build.onLoad({ filter: /.*/, namespace: 'admin-icon' }, async (a) => {
      const { url, used } = await buildAdminSprite();
      const name = a.path.slice(0, a.path.indexOf('?from='));
      if (!used.has(name)) return { errors: [{ text: `admin icon ${name} was not found by the sprite's scan of the imports` }] };
      const lib = JSON.stringify(path.join(views, 'lib', 'sprite-icon.tsx'));
      return { contents: `import { spriteIcon } from ${lib};\nexport default spriteIcon(${JSON.stringify(url)}, ${JSON.stringify(name)});\n`, loader: 'js', resolveDir: root };
    });
  },
};

// Icons by copy (client only): every module importing a lucide icon gets its own copy of the
// icon's few hundred bytes (they share createLucideIcon), so an icon lands in the chunk of the
// island that draws it. Shared as esbuild would share them, each icon used by a different set
// of islands became a chunk of its own: ~25 chunks of ~200 bytes per island, each gzipped
// and fetched apart (about 3 KiB gz per island, and a request each).
const iconsByCopy = {
  name: 'icons-by-copy',
  setup(build) {
    build.onResolve({ filter: /^lucide-react\/icons\// }, async (a) => {
      if (a.pluginData?.iconsByCopy) return undefined;
      const r = await build.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: { iconsByCopy: true } });
      if (r.errors.length) return { errors: r.errors };
      return { path: r.path + '?from=' + path.relative(root, a.importer), namespace: 'icon-copy' };
    });
    build.onLoad({ filter: /.*/, namespace: 'icon-copy' }, (a) => {
      const file = a.path.slice(0, a.path.indexOf('?from='));
      return { contents: fs.readFileSync(file, 'utf8'), loader: 'js', resolveDir: path.dirname(file) };
    });
  },
};

// React in one chunk (client only): views import react, react/jsx-runtime, react-dom and
// react-dom/client through one module, so the four packages (and the scheduler) are reached
// by the same islands and esbuild puts them in one chunk rather than four (the islands'
// modules import react but only hydrate.tsx react-dom/client). Every island hydrates with
// all four anyway; one chunk saves three requests and ~1 KiB gz of chunk seams per island.
const REACT_PARTS = { R: 'react', J: 'react/jsx-runtime', D: 'react-dom', C: 'react-dom/client' };
const reactOneChunk = {
  name: 'react-one-chunk',
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/client|\/jsx-runtime)?$/ }, (a) => {
      if (a.namespace !== 'file' || !a.importer.startsWith(views + path.sep)) return undefined;
      return { path: 'react', namespace: 'react-one-chunk' };
    });
    build.onLoad({ filter: /.*/, namespace: 'react-one-chunk' }, () => {
      const req = createRequire(import.meta.url);
      const seen = new Set(['default']);
      let contents = '';
      for (const [v, pkg] of Object.entries(REACT_PARTS)) {
        const names = Object.keys(req(pkg)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !n.startsWith('__') && !seen.has(n));
        for (const n of names) seen.add(n);
        contents += `import * as ${v} from ${JSON.stringify(pkg)};\nexport const { ${names.join(', ')} } = ${v};\n`;
      }
      return { contents: contents + 'export default R;\n', loader: 'js', resolveDir: root };
    });
  },
};

// precompress writes name.gz and name.br beside every compressible file of static/dist
// (the server sends them as they are, by Accept-Encoding) when they are smaller.
function precompress(dir) {
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, f.name);
    if (f.isDirectory()) { precompress(p); continue; }
    if (!/\.(js|css|svg|json|txt|map)$/.test(f.name) || f.name === 'manifest.json') continue;
    const body = fs.readFileSync(p);
    const gz = gzipSync(body, { level: 9 });
    const br = brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    if (gz.length < body.length) fs.writeFileSync(p + '.gz', gz);
    if (br.length < body.length) fs.writeFileSync(p + '.br', br);
  }
}

const common = {
  bundle: true,
  minify: !process.env.MERITMARK_DEBUG_ASSETS,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  jsx: 'automatic',
  logLevel: 'warning',
};

function clean(dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) if (f !== '.gitkeep') fs.rmSync(path.join(dir, f), { recursive: true, force: true });
}

async function buildServer() {
  await esbuild.build({
    ...common,
    entryPoints: [path.join(views, 'entry-server.tsx')],
    outfile: path.join(ssrDist, 'server.js'),
    format: 'iife',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    // React's string renderer for browsers needs no Node or Web Streams polyfills.
    alias: { 'react-dom/server': path.join(root, 'node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js') },
    plugins: [registry('server'), hashedImages, badgeIcons, adminIcons],
  });
}

async function buildClient() {
  const result = await esbuild.build({
    ...common,
    entryPoints: { 'entry-client': path.join(views, 'entry-client.ts') },
    outdir: staticDist,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: ['es2022', 'chrome100', 'firefox100', 'safari15'],
    metafile: true,
    plugins: [registry('client'), hashedImages, badgeIcons, adminIcons, iconsByCopy, reactOneChunk],
  });
  // the metafile, for bench/islands.mjs (what each island's closure holds, by module)
  fs.mkdirSync(path.join(root, '.cache'), { recursive: true });
  fs.writeFileSync(path.join(root, '.cache', 'client-meta.json'), JSON.stringify(result.metafile));
  const outputs = result.metafile.outputs;
  const fileOf = (f) => '/static/' + path.relative(path.join(root, 'static'), path.join(root, f)).split(path.sep).join('/');
  let entry = '';
  const islands = {};
  const deps = (out, seen = new Set()) => {
    for (const imp of outputs[out].imports || []) {
      if (imp.kind === 'import-statement' && !seen.has(imp.path)) {
        seen.add(imp.path);
        deps(imp.path, seen);
      }
    }
    return seen;
  };
  for (const [out, meta] of Object.entries(outputs)) {
    if (!out.endsWith('.js')) continue;
    if (meta.entryPoint && meta.entryPoint.endsWith('entry-client.ts')) entry = out;
    const m = meta.entryPoint && meta.entryPoint.match(/views\/islands\/([A-Za-z0-9]+)\.tsx$/);
    if (m) islands[m[1]] = out;
  }
  const hydrateOut = Object.entries(outputs).find(([, m]) => m.entryPoint && m.entryPoint.endsWith('views/lib/hydrate.tsx'))?.[0];
  const gz = (f) => gzipSync(fs.readFileSync(path.join(root, f)), { level: 9 }).length;
  const entryDeps = deps(entry);
  const initial = [entry, ...entryDeps];
  const manifest = { entry: fileOf(entry), css: '', islands: {}, sizes: { initial: initial.reduce((n, f) => n + gz(f), 0) } };
  for (const [name, out] of Object.entries(islands)) {
    // what hydrating this island needs beyond the entry: its chunk, the React runtime, their imports
    const need = new Set([out, ...deps(out), hydrateOut, ...deps(hydrateOut)]);
    for (const f of initial) need.delete(f);
    manifest.islands[name] = [...need].map(fileOf);
    manifest.sizes[name] = [...need].reduce((n, f) => n + gz(f), manifest.sizes.initial);
  }
  return manifest;
}

function buildCSS(manifest) {
  const out = path.join(staticDist, 'app.css');
  const bin = path.join(root, 'node_modules', '.bin', 'tailwindcss');
  execFileSync(bin, ['-i', path.join(views, 'styles.css'), '-o', out, '--minify'], { stdio: ['ignore', 'ignore', 'inherit'], cwd: root });
  const css = fs.readFileSync(out);
  const hash = createHash('sha256').update(css).digest('hex').slice(0, 8).toUpperCase();
  const name = `app-${hash}.css`;
  fs.renameSync(out, path.join(staticDist, name));
  manifest.css = '/static/dist/' + name;
}

async function buildAll() {
  const t0 = Date.now();
  clean(staticDist);
  clean(ssrDist);
  await buildServer();
  const manifest = await buildClient();
  buildCSS(manifest);
  fs.writeFileSync(path.join(staticDist, 'manifest.json'), JSON.stringify(manifest, null, 2));
  precompress(staticDist);
  console.log(`assets built in ${Date.now() - t0} ms: ${names('pages').length} pages, ${Object.keys(manifest.islands).length} islands`);
}

await buildAll();
if (watch) {
  console.log('watching views/ for changes');
  let timer;
  fs.watch(views, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => buildAll().catch((e) => console.error(e.message)), 100);
  });
}
