#!/usr/bin/env node
// Entry point: the only place that exits the process. CommonJS (bin/package.json), so the commonest calls never
// start Node's ES module loader: `--version` and `--help` are answered from files, everything else loads the
// bundled CLI (dist/bundle/main.cjs, built by scripts/bundle.mjs).
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { dirname, join } = require('node:path');

const argv = process.argv.slice(2);
/** Whether fd 1 is a terminal, once known (stdoutIsTerminal). */
let terminal;

/** Where this installation's files are: the npm package's, beside this file. */
const npmPackage = {
  version: () => JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version,
  helpTexts: () => JSON.parse(readFileSync(join(__dirname, '..', 'dist', 'help.json'), 'utf8')),
  loadBundle,
};

// Required (by scripts/compile-cache.mjs, by tests) for its compile cache alone, and by the single executable
// (src/executable/, which hands startCli its own files); run as the CLI otherwise.
if (require.main !== module)
  module.exports = {
    commandKey,
    compileBundle,
    directStdout,
    loadWithVmCache,
    runShape,
    shapeCacheFile,
    shapeName,
    startCli,
    wrapForVm,
  };
else startCli(npmPackage);

/**
 * The CLI, its files read through `installation` (`version()`, `helpTexts()`, `loadBundle(useCache, shape)`, `shape`
 * naming the run's build cache: shapeName).
 */
function startCli(installation) {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))
    writeAll(`${installation.version()}\n`);
  else if (!answerHelp(argv, installation)) run(installation);
}

/**
 * `clinic [COMMAND...] --help` and `clinic help [COMMAND...]`: the text commander prints, rendered at build time (scripts/help-cache.mjs, checked
 * against the live rendering by test/e2e/cli/startup.test.ts). Help is 80 columns wide; a narrower terminal, or
 * anything but plain command words before the flag, takes the live path.
 */
function answerHelp(args, installation) {
  const last = args[args.length - 1];
  // `clinic help erasure list` is `clinic erasure list --help`.
  const words = args[0] === 'help' ? args.slice(1) : args.slice(0, -1);
  if (args[0] !== 'help' && last !== '--help' && last !== '-h') return false;
  if (words.some((word) => word.startsWith('-'))) return false;
  if (helpNarrower()) return false;
  let texts;
  try {
    texts = installation.helpTexts();
  } catch {
    return false;
  }
  const text = texts[words.join(' ')];
  if (typeof text !== 'string') return false;
  writeAll(text);
  return true;
}

/**
 * Whether help is to be narrower than the cached 80 columns (src/cli/io.ts, readerWidth): a terminal narrower than
 * that on stdout; in a pipe, COLUMNS, else the terminal stderr is on (stderr's stream is made only then).
 */
function helpNarrower() {
  const tty = require('node:tty');
  if (tty.isatty(1)) return (process.stdout.columns || 80) < 80;
  const asked = Number(process.env.COLUMNS);
  if (Number.isInteger(asked) && asked >= 20 && asked <= 1000) return asked < 80;
  return tty.isatty(2) && (process.stderr.columns || 80) < 80;
}

