'use strict';
/*
 * HTML output benchmark (not part of the test run). Run after ./build.sh test (it needs chromium, the
 * playwright-core that build.sh installs in test/browser/node_modules, and the built agent):
 *
 *   node bench/html.js [build-dir]
 *
 * 1. Size: profiles a real JVM doing varied work (javac compiling a file) to collapsed text, renders the
 *    same profile as a flame graph page, and compares the page (and its data alone) with the collapsed text.
 * 2. Speed: builds a synthetic profile of 200K distinct frames, renders it, opens it in headless chromium
 *    and reports the time to first draw, plus the cost of reverse, search, zoom and the call tree.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { chromium } = require(path.join(__dirname, '..', 'test', 'browser', 'node_modules', 'playwright-core'));

const ROOT = path.join(__dirname, '..');
const BUILD = path.resolve(process.argv[2] || path.join(ROOT, 'build'));
const AGENT = path.join(BUILD, 'lib', 'libprof.so');
const RENDER = path.join(BUILD, 'bin', 'render_profile');
const JAVA_HOME = process.env.JAVA_HOME || '/usr/lib/jvm/java-17-openjdk-amd64';
const OUT = fs.mkdtempSync(path.join(os.tmpdir(), 'libprof-bench-html-'));

const kib = (n) => (n / 1024).toFixed(1) + ' KiB';
const size = (f) => fs.statSync(f).size;

/* The bytes of the page that are profile data, not template. */
function dataBytes(html) {
  const start = html.indexOf('<script id="profile"');
  const end = html.indexOf('</script>', start);
  return end - start;
}

function sizeBench() {
  const collapsed = path.join(OUT, 'javac.collapsed');
  /* javac compiling a few hundred classes is a typical mixed Java profile: class loading, parsing,
     attribution, generics, lambdas, code generation, the JIT and GC threads. */
  const sources = [];
  fs.mkdirSync(path.join(OUT, 'src'));
  for (let i = 0; i < 300; i++) {
    const file = path.join(OUT, 'src', `Gen${i}.java`);
    fs.writeFileSync(file, `import java.util.*; import java.util.stream.*;
public class Gen${i}<T extends Comparable<T>> {
  private final Map<String, List<T>> byKey = new HashMap<>();
  public void add(String k, T v) { byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(v); }
  public List<T> sorted(String k) { return byKey.getOrDefault(k, List.of()).stream().sorted().collect(Collectors.toList()); }
  public int count${i}() { int n = 0; for (List<T> l : byKey.values()) n += l.size(); return n + ${i}; }
  public String describe() { return switch (byKey.size()) { case 0 -> "empty"; case 1 -> "one"; default -> "many" + ${i}; }; }
}
`);
    sources.push(file);
  }
  execFileSync(path.join(JAVA_HOME, 'bin', 'java'), [
    `-agentpath:${AGENT}=start,event=cpu,interval=1ms,file=${collapsed}`,
    '-m', 'jdk.compiler/com.sun.tools.javac.Main', '-d', path.join(OUT, 'classes'), ...sources,
  ], { stdio: 'ignore' });
  const lines = fs.readFileSync(collapsed, 'utf8').trim().split('\n').length;
  console.log(`real profile (javac): ${lines} distinct stacks`);
  console.log(`  collapsed text           ${kib(size(collapsed))}`);
  for (const opts of ['', ',minwidth=0.5']) {
    const html = path.join(OUT, `javac${opts.replace(/[,=]/g, '_')}.html`);
    execFileSync(RENDER, [collapsed, `file=${html}${opts}`]);
    const text = fs.readFileSync(html, 'utf8');
    console.log(`  flame graph${opts.padEnd(14)} ${kib(size(html))} (data ${kib(dataBytes(text))}, template ` +
                `${kib(size(html) - dataBytes(text))}), ${(100 * size(html) / size(collapsed)).toFixed(0)}% of collapsed`);
  }
}

