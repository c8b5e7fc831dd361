'use strict';
/*
 * The Firefox Profiler's own code reads our Gecko profiles. Its command-line client (npm package
 * @firefox-devtools/profiler-cli, installed by build.sh into test/browser/node_modules) bundles the same
 * import and processing code as profiler.firefox.com: `load` imports the file into a session, `profile info`
 * lists its threads and `thread samples-top-down` prints each thread's call tree. The call trees must hold
 * the collapsed stacks and counts of the same samples, thread by thread:
 *  - synthetic collapsed stacks with known figures (two threads, a failure marker, native, kernel and
 *    inlined frames), rendered by the agent's writers (render_profile);
 *  - a real JVM's JFR recording converted by jfrconv to collapsed text and to a Gecko profile.
 * No browser: the client runs in node. It must not reach the network: symbolication is switched off (our
 * frames are named already).
 */
const { test, before, after } = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { promisify } = require('util');

const run = promisify(execFile);
const OUT = (process.env.BROWSER_OUT || path.join(os.tmpdir(), 'libprof-browser')) + '-firefox';
const CLI = path.join(__dirname, 'node_modules', '@firefox-devtools', 'profiler-cli', 'dist', 'profiler-cli.js');

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser tests through ctest (./build.sh test)`);
  return v;
}

const SYNTHETIC = [
  '[main tid=1];Main.main;Main.work;Main.hot 60',
  '[main tid=1];Main.main;Main.work;Main.cold 30',
  '[main tid=1];Main.main;Main.idle;read;sys_read_[k] 10',
  '[worker tid=2];Worker.run;Main.hot 7',
  '[worker tid=2];[unknown_Java] 3',
  '[worker tid=2];Worker.run_[j];Worker.loop_[j];Main.inl_[i];Main.leaf_[i] 4',
].join('\n') + '\n';

/* "[name tid=N];a;b 12" lines -> Map of "[name tid=N]|a;b" -> count. */
function collapsedByThread(text) {
  const m = new Map();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const cut = line.lastIndexOf(' ');
    const frames = line.slice(0, cut).split(';');
    const thread = /^\[.* tid=\d+\]$/.test(frames[0]) ? frames.shift() : '';
    const key = `${thread}|${frames.join(';')}`;
    m.set(key, (m.get(key) || 0) + Number(line.slice(cut + 1)));
  }
  return m;
}

/* The name a frame was written with, from the function name the Firefox Profiler shows: our Gecko frames
   carry their origin or source in a trailing " (...)" ("Main.hot (java)", "read (libc.so.6)"). */
function frameName(name) {
  return name.replace(/ \((?:in )?[^()]*\)$/, '');
}

let sessionEnv;

/* Runs the client with 'args'; JSON output parsed when asked for. */
async function cli(args, json = true) {
  const { stdout } = await run(process.execPath, [CLI, ...args, ...(json ? ['--json'] : [])],
    { env: sessionEnv, maxBuffer: 256 << 20, timeout: 120000 });
  return json ? JSON.parse(stdout) : stdout;
}

/* Loads 'file' into a session and returns the session's id. The client gives its daemon 500 ms to start,
   too little on a loaded machine; it then says the daemon is "still starting" and leaves it running, so
   the session is asked for until it answers. */
async function load(file) {
  try {
    await cli(['load', file], false);
    return null;   /* the current session */
  } catch (e) {
    const text = `${e.stdout || ''}${e.stderr || ''}${e.message}`;
    const id = /still starting/.test(text) && /sessions\/([A-Za-z0-9]+)\.log/.exec(text);
    if (!id) throw e;
    for (const until = Date.now() + 120000; Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        await cli(['status', '--session', id[1]], false);
        return id[1];
      } catch (again) { /* not ready yet */ }
    }
    throw new Error(`the Firefox Profiler client's session ${id[1]} for ${file} never became ready: ${text}`);
  }
}

