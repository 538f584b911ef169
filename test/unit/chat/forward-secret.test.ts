// The secret --forward-to signs with: flag, then CLINIC_FORWARD_SECRET, then the one kept beside the checkpoint, then
// a new one, kept there (0600) so that a restarted service signs as before.
import { execFileSync } from 'node:child_process';
import { chmod, chown, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { forwardSecret } from '../../../src/core/realtime/forward-secret.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const dir = useTempDir('clinic-secret-');
const notices: string[] = [];
const notice = (line: string) => notices.push(line);

describe('forwardSecret', () => {
  it('--forward-secret first, then CLINIC_FORWARD_SECRET; neither writes a file', async () => {
    const checkpoint = join(dir.path, 'chat.checkpoint');
    expect(await forwardSecret({ flag: 'from-flag', env: 'from-env', checkpoint, notice })).toEqual({
      value: 'from-flag',
      from: 'flag',
    });
    expect(await forwardSecret({ env: 'from-env', checkpoint, notice })).toEqual({
      value: 'from-env',
      from: 'env',
    });
    await expect(stat(`${checkpoint}.secret`)).rejects.toThrow(/ENOENT/);
  });

  it.each([
    ['--forward-secret', { flag: ' ' }],
    ['CLINIC_FORWARD_SECRET', { env: '' }],
  ])('%s set but blank is refused (exit 2), never replaced by another', async (name, given) => {
    const refusal = forwardSecret({ ...given, notice });
    await expect(refusal).rejects.toBeInstanceOf(UsageError);
    await expect(forwardSecret({ ...given, notice })).rejects.toThrow(`${name} is set but empty`);
  });

  it('with a checkpoint, a generated secret is kept beside it (0600) and the next run signs with it', async () => {
    const checkpoint = join(dir.path, 'chat.checkpoint');
    const first = await forwardSecret({ checkpoint, notice });
    expect(first).toMatchObject({ from: 'generated', file: `${checkpoint}.secret` });
    expect(first.value).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect((await stat(`${checkpoint}.secret`)).mode & 0o777).toBe(0o600);
    expect((await readFile(`${checkpoint}.secret`, 'utf8')).trim()).toBe(first.value);
    const restarted = await forwardSecret({ checkpoint, notice });
    expect(restarted).toEqual({ value: first.value, from: 'kept', file: `${checkpoint}.secret` });
  });

  it('without a checkpoint, a new secret each run, kept nowhere', async () => {
    const [a, b] = [await forwardSecret({ notice }), await forwardSecret({ notice })];
    expect(a.from).toBe('generated');
    expect(a.file).toBeUndefined();
    expect(a.value).not.toBe(b.value);
  });

  it('a kept secret readable by others is made 0600, and that is said', async () => {
    const checkpoint = join(dir.path, 'chat.checkpoint');
    await writeFile(`${checkpoint}.secret`, 'whsec_kept\n');
    await chmod(`${checkpoint}.secret`, 0o644);
    notices.length = 0;
    expect((await forwardSecret({ checkpoint, notice })).value).toBe('whsec_kept');
    expect((await stat(`${checkpoint}.secret`)).mode & 0o777).toBe(0o600);
    expect(notices).toEqual([`warning: ${checkpoint}.secret was 644, readable by others; now 0600`]);
  });

  it('a kept secret is never read through a symbolic link', async () => {
    const checkpoint = join(dir.path, 'chat.checkpoint');
    await writeFile(join(dir.path, 'other'), 'whsec_other');
    await symlink(join(dir.path, 'other'), `${checkpoint}.secret`);
    await expect(forwardSecret({ checkpoint, notice })).rejects.toThrow(/symbolic link/);
  });

  it('a kept secret is never read from a FIFO (refused at once, not waited on)', async () => {
    const checkpoint = join(dir.path, 'chat.checkpoint');
    execFileSync('mkfifo', [`${checkpoint}.secret`]);
    await expect(forwardSecret({ checkpoint, notice })).rejects.toThrow(/is not a file/);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "a kept secret of another user's is refused: they could have planted one they know",
    async () => {
      const checkpoint = join(dir.path, 'chat.checkpoint');
      await writeFile(`${checkpoint}.secret`, 'whsec_planted\n', { mode: 0o600 });
      await chown(`${checkpoint}.secret`, 65534, 65534);
      await expect(forwardSecret({ checkpoint, notice })).rejects.toThrow(/belongs to another user/);
    },
  );
});
