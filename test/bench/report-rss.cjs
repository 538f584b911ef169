// Preloaded with `node --require` (CommonJS, so it boots no ES module loader: an --import preload costs a CommonJS
// program such as bin/clinic.js some 60 ms a run that it never pays without it): writes the process's peak RSS
// (KiB), CPU time (µs, user + system, every thread), its main thread's CPU time (ms, from /proc; '-' where there
// is none) and its minor page faults (pages of memory it touched first) to $RSS_FILE when it exits.
const { writeFileSync } = require('node:fs');
const { processCpuMs } = require('./proc-cpu.cjs');

const file = process.env.RSS_FILE;
if (file)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const main = processCpuMs(process.pid, process.pid) ?? '-';
    writeFileSync(
      file,
      `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime} ${main} ${usage.minorPageFault}`,
    );
  });