/* Every thread's call tree as the Firefox Profiler computes it: Map of "thread name|stack" -> samples
   (self samples of each node, the tree read back into stacks). */
async function stacksShown(file) {
  const id = await load(file);
  const session = id ? ['--session', id] : [];
  try {
    const info = await cli(['profile', 'info', ...session]);
    const seen = new Map();
    for (const p of info.processes) {
      for (const t of p.threads) {
        const tree = await cli(['thread', 'samples-top-down', '--thread', t.threadHandle, '--include-idle',
                                '--max-lines', '1000000', ...session]);
        const walk = (node, stack) => {
          const here = node.name === '<root>' ? stack : [...stack, frameName(node.name)];
          if (node.selfSamples) {
            const key = `${t.name}|${here.join(';')}`;
            seen.set(key, (seen.get(key) || 0) + node.selfSamples);
          }
          for (const c of node.children || []) walk(c, here);
        };
        walk(tree.regularCallTree, []);
      }
    }
    return { seen, threads: info.threadCount };
  } finally {
    await cli(['stop', '--all'], false).catch(() => {});
  }
}

function assertSameStacks(actual, expected, what) {
  const sorted = (m) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0]));
  assert.deepStrictEqual(sorted(actual), sorted(expected), `${what}: the Firefox Profiler's stacks and counts`);
}

const files = {};

before(async () => {
  if (!fs.existsSync(CLI)) {
    throw new Error('@firefox-devtools/profiler-cli is missing from test/browser/node_modules: run ./build.sh test, '
                    + 'which installs it');
  }
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  const home = path.join(OUT, 'home');
  fs.mkdirSync(home);
  sessionEnv = { ...process.env, HOME: home, PROFILER_CLI_SESSION_DIR: path.join(home, 'sessions'),
                 PROFILER_CLI_NO_SYMBOLICATE: '1', PROFILER_CLI_LOAD_TIMEOUT_MS: '120000' };

  const syn = path.join(OUT, 'synthetic.collapsed');
  fs.writeFileSync(syn, SYNTHETIC);
  const synGecko = path.join(OUT, 'synthetic.gecko.json');
  await run(env('RENDER_PROFILE'), [syn, `file=${synGecko},interval=1ms`]);
  files.synthetic = { collapsed: SYNTHETIC, gecko: synGecko };

  /* A real JVM, recorded to JFR with thread stacks, both outputs converted from the one recording. */
  const jfr = path.join(OUT, 'real.jfr');
  await run(env('JAVA'), [`-agentpath:${env('LIBPROF_SO')}=start,event=cpu,interval=1ms,file=${jfr}`,
                          '-cp', env('BROWSER_CLASSES'), 'FlameWorkload', '1']);
  const realCollapsed = path.join(OUT, 'real.collapsed'), realGecko = path.join(OUT, 'real.gecko.json');
  await run(env('JFRCONV'), ['--threads', jfr, realCollapsed]);
  await run(env('JFRCONV'), ['--threads', jfr, realGecko]);
  files.real = { collapsed: fs.readFileSync(realCollapsed, 'utf8'), gecko: realGecko };
});

after(async () => {
  if (sessionEnv) await cli(['stop', '--all'], false).catch(() => {});
});

for (const name of ['synthetic', 'real']) {
  test(`${name}: the Firefox Profiler reads every Gecko thread with the collapsed stacks and counts`, async () => {
    const f = files[name];
    const expected = collapsedByThread(f.collapsed);
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    assert.ok(total > (name === 'real' ? 200 : 100), `${name}: too few samples to compare (${total})`);
    const { seen, threads } = await stacksShown(f.gecko);
    assertSameStacks(seen, expected, name);
    assert.strictEqual(threads, new Set([...expected.keys()].map((k) => k.split('|')[0])).size,
                       `${name}: one Firefox Profiler thread per profiled thread`);
  });
}
