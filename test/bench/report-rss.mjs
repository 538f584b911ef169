// Preloaded with `node --import`: writes the process's peak RSS (KiB), CPU time (µs, user + system, every thread)
// and its main thread's CPU time (ms, from /proc; '-' where there is none) to $RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';
import { processCpuMs } from './proc-cpu.mjs';

const file = process.env.RSS_FILE;
if (file)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const main = processCpuMs(process.pid, process.pid) ?? '-';
    writeFileSync(file, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime} ${main}`);
  });
