// Preloaded with `node --import`: writes to $RECORD_V8_TUNING_FILE at exit whether the run tuned V8 for a long run
// (src/core/memory.ts sets --expose-gc with the young generation's growth factor: a new context then sees `gc`).
import { writeFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';

process.on('exit', () =>
  writeFileSync(
    process.env.RECORD_V8_TUNING_FILE,
    runInNewContext('typeof gc') === 'function' ? 'tuned' : 'plain',
  ),
);
