// The engines alone: renders the home page warm times, then n times from one JS loop, and
// returns renders per second (no Go crossing, no string brought out). bench/internal/
// renderrun runs it inside a v8go isolate, bench/ssr-node.mjs inside Node.
(function (warm, n, props) {
  for (let i = 0; i < warm; i++) __mmRender('HomePage', props);
  const t0 = Date.now();
  let bytes = 0; // the results are used, so no engine can skip a render
  for (let i = 0; i < n; i++) bytes += __mmRender('HomePage', props).length;
  return bytes > 0 ? n / ((Date.now() - t0) / 1000) : 0;
})
