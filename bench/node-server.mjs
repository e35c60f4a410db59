// A bare Node SSR server of the same server bundle (ssr/dist/server.js), for `make bench`:
// one worker per core (node:cluster), no database, no session, no compression, no cache.
// Each request renders its page with renderToString and wraps it in a minimal document
// with the island props, as Meritmark does. The props of each path come from a JSON file
// (bench/http.sh captures them from a running Meritmark once: {"/": {page, props}, ...}).
// Usage: node bench/node-server.mjs PORT PROPS.json
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import vm from 'node:vm';

const port = Number(process.argv[2] || 9090);
const routes = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));

if (cluster.isPrimary) {
  const n = Number(process.env.NODE_WORKERS || os.availableParallelism?.() || os.cpus().length);
  for (let i = 0; i < n; i++) cluster.fork();
  cluster.on('exit', (w, code) => code && console.error('worker exited', code));
} else {
  const src = fs.readFileSync(new URL('../ssr/dist/server.js', import.meta.url), 'utf8');
  const ctx = vm.createContext({});
  vm.runInContext(src, ctx);
  const render = ctx.__mmRender;
  const renderedIslands = ctx.__mmIslands;
  const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  http
    .createServer((req, res) => {
      const path = req.url.split('?')[0];
      const r = routes[path];
      if (!r) {
        res.writeHead(404).end('not found');
        return;
      }
      const html = render(r.page, r.props);
      const islands = JSON.parse(renderedIslands());
      let doc = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(r.title || 'Meritmark')}</title></head><body><div id="root">`;
      doc += html + '</div>';
      islands.forEach((is, i) => {
        doc += `<script type="application/json" id="props-i${i}">${JSON.stringify(is.p).replace(/</g, '\\u003c')}</script>`;
      });
      doc += '</body></html>';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(doc) });
      res.end(doc);
    })
    .listen(port, '127.0.0.1');
}
