// Preloaded with `node --import`: writes to $RECORD_V8_TUNING_FILE at exit whether the run tuned V8 for a long run
// (src/core/memory.ts sets --expose-gc, then the young generation's growth factor, through node:v8, whose one
// exports object every caller shares: it is watched here). The flags are set back at the run's end, so the run's
// state at exit would not tell.
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const flags = [];
const setFlagsFromString = v8.setFlagsFromString;
v8.setFlagsFromString = (flag) => {
  flags.push(flag);
  return setFlagsFromString(flag);
};

process.on('exit', () =>
  writeFileSync(process.env.RECORD_V8_TUNING_FILE, flags.includes('--expose-gc') ? 'tuned' : 'plain'),
);