function run(installation) {
  const debug = argv.includes('--debug') || Boolean(process.env.CLINIC_DEBUG);
  if (debug) process.setSourceMapsEnabled(true);
  const bundle = installation.loadBundle(!debug, shapeName(runShape(argv), stdoutIsTerminal()));
  const interrupt = new AbortController();
  const stop = (signal) => {
    // The first signal lets the command flush its partial output (it stops at once), the abort's reason naming the
    // signal: a command that runs until stopped (chat tail) takes SIGTERM (systemctl stop) as its normal end, exit 0.
    // A run still busy after a second of Ctrl-C is ended then (exit 130), as Ctrl-C must stop any command within a
    // second; after SIGTERM, sent by a supervisor that waits (systemd 90 s, docker 10 s), it has a few seconds (a
    // checkpoint's last write on a busy disk). A second signal leaves at once.
    if (interrupt.signal.aborted) return forcedEnd(signal);
    // An AbortError as any abort gives, naming the signal.
    interrupt.abort(Object.assign(new DOMException('This operation was aborted', 'AbortError'), { signal }));
    setTimeout(() => forcedEnd(signal), signal === 'SIGTERM' ? SIGTERM_GRACE_MS : 1000).unref();
  };
  // A run ended before it stopped on its own first erases its spinner or countdown and says it was interrupted.
  let lastWords = () => {};
  const forcedEnd = (signal) => {
    try {
      lastWords();
    } finally {
      endInterrupted(signal);
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Each stream is made on first use (making one costs a start-up 1-2 ms): stdin only by the commands that read it,
  // stderr on the first line written to it, stdout once more than a small output is written (directStdout).
  let stdout;
  // `clinic ... | head`: a closed pipe ends the run quietly, unless the run asked to be told instead (a bulk run, which
  // must not leave a request unrecorded nor end in success with records unsent, stops sending and ends on its own).
  let whenClosed;
  const closed = () => {
    if (!whenClosed) process.exit(0);
    const tell = whenClosed;
    whenClosed = () => {};
    tell();
  };
  const stdoutStream = () => {
    if (stdout) return stdout;
    stdout = process.stdout;
    stdout.on('error', (error) => {
      if (error.code === 'EPIPE') return closed();
      cannotWrite(error);
    });
    return stdout;
  };
  const streams = {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return stdoutStream();
    },
    get stderr() {
      return process.stderr;
    },
    direct: directStdout({
      streamMade: () => stdout !== undefined,
      stream: stdoutStream,
      writeSync,
      closed,
      fail: cannotWrite,
      onClosed: (tell) => (whenClosed = tell),
    }),
  };
  // A run whose promise never settles, with nothing left to wait for (a request a server left unanswered in a way no
  // timer or socket notices), must not end as Node's exit 0: it is a failure, said in one line.
  let settled = false;
  process.exitCode = 1;
  process.once('beforeExit', () => {
    if (settled) return;
    process.stderr.write(
      'error: the command stopped before it finished, with nothing left to wait for (a bug of clinic: run it again with --debug and report what it prints)\n',
    );
    process.exit(1);
  });
  // Ctrl-C typed at a question: a key read in raw mode, no signal (the run's own end then raises it, endInterrupted).
  let ctrlCTyped = false;
  const deps = {
    streams,
    env: process.env,
    signal: interrupt.signal,
    ctrlCTyped: () => (ctrlCTyped = true),
    onForcedEnd: (words) => (lastWords = words),
  };
  bundle.main(argv, deps).then((code) => {
    settled = true;
    const leave = (error) => {
      if (error && error.code !== 'EPIPE') cannotWrite(error);
      // The cache is written once the output is out. A failed run (a usage error, an unreachable server) ran too
      // little of its command to be worth keeping.
      if (code === 0) bundle.saveCache();
      if (code === 130 && ctrlCTyped) endInterrupted('SIGINT', { group: true });
      else if (code === 130 && interrupt.signal.reason?.signal === 'SIGINT') endInterrupted('SIGINT');
      else process.exit(code);
    };
    // Leave once stdout has drained, so piped output is never cut short (what went straight to fd 1 is out).
    if (stdout) stdout.write('', leave);
    else leave();
  });
}

/**
 * Ends a run a signal stopped. After Ctrl-C (SIGINT), by SIGINT itself, as a process Ctrl-C stops ends: a shell running
 * clinic in a loop or a script stops there too, where it goes on past a child that merely exits (130 included),
 * taking it to have handled the signal. The shell still reads 130. Ctrl-C typed at a question (`group`) was a key read
 * in raw mode, which no one else heard: SIGINT goes to the whole process group, as the terminal sends it (the
 * question's reader is in the terminal's foreground group), so the shell running the loop hears it too. Exit 130
 * where a signal cannot be raised (Windows) or does not end the process.
 */
function endInterrupted(signal, { group = false } = {}) {
  if (signal === 'SIGINT' && process.platform !== 'win32') {
    process.removeAllListeners('SIGINT'); // SIGINT's default action again: the end of the process
    process.kill(group ? 0 : process.pid, 'SIGINT');
    setTimeout(() => process.exit(130), 200);
    return;
  }
  process.exit(130);
}

/** How long a run SIGTERM stopped may take to end on its own before it is ended (exit 130): under docker's 10 s. */
const SIGTERM_GRACE_MS = 5000;

/** What goes straight to fd 1 in a run, at most: any pipe takes so much without blocking (Linux's hold 64 KiB). */
const DIRECT_BYTES = 16 * 1024;

/**
 * stdout without a stream while a run's output is small (a record, a page): written at once with writeSync, as Node
 * writes to files and terminals anyway. Past DIRECT_BYTES in all, or once the stream exists, the stream takes over,
 * with its backpressure for long exports. A non-blocking fd 1 that is full (EAGAIN) hands the rest to the stream; a
 * closed pipe ends the run quietly, as the stream's error does.
 */
function directStdout({ streamMade, stream, writeSync: write, closed, fail, onClosed }) {
  let written = 0;
  let gone = false;
  return {
    /** Asks to be told when stdout's reader has gone, instead of the run's end; what is written then is dropped. */
    onClosed(tell) {
      onClosed(() => {
        gone = true;
        tell();
      });
    },
    /**
     * Whether fd 1 is a terminal, asked without making the stream; node:tty (a start-up's 0.3 ms) is loaded only for
     * a character device other than /dev/null (cron's, a service's), which a pipe or a file is not.
     */
    get isTTY() {
      return stdoutIsTerminal();
    },
    /** Whether fd 1 is a pipe or a socket (`clinic ... | jq`): asked only before a spinner is drawn. */
    get isPipe() {
      try {
        const stat = require('node:fs').fstatSync(1);
        return stat.isFIFO() || stat.isSocket();
      } catch {
        return false;
      }
    },
    /** Writes all of `text` now, when it may: true if it did (or handed it on), false to use the stream. */
    write(text) {
      if (gone) return true;
      // UTF-8 takes a byte or more for each UTF-16 unit: a text too long is refused before it is encoded.
      if (streamMade() || written + text.length > DIRECT_BYTES) return false;
      const bytes = Buffer.from(text);
      if (written + bytes.length > DIRECT_BYTES) return false;
      written += bytes.length;
      for (let at = 0; at < bytes.length;) {
        try {
          at += write(1, bytes, at);
        } catch (error) {
          if (error.code === 'EAGAIN') {
            stream().write(bytes.subarray(at));
            return true;
          }
          if (error.code === 'EPIPE') {
            closed();
            return true;
          }
          return fail(error);
        }
      }
      return true;
    },
  };
}

/**
 * Whether fd 1 is a terminal, asked without making the stream (once a run); node:tty (a start-up's 0.3 ms) is loaded
 * only for a character device other than /dev/null (cron's, a service's), which a pipe or a file is not.
 */
function stdoutIsTerminal() {
  return (terminal ??= characterDeviceNotNull(1) && require('node:tty').isatty(1));
}

/** Whether `fd` is a character device (a terminal, say) but not /dev/null, or cannot be looked at. */
function characterDeviceNotNull(fd) {
  const fs = require('node:fs');
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    const devNull = fs.statSync('/dev/null', { throwIfNoEntry: false });
    return !devNull || stat.rdev !== devNull.rdev || stat.dev !== devNull.dev || stat.ino !== devNull.ino;
  } catch {
    return true;
  }
}

