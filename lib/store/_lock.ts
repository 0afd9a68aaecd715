/**
 * One linkpeek process per DATA_DIR: the embedded store keeps its blob index and counters in
 * memory, so a second process on the same files would evict the first one's blobs and lose its
 * counts. The owner holds an exclusive advisory lock (flock, taken without waiting) on
 * `linkpeek.lock`, which the kernel drops when the process ends however it ends (a SIGKILL
 * too): a crash never blocks the next start. The file keeps the owner's pid for the refusal.
 */
import { join } from "node:path";

const LOCK_FILE = "linkpeek.lock";

/** DATA_DIR is another process's. */
export class DataDirTaken extends Error {}

export interface DataDirLock {
  release(): void;
}

/** Takes DATA_DIR for this process, or throws naming it (and the owner's pid) when taken. */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  // Never truncated before the lock is held: the owner's pid stays readable.
  const file = Deno.openSync(path, { read: true, write: true, create: true });
  let locked = false;
  try {
    locked = file.tryLockSync(true);
    if (!locked) {
      const owner = /^\d+/.exec(Deno.readTextFileSync(path))?.[0];
      throw new DataDirTaken(
        `DATA_DIR "${dataDir}" is in use by another linkpeek process${
          owner ? ` (pid ${owner})` : ""
        }: one process per DATA_DIR (set REDIS_URL to run several on shared state).`,
      );
    }
    file.truncateSync(0);
    file.writeSync(new TextEncoder().encode(`${Deno.pid}\n`));
  } catch (error) {
    if (locked) file.unlockSync();
    file.close();
    throw error;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // The file stays: removing it could let two processes lock two different files.
      file.unlockSync();
      file.close();
    },
  };
}
