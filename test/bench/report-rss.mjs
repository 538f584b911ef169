// Preloaded with `node --import`: writes the process's peak RSS (KiB) to $RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
