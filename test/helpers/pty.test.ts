// The pty helper itself: the size asked for, typed Ctrl-C delivered as SIGINT by the terminal, and plain().
import { describe, expect, it } from 'vitest';
import { onPty, plain } from './pty.js';

describe('onPty', () => {
  it('gives the command a terminal of the size asked for', async () => {
    const session = onPty(['sh', '-c', 'test -t 1 && stty size'], { cols: 60, rows: 30 });
    const { code, output } = await session.exited;
    expect(code).toBe(0);
    expect(plain(output).trim()).toBe('30 60');
  });

  it('delivers a typed Ctrl-C as SIGINT (exit 130), as a terminal with isig does', async () => {
    const session = onPty(['sh', '-c', 'echo ready; sleep 20']);
    await session.waitFor('ready');
    session.type('\x03');
    expect((await session.exited).code).toBe(130);
  });
});

describe('plain', () => {
  it('drops escape sequences and keeps what a carriage return left on the line', () => {
    expect(plain('\x1b[32mgreen\x1b[39m\r\n⠋ working\r⠙ working\rdone   \r\n')).toBe('green\ndone   \n');
  });
});
