/**
 * A throwaway database's commits do not wait for the WAL to reach the disk
 * (`synchronous_commit = off`): a commit costs ~0.5 ms instead of ~7 on this machine's busy
 * disk. Nothing the app sees changes — a committed transaction is visible, locks and
 * constraints are the same; only a crash of the server itself could lose the last few
 * commits, which no test does to the shared server.
 */
export const FAST_COMMITS = (name: string) => `alter database ${name} set synchronous_commit = off`;
