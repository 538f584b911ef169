// Preloaded with `node --import`: writes the built-in modules the process loaded (process.moduleLoadList) to
// $RECORD_BUILTINS_FILE at exit. Touches neither stdout nor stderr.
import { writeFileSync } from 'node:fs';

process.on('exit', () => writeFileSync(process.env.RECORD_BUILTINS_FILE, process.moduleLoadList.join('\n')));