/**
 * The bundled CLI, loaded with a compile cache when it can be (`compileCache` says which): Node's own where Node has
 * one (22.1 and later), else a hand-made one for Node 20 (loadWithVmCache). Plain `require` under --debug
 * (source-mapped stack traces) or with CLINIC_NO_COMPILE_CACHE set. Either cache lives in the user's cache directory
 * and only costs speed when it cannot be used.
 */
function loadBundle(useCache, shape) {
  const file = join(__dirname, '..', 'dist', 'bundle', 'main.cjs');
  const kind = compileCache(useCache, process.env, process.versions.node);
  if (kind === 'node') {
    // Node keeps, checks and rewrites its cache itself, for every module loaded from here on (packages included).
    const dir = join(cacheDir(), 'node');
    try {
      const fs = require('node:fs');
      // Node reads its cache from there later, by name, without asking whose it is: only from a folder private to
      // this user, given by its real path, on a way no one else can change.
      if (privateFolder(fs, dir) && privateFolder(fs, cacheDir())) {
        const real = fs.realpathSync(dir);
        if (noOneElseCanChange(fs, real)) require('node:module').enableCompileCache(real);
      }
    } catch {
      // A cache directory that cannot be made (read-only home) only costs speed.
    }
  }
  if (kind !== 'vm') return { main: require(file).main, saveCache() {} };
  return loadWithVmCache(file, shape);
}

