// Why the config directory, or the file in it, cannot be looked at: in words, with what to run, never as a raw
// `EACCES: permission denied, lstat …`.
import { shellWord, systemReason } from '../system-error.js';

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

export const notADirectoryFix = (dir: string) =>
  `run: ls -ld ${shellWord(dir)} and its parents; move what is there away (clinic creates the directory), or set CLINIC_CONFIG_DIR to a directory`;

/**
 * Why the config directory (or the file in it) cannot be looked at, in words, with what to run (a path in it quoted as
 * a shell takes it).
 */
export function pathProblem(
  error: unknown,
  dir: string,
  file: string,
): { detail: string; fix: string; broken: string } {
  const code = errorCode(error);
  const folder = shellWord(dir);
  if (code === 'EACCES' || code === 'EPERM')
    return {
      detail: `${dir} cannot be read: permission denied (this user may not look inside it)`,
      fix: `run: ls -ld ${folder} (its owner and mode); as its owner: chmod 700 ${folder}`,
      broken: 'the config directory cannot be read',
    };
  if (code === 'ENOTDIR')
    return {
      detail: `${dir} is not a directory (a part of that path is a file)`,
      fix: notADirectoryFix(dir),
      broken: 'the config directory is not a directory',
    };
  if (code === 'ELOOP')
    return {
      detail: `${dir} is a loop of symbolic links`,
      fix: `run: ls -ld ${folder}; replace the links`,
      broken: 'the config directory cannot be read',
    };
  return {
    detail: `cannot look at ${file}: ${systemReason(error, file)}`,
    fix: `run: ls -ld ${folder}; --debug shows more`,
    broken: 'the config directory cannot be read',
  };
}
