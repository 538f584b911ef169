// A sandbox world per test file (or per describe): started before its tests, closed after them, in one call.
import { afterAll, beforeAll } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { type CliResult, configureRealtime, type RunOptions, startWorld, type TestWorld } from './cli.js';

/**
 * Registers the hooks that start `start()` before the enclosing suite's tests and close it after them. The world
 * returned stands for the started one, so tests and later hooks use it as they would the world itself; before the
 * start (while vitest collects the tests) it throws rather than hand out a half-made world.
 */
export function useWorld(start: () => Promise<TestWorld> = () => startWorld()): TestWorld {
  let started: TestWorld | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  const current = (): TestWorld => {
    if (started === undefined)
      throw new Error('useWorld: the world starts in beforeAll; use it in a test or hook');
    return started;
  };
  return {
    get sandbox() {
      return current().sandbox;
    },
    get configDir() {
      return current().configDir;
    },
    clinic: (args, options) => current().clinic(args, options),
    newRequests: () => current().newRequests(),
    close: () => current().close(),
  };
}

/** A world not signed in whose profile also knows the sandbox's OpenID provider (auth_url, client_id). */
export async function oauthWorld(options: SandboxOptions = {}): Promise<TestWorld> {
  const world = await startWorld(options, false);
  await world.clinic(['config', 'set', 'auth_url', world.sandbox.info.auth_url]);
  await world.clinic(['config', 'set', 'client_id', world.sandbox.info.client_id]);
  return world;
}

/** A signed-in world whose profile also has the realtime settings `clinic sandbox start` writes. */
export async function realtimeWorld(options: SandboxOptions = {}): Promise<TestWorld> {
  const world = await startWorld(options);
  await configureRealtime(world);
  return world;
}

/** Runs `clinic` in the world and returns its result with the requests the sandbox received meanwhile. */
export async function clinicSending(
  world: TestWorld,
  args: string[],
  options?: RunOptions,
): Promise<CliResult & { requests: ReturnType<TestWorld['newRequests']> }> {
  world.newRequests();
  const result = await world.clinic(args, options);
  return { ...result, requests: world.newRequests() };
}