/**
 * Which compile cache a run uses: `none` (asked for none), `node` (Node's own, from 22.1), or `vm` (Node 20's
 * fallback). Told by the version: loading node:module to look costs a start-up more than half a millisecond.
 */
function compileCache(useCache, env, nodeVersion) {
  if (!useCache || env.CLINIC_NO_COMPILE_CACHE) return 'none';
  const [major, minor] = nodeVersion.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 1) ? 'node' : 'vm';
}

/** $XDG_CACHE_HOME/clinic, by default ~/.cache/clinic. */
function cacheDir() {
  const home = process.env.HOME || require('node:os').homedir();
  return join(process.env.XDG_CACHE_HOME || join(home, '.cache'), 'clinic');
}

/**
 * Node 20's compile cache, by hand: V8's code cache of the bundle through vm.Script. The first run of a command (per
 * Node version and build) starts from the cache the build made (dist/bundle/main.cjs.cache, scripts/compile-cache.mjs)
 * and saves its own, the functions it ran included; its later runs skip most of the compiling. A run like those the
 * build warmed (`customers get 1 -o json`...: main.cjs.cache.json) takes the cache the build made of that command
 * alone (`shape`, shapeName: only what it runs, a quarter less for V8 to read than the cache of them all) and writes
 * none. One cache per command (`customers-get`), so each holds what its command runs and no more (a cache written by
 * `config set` lacks the HTTP client: `customers get` would compile it on every run). A stale, foreign or damaged cache (the
 * build's, made by another Node version, included) is rejected by V8, which then compiles from the source: the user's
 * is rewritten.
 */
function loadWithVmCache(file, shape = shapeName(runShape(argv), stdoutIsTerminal())) {
  const fs = require('node:fs');
  // The build's copy that is compiled: scripts/compile-cache.mjs writes it (and its other part, main.more.cjs) anew.
  const { size, mtimeMs } = fs.statSync(wrappedFile(file));
  const dir = cacheDir();
  const build = `main-${process.version}-${size}-${Math.round(mtimeMs)}-${commandKey(argv)}`;
  const cacheFile = join(dir, `${build}.cache`);

  const { wrapped, cache, from, buffer } = readBundle(
    fs,
    file,
    cacheFile,
    shape && shapeCacheFile(file, shape),
  );
  // The other part is read through the same buffer, if a collection has not freed it by then (a long run's).
  const more = moreLoader(file, join(dir, build), new WeakRef(buffer));
  const { script, main } = compileBundle(file, cache, wrapped, more);
  const taken = script.cachedDataRejected === false;
  // Which cache V8 took, if any: `user`, `build` or `none`; `builtFor`: the build's, made of this run's command alone.
  const cacheUsed = !taken ? 'none' : from === 'user' ? 'user' : 'build';
  const builtFor = taken && from === 'shape';
  return {
    main,
    cacheUsed,
    builtFor,
    /** How the run read the other part of the bundle (moreLoader): `not read`, `compiled` or `from its cache`. */
    get moreRead() {
      return more.script === undefined ? 'not read' : more.cacheTaken ? 'from its cache' : 'compiled';
    },
    saveCache() {
      // A run like one the build's cache was made with has nothing to add to it: writing its own (3 ms of V8's
      // serializing) would only copy it. The other part of the bundle, when the run loaded it, keeps a cache of its
      // own.
      const saveMain = !(
        cacheUsed === 'user' ||
        builtFor ||
        (cacheUsed === 'build' && builtWith(fs, file).includes(runShape(argv)))
      );
      const saveMore = more.script !== undefined && !more.cacheTaken;
      if (!saveMain && !saveMore) return;
      // A cache that cannot be written (read-only home) only costs speed.
      const write = (path, compiled) => {
        try {
          const temp = `${path}.${process.pid}.tmp`;
          fs.writeFileSync(temp, compiled.createCachedData(), { mode: 0o600, flag: 'wx' });
          fs.renameSync(temp, path);
        } catch {
          // the next run compiles what this one did
        }
      };
      try {
        if (!privateFolder(fs, dir)) return;
        if (saveMain) write(cacheFile, script);
        if (saveMore) write(more.cacheFile, more.script);
        pruneCaches(fs, dir);
      } catch {
        // as above
      }
    },
  };
}

