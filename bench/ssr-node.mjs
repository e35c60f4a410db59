// Renders the home page with the same server bundle in Node (one thread) and prints
// {perSec, p50, p99, bytes, cpuMs (CPU per render, all threads)} as JSON; used by bench/ssrbench for the v8go/Node ratio.
// Modes (argv[3]): none, renderToString's JS string as it is; "bytes", each render's HTML
// also encoded to UTF-8 bytes, as an http server must before it sends it (the isolate pool
// hands Go its HTML as bytes); "loop", the engines alone (below).
import fs from 'node:fs';
import vm from 'node:vm';

const n = Number(process.argv[2] || 5000);
const src = fs.readFileSync(new URL('../ssr/dist/server.js', import.meta.url), 'utf8');
const ctx = vm.createContext({});
vm.runInContext(src, ctx);
const render = ctx.__mmRender;
const props = JSON.stringify({ shell: { user: null, path: '/', origin: 'http://localhost:8080', supportEmail: 'support@meritmark.example' }, page: {} });
if (process.argv[3] === 'loop') {
  // the engines alone: the JS loop bench/internal/renderrun also runs inside a v8go isolate
  const loop = vm.runInContext(fs.readFileSync(new URL('./internal/renderrun/engine-loop.js', import.meta.url), 'utf8'), ctx);
  console.log(JSON.stringify({ perSec: loop(Number(process.argv[4] || 3000), n, props) }));
  process.exit(0);
}
const toBytes = process.argv[3] === 'bytes';
for (let i = 0; i < 500; i++) render('HomePage', props);
const lat = new Float64Array(n);
const cpu0 = process.cpuUsage();
const t0 = process.hrtime.bigint();
let bytes = 0;
for (let i = 0; i < n; i++) {
  const s = process.hrtime.bigint();
  const out = render('HomePage', props);
  bytes = toBytes ? Buffer.from(out, 'utf8').length : out.length;
  lat[i] = Number(process.hrtime.bigint() - s) / 1e6;
}
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0); // microseconds of CPU, every thread of the process
const cpuMs = (cpu.user + cpu.system) / 1000 / n;
lat.sort();
console.log(JSON.stringify({ perSec: n / secs, p50: lat[Math.floor(n / 2)], p99: lat[Math.floor((n * 99) / 100)], bytes, cpuMs }));