/* A random tree of 'count' frames, every frame name distinct, written as collapsed stacks. */
function syntheticCollapsed(file, count) {
  let seed = 12345;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const parent = new Int32Array(count);
  const depth = new Int32Array(count);
  const hasChild = new Uint8Array(count);
  parent[0] = -1;
  for (let i = 1; i < count; i++) {
    /* Mostly deepen a recent frame, sometimes branch from anywhere: deep stacks and wide nodes both, with
       stacks up to 80 frames as Java applications have them. */
    let p = rand(4) ? i - 1 - rand(Math.min(i, 8)) : rand(i);
    while (depth[p] >= 80) p = rand(i);
    parent[i] = p;
    depth[i] = depth[p] + 1;
    hasChild[p] = 1;
  }
  const name = (i) => `com/example/pkg${i % 97}/Class${i}.method${i % 13}`;
  const out = fs.openSync(file, 'w');
  let buf = '';
  for (let i = 0; i < count; i++) {
    if (hasChild[i] && rand(3)) continue;   /* most inner frames have no self time */
    const stack = [];
    for (let f = i; f >= 0; f = parent[f]) stack.push(name(f));
    buf += stack.reverse().join(';') + ' ' + (1 + rand(100)) + '\n';
    if (buf.length > 1 << 20) { fs.writeSync(out, buf); buf = ''; }
  }
  fs.writeSync(out, buf);
  fs.closeSync(out);
}

async function speedBench() {
  const count = 200000;
  const collapsed = path.join(OUT, 'synthetic.collapsed');
  syntheticCollapsed(collapsed, count);
  const html = path.join(OUT, 'synthetic.html');
  execFileSync(RENDER, [collapsed, `file=${html}`]);
  console.log(`synthetic profile: ${count} distinct frames; collapsed ${kib(size(collapsed))}, page ${kib(size(html))}`);
  const context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(OUT, 'chromium-')), {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const page = await context.newPage();
    await page.goto('file://' + html);
    await page.waitForFunction(() => window.libprof && window.libprof.firstDrawMs > 0, null, { timeout: 120000 });
    const r = await page.evaluate(async () => {
      const time = async (fn) => {
        const t = performance.now();
        fn();
        return performance.now() - t;
      };
      const lp = window.libprof;
      const out = { firstDraw: lp.firstDrawMs, load: lp.scriptStartMs, decode: lp.decodeMs, nodes: lp.nodes(), drawn: lp.drawnCount() };
      out.search = await time(() => {
        const s = document.getElementById('search');
        s.value = '/Class1\\d{4}\\./';
        s.dispatchEvent(new Event('input'));
      });
      out.reverse = await time(() => document.getElementById('reverse').click());
      out.redraw = await time(() => document.getElementById('reverse').click());
      out.tree = await time(() => document.getElementById('view-tree').click());
      return out;
    });
    runs.push(r);
    await page.close();
  }
  await context.close();
  const med = (k) => runs.map((r) => r[k]).sort((a, b) => a - b)[1].toFixed(0) + ' ms';
  console.log(`  tree nodes in the page   ${runs[0].nodes} (frames drawn at first: ${runs[0].drawn})`);
  console.log(`  time to first draw       ${med('firstDraw')} (median of 3)`);
  console.log(`    of which: reading and parsing the page ${med('load')}, building the tree ${med('decode')}, ` +
              `drawing ${(runs.map((r) => r.firstDraw - r.load - r.decode).sort((a, b) => a - b)[1]).toFixed(0)} ms`);
  console.log(`  search /regex/ + redraw  ${med('search')}`);
  console.log(`  reverse (first build)    ${med('reverse')}; back to forward: ${med('redraw')}`);
  console.log(`  switch to the call tree  ${med('tree')}`);
}

(async () => {
  sizeBench();
  await speedBench();
  console.log(`(files in ${OUT})`);
})().catch((e) => { console.error(e); process.exit(1); });