/** The shapes (runShape) of the runs the build's cache was made with: dist/bundle/main.cjs.cache.json, beside it. */
function builtWith(fs, file) {
  try {
    const { commands } = JSON.parse(fs.readFileSync(`${file}.cache.json`, 'utf8'));
    return Array.isArray(commands) ? commands : [];
  } catch {
    return [];
  }
}

/**
 * The wrapped bundle's text (the build's copy, scripts/bundle.mjs: wrapForVm of the bundle, pure ASCII, so read as
 * Latin-1 straight into V8's one-byte string) and the first cache there is, `from` the user's, the build's of this
 * run's command alone (`shape`) or else the build's of them all (`build`), read through one buffer: fresh memory is
 * what costs most here (a page first touched costs a virtual machine some 17 us; the second buffer was 80 of them).
 */
function readBundle(fs, file, userCacheFile, shapeFile) {
  const openOrNone = (path, flags) => {
    try {
      return fs.openSync(path, flags);
    } catch {
      return undefined;
    }
  };
  const source = fs.openSync(wrappedFile(file));
  let from = 'user';
  let cacheFd = openPrivately(fs, userCacheFile);
  if (cacheFd === undefined && shapeFile) [from, cacheFd] = ['shape', openOrNone(shapeFile, 'r')];
  if (cacheFd === undefined) [from, cacheFd] = ['build', openOrNone(`${file}.cache`, 'r')];
  try {
    const cacheSize = cacheFd === undefined ? 0 : fs.fstatSync(cacheFd).size;
    const { wrapped, cache, buffer } = readScript(fs, source, cacheFd, cacheSize);
    return { wrapped, cache, from: cacheFd === undefined ? undefined : from, buffer };
  } finally {
    for (const fd of [source, cacheFd]) if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * A script's text (Latin-1) and its cache, read from open files through one buffer: `spare` when it is large
 * enough (memory a run has touched already), else a new one.
 */
function readScript(fs, source, cacheFd, cacheSize, spare) {
  const sourceSize = fs.fstatSync(source).size;
  const size = Math.max(sourceSize, cacheSize);
  const buffer = spare !== undefined && spare.length >= size ? spare : Buffer.allocUnsafeSlow(size);
  const wrapped = buffer.latin1Slice(0, readAll(fs, source, buffer, sourceSize));
  const cache =
    cacheFd === undefined ? undefined : buffer.subarray(0, readAll(fs, cacheFd, buffer, cacheSize));
  return { wrapped, cache, buffer };
}

/** A file of this user's that no one else may write to (heldPrivately), opened to read; else undefined. */
function openPrivately(fs, path) {
  let fd;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  if (heldPrivately(fs.fstatSync(fd))) return fd;
  fs.closeSync(fd);
  return undefined;
}

/**
 * Whether a file is this user's and no one else may write to it. V8 runs what a code cache holds, checked
 * only against the source's length and V8's version and flags: a cache anyone else could have planted or changed
 * (a shared XDG_CACHE_HOME, a folder another user made) is never read, nor is a symbolic link. Only speed is lost.
 */
function heldPrivately(stat) {
  const uid = process.getuid?.();
  // Windows has no owner or write bits for others here (Node reports its files as 0666): its ACLs keep them.
  return stat.isFile() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0));
}

/**
 * `dir`, made if missing, when it is a folder of this user's (not a symbolic link): made private (0700) if it was
 * not. False for anyone else's: nothing is cached there.
 */
