// CPU time of a process, or of one of its threads, from Linux's /proc (a bench's view of another process). CommonJS:
// report-rss.cjs, preloaded into the runs it measures, requires it.
const { readFileSync } = require('node:fs');

/** Linux's clock ticks of /proc (USER_HZ), 100 on every mainstream platform. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time in ms (user + system) of process `pid`, every thread, or of its thread `tid` alone (the main thread's id is
 * the process's); undefined where /proc has none (not Linux, or the process has gone).
 */
function processCpuMs(pid, tid) {
  try {
    const stat = readFileSync(
      tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
      'utf8',
    );
    // After the command name, in parentheses and free to hold anything: state, then utime and stime are the 12th and
    // 13th (fields 14 and 15 of proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

module.exports = { processCpuMs };
