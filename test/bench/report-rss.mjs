// Preloaded with `node --import`: writes the process's peak RSS (KiB) and CPU time (µs, user + system) to $RSS_FILE
// when it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.RSS_FILE;
if (file)
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}`);
  });
