// A file to upload, checked before anything is sent: present, a regular file, readable, within the size bound.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { systemReason } from '../core/system-error.js';

export interface CheckedFile {
  path: string;
  size: number;
}

/** `limitNote`: said after a refusal for size (how to give another bound). */
export async function checkUploadFile(path: string, maxBytes: number, limitNote = ''): Promise<CheckedFile> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read it: ${systemReason(error, path)}`}`,
    );
  }
  if (info.isDirectory()) throw new UsageError(`${path} is a directory, not a file`);
  if (!info.isFile()) throw new UsageError(`${path} is not a regular file`);
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new UsageError(`${path}: permission denied (cannot read it)`);
  }
  if (info.size === 0) throw new UsageError(`${path} is empty`);
  if (info.size > maxBytes) {
    const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;
    throw new UsageError(
      `${path} is ${kib(info.size)}, over the upload limit of ${kib(maxBytes)}${limitNote}`,
    );
  }
  return { path, size: info.size };
}
