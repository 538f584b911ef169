// A file or folder the system refuses reaches the user in words with what to look at, never as Node's raw
// `ENOTDIR: not a directory, open '…'`: the config folder, a bulk input and journal, a --data file, an upload.
import { mkdir, writeFile } from 'node:fs/promises';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemErrorMessage, systemReason } from '../../../src/core/system-error.js';
import { useInProcess } from '../../helpers/in-process.js';

/** The error Node raises for `call()`. */
function raised(call: () => unknown): NodeJS.ErrnoException {
  try {
    call();
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
  throw new Error('nothing was raised');
}

describe('a file system error in words', () => {
  const api = useInProcess();

  it('names the call, the path and what to run, for the codes a user can act on', async () => {
    const file = join(api.dir, 'a-file');
    await writeFile(file, 'x');
    expect(systemErrorMessage(raised(() => openSync(join(file, 'config.json'), 'r')))).toBe(
      `cannot open ${file}/config.json: a part of that path is a file, not a folder (run: ls -ld ${file} and its ` +
        'parents; move the file away, or choose another folder)',
    );
    expect(systemErrorMessage(raised(() => openSync(api.dir, 'w')))).toBe(
      `cannot open ${api.dir}: it is a folder, not a file`,
    );
    const denied = Object.assign(new Error('EACCES: permission denied, mkdir'), {
      code: 'EACCES',
      syscall: 'mkdir',
      path: '/srv/x/clinic',
    });
    expect(systemErrorMessage(denied)).toBe(
      'cannot create the folder /srv/x/clinic: permission denied (run: ls -ld /srv/x and its parents: their owners ' +
        'and modes)',
    );
    // A path that is shell code is quoted in the command to paste.
    const odd = Object.assign(new Error('EACCES'), {
      code: 'EACCES',
      syscall: 'open',
      path: "/x/$(rm -rf ~)/it's",
    });
    expect(systemErrorMessage(odd)).toBe(
      "cannot open /x/$(rm -rf ~)/it's: permission denied (run: ls -ld '/x/$(rm -rf ~)' and its parents: their " +
        'owners and modes)',
    );
    const full = Object.assign(new Error('ENOSPC'), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/x/j.journal',
    });
    expect(systemErrorMessage(full)).toBe(
      'cannot write /x/j.journal: the disk is full (or the quota reached)',
    );
  });

  it('leaves other errors to their own message, and gives a code it has no words for as it is', () => {
    expect(systemErrorMessage(new Error('boom'))).toBeUndefined();
    const io = Object.assign(new Error('EIO'), { code: 'EIO', syscall: 'read', path: '/x' });
    expect(systemErrorMessage(io)).toBeUndefined();
    expect(systemReason(io, '/x')).toBe('EIO');
  });

  it('CLINIC_CONFIG_DIR that is a file: one clear line (and its JSON), exit 1, nothing sent', async () => {
    const file = join(api.dir, 'not-a-folder');
    await writeFile(file, 'x');
    for (const argv of [['config', 'list'], ['customers', 'get', '1', '-o', 'json'], ['logout']]) {
      const result = await api.run(argv, { env: { CLINIC_CONFIG_DIR: file } });
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe(
        `error: cannot open ${file}/config.json: a part of that path is a file, not a folder (run: ls -ld ${file} ` +
          'and its parents; move the file away, or choose another folder)',
      );
      expect(result.stderr).not.toContain('ENOTDIR');
      if (argv.includes('json')) expect(JSON.parse(lines[1]!).error.message).toBe(lines[0]!.slice(7));
      else expect(lines).toHaveLength(1);
    }
    expect(api.seen).toEqual([]);
  });

  it('a bulk input, its journal and a --data file under a file: worded, exit 2, nothing sent', async () => {
    const file = join(api.dir, 'plain');
    await writeFile(file, 'x');
    await mkdir(join(api.dir, 'in'));
    const input = join(api.dir, 'in', 'new.ndjson');
    await writeFile(input, '{"first_name":"A","last_name":"B","email":"a@example.com"}\n');
    const notAFolder = (path: string) =>
      `a part of that path is a file, not a folder (run: ls -ld ${path} and its parents; move the file away, or ` +
      'choose another folder)';
    const journal = await api.run([
      'customers',
      'create',
      '--from',
      input,
      '--journal',
      join(file, 'j.journal'),
    ]);
    expect([journal.code, journal.stderr]).toEqual([
      2,
      `error: cannot use ${join(file, 'j.journal')}: ${notAFolder(file)}\n`,
    ]);
    const source = await api.run(['customers', 'create', '--from', join(file, 'new.ndjson')]);
    expect(source.code).toBe(2);
    expect(source.stderr).toContain(`cannot read it: ${notAFolder(file)}`);
    const data = await api.run(['customers', 'create', '--data', `@${join(file, 'body.json')}`]);
    expect([data.code, data.stderr]).toEqual([
      2,
      `error: --data: cannot read ${join(file, 'body.json')}: ${notAFolder(file)}\n`,
    ]);
    expect(api.seen).toEqual([]);
  });
});