function privateFolder(fs, dir) {
  makeFolder(fs, dir);
  const stat = fs.lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) return false;
  if (uid !== undefined && (stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return true;
}

/**
 * `dir` and the folders missing above it, made private (0700), as `mkdir -p`; each tried once more after the one above
 * it. Not Node's recursive mkdir: where a file system refuses a folder with ENOENT although the one above exists
 * (procfs: XDG_CACHE_HOME=/proc/x), it loops for ever, and Ctrl-C cannot end it (src/core/make-folder.ts, for the
 * bundle, is the same).
 */
function makeFolder(fs, dir) {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (error.code === 'EEXIST' && fs.statSync(dir).isDirectory()) return;
    if (error.code === 'EEXIST') throw error;
    if (error.code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeFolder(fs, dirname(dir));
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (again) {
      if (again.code !== 'EEXIST') throw again;
    }
  }
}

/**
 * Whether no one but this user and root can change what the real path `dir` leads to: it and every folder above it
 * are theirs, and no one else may write to them (a sticky folder such as /tmp aside: there no one can move another's
 * entry). Else another user could swap a folder on the way between a check and a later read.
 */
function noOneElseCanChange(fs, dir) {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  for (let at = dir; ; at = dirname(at)) {
    const stat = fs.lstatSync(at);
    if (stat.uid !== uid && stat.uid !== 0) return false;
    if ((stat.mode & 0o022) !== 0 && (stat.mode & 0o1000) === 0) return false;
    if (dirname(at) === at) return true;
  }
}

/** Reads up to `size` bytes of `fd` into `buffer` from its start: how many there were. */
function readAll(fs, fd, buffer, size) {
  let at = 0;
  for (let got; at < size && (got = fs.readSync(fd, buffer, at, size - at, at)) > 0;) at += got;
  return at;
}

/** The build's copy of the bundle wrapped as one function (wrapForVm). */
function wrappedFile(file) {
  return file.replace(/\.cjs$/, '.function.cjs');
}

/** The other part of the build's copy (scripts/compile-cache.mjs): the chunks the commonest runs never load. */
function moreFile(file) {
  return file.replace(/\.cjs$/, '.more.cjs');
}

/**
 * The bundle's `__loadMore` (scripts/bundle/chunks.mjs): compiles and runs the other part of the build's copy the
 * first time the bundle asks for a chunk in it, from the user's cache of it (`cachePrefix`, the part's length and
 * `.more.cache`) when there is one of theirs, else from the build's (its top level alone: main.more.cjs.cache), both
 * read through the buffer `spare` holds when it is still there. `script` is then its script, and `cacheTaken` whether V8 took the user's cache.
 */
function moreLoader(file, cachePrefix, spare) {
  const more = {
    script: undefined,
    cacheTaken: false,
    cacheFile: undefined,
    load(...bindings) {
      const fs = require('node:fs');
      const source = fs.openSync(moreFile(file));
      // Named by the part's own length too: V8 checks a cache against nothing else.
      if (cachePrefix) more.cacheFile = `${cachePrefix}.more-${fs.fstatSync(source).size}.cache`;
      const userCache = more.cacheFile && openPrivately(fs, more.cacheFile);
      let buildCache;
      if (userCache === undefined)
        try {
          buildCache = fs.openSync(`${moreFile(file)}.cache`, 'r');
        } catch {
          // None: compiled from the source.
        }
      const cacheFd = userCache ?? buildCache;
      let wrapped;
      let cachedData;
      try {
        const cacheSize = cacheFd === undefined ? 0 : fs.fstatSync(cacheFd).size;
        ({ wrapped, cache: cachedData } = readScript(fs, source, cacheFd, cacheSize, spare?.deref()));
      } finally {
        for (const fd of [source, cacheFd]) if (fd !== undefined) fs.closeSync(fd);
      }
      more.script = new (require('node:vm').Script)(wrapped, { filename: moreFile(file), cachedData });
      more.cacheTaken = userCache !== undefined && more.script.cachedDataRejected === false;
      more.script.runInThisContext()(...bindings);
    },
  };
  return more;
}

/**
 * Compiles and runs the bundle through vm.Script with V8 cache data (V8 checks that it fits this V8, its flags and
 * this source; `script.cachedDataRejected` says it did not): the script, the bundle's `main` and its `module`. `more`
 * loads the build copy's other part (moreLoader).
 */
function compileBundle(
  file,
  cachedData,
  wrapped = require('node:fs').readFileSync(wrappedFile(file), 'latin1'),
  more = moreLoader(file),
) {
  const vm = require('node:vm');
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  // The bundle's dynamic imports (scripts/bundle.mjs), made from here, where import() works: packages resolve from
  // this package's node_modules as from the bundle's; a relative path is the bundle's.
  // node:url only when a relative path is imported: loading it costs every start-up a millisecond.
  const dynamicImport = (id) =>
    import(id.startsWith('.') ? require('node:url').pathToFileURL(join(dirname(file), id)).href : id);
  const bundle = { exports: {} };
  // The bundle requires only Node's built-ins (scripts/bundle.mjs checks), so this file's require serves it.
  script.runInThisContext()(bundle.exports, require, bundle, file, dirname(file), dynamicImport, more.load);
  return { script, main: bundle.exports.main, module: bundle };
}

/** The bundle as one function of what bin hands it (compileBundle): written so by the build. */
function wrapForVm(source) {
  return `(function (exports, require, module, __filename, __dirname, __dyni, __loadMore) {${source}\n})`;
}

/**
 * The command's words as a cache name (`customers-get`): up to three words, options skipped (the value of one counts
 * as a word: `--profile prod customers get` is `prod-customers-get`), ended by the first argument that is no word (an
 * ID, a path). Only a name: two commands that share one just compile a little more.
 */
function commandKey(args) {
  const words = [];
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    if (!isCommandWord(arg) || words.push(arg) === 3) break;
  }
  return words.join('-') || 'other';
}

