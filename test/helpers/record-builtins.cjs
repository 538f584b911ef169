// Preloaded with `node --require` (CommonJS, so the preload itself starts no ES module loader): writes the built-in
// modules the process loaded (process.moduleLoadList) to $RECORD_BUILTINS_FILE at exit. Touches neither stdout nor
// stderr.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => writeFileSync(process.env.RECORD_BUILTINS_FILE, process.moduleLoadList.join('\n')));
