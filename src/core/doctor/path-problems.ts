// Why the config directory, or the file in it, cannot be looked at: in words, with what to run, never as a raw
// `EACCES: permission denied, lstat …`.
import { reason } from './check.js';

export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

export const notADirectoryFix = (dir: string) =>
  `run: ls -ld ${dir} and its parents; move what is there away (clinic creates the directory), or set CLINIC_CONFIG_DIR to a directory`;

/** Why the config directory (or the file in it) cannot be looked at, in words, with what to run. */
export function pathProblem(
  error: unknown,
  dir: string,
  file: string,
): { detail: string; fix: string; broken: string } {
  const code = errorCode(error);
  if (code === 'EACCES' || code === 'EPERM')
    return {
      detail: `${dir} cannot be read: permission denied (this user may not look inside it)`,
      fix: `run: ls -ld ${dir} (its owner and mode); as its owner: chmod 700 ${dir}`,
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
      fix: `run: ls -ld ${dir}; replace the links`,
      broken: 'the config directory cannot be read',
    };
  return {
    detail: `cannot look at ${file}: ${code ?? reason(error)}`,
    fix: `run: ls -ld ${dir}; --debug shows more`,
    broken: 'the config directory cannot be read',
  };
}