/**
 * A run's arguments as one string, each whole number as `#`: `customers get 7 -o json` is `customers get # -o json`,
 * the same run as far as the code it compiles goes.
 */
function runShape(args) {
  return args.map((arg) => (isWholeNumber(arg) ? '#' : arg)).join(' ');
}

/**
 * A run's shape (runShape) as part of a file name, for the build's cache of that command alone
 * (`customers get # -o json` is `customers_get_N_-o_json`): letters, digits and dashes kept, `#` as `N`, anything else
 * `_`; `.terminal` after it for a run whose output is a terminal (it runs the table's code, a pipe the JSON's).
 * Undefined when longer than 100 characters: no command the build warms is. Two shapes may share a name; they then
 * share a cache, which only costs the other some compiling.
 */
function shapeName(shape, terminal = false) {
  if (shape.length > 100) return undefined;
  let name = '';
  for (let i = 0; i < shape.length; i++) {
    const c = shape[i];
    const kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '-';
    name += kept ? c : c === '#' ? 'N' : '_';
  }
  return terminal ? `${name}.terminal` : name;
}

/** The build's cache of the runs named `shape` (shapeName) alone, beside the bundle: main.cjs.SHAPE.cache. */
function shapeCacheFile(file, shape) {
  return `${file}.${shape}.cache`;
}

/** Digits only (by hand, as isCommandWord). */
function isWholeNumber(arg) {
  if (arg.length === 0) return false;
  for (let i = 0; i < arg.length; i++) if (arg[i] < '0' || arg[i] > '9') return false;
  return true;
}

/** A lower-case word of up to 32 letters and dashes, a letter first (by hand: a regular expression costs a start). */
function isCommandWord(arg) {
  if (arg.length === 0 || arg.length > 32) return false;
  for (let i = 0; i < arg.length; i++) {
    const c = arg[i];
    if (!((c >= 'a' && c <= 'z') || (i > 0 && c === '-'))) return false;
  }
  return true;
}

/**
 * The 48 newest caches are kept (24 commands with both parts of the bundle), of whichever build or Node version: two
 * installs used in turn (a global one and a project's) keep theirs, and an old build's fade out as new ones are
 * written.
 */
function pruneCaches(fs, dir) {
  const caches = [];
  for (const name of fs.readdirSync(dir))
    if (name.startsWith('main-') && name.endsWith('.cache'))
      caches.push({ name, at: fs.statSync(join(dir, name)).mtimeMs });
  caches.sort((a, b) => b.at - a.at);
  for (const { name } of caches.slice(48)) fs.rmSync(join(dir, name), { force: true });
}

/** Writes all of `text` to stdout (fd 1) synchronously; a closed pipe (`clinic --help | head`) ends it quietly. */
function writeAll(text) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(1, bytes, at);
    } catch (error) {
      if (error.code === 'EAGAIN') continue; // a non-blocking pipe that is full: try again
      if (error.code === 'EPIPE') return;
      cannotWrite(error);
    }
  }
}

/** A full disk or a broken output: one line, exit 1, never a stack trace. */
function cannotWrite(error) {
  process.stderr.write(`error: cannot write the output (${error.code ?? error.message})\n`);
  process.exit(1);
}
