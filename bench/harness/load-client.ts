import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { CannonResult, LatencyResult, LoadTask, MixResult, SqlResult, TransferResult } from './load-protocol';

/** The load generator process (load-worker.ts), driven over IPC one task at a time. */
export class LoadGenerator {
  private readonly child: ChildProcess;
  private next = 0;
  private readonly pending = new Map<number, { resolve(value: any): void; reject(error: Error): void }>();

  constructor() {
    this.child = fork(path.join(__dirname, 'load-worker.ts'), [], {
      execArgv: ['--require', require.resolve('tsx/cjs')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(`load worker: ${message.error}`));
      else waiter?.resolve(message.result);
    });
    this.child.on('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`load worker exited with ${code}`));
      this.pending.clear();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(task: Extract<LoadTask, { kind: 'cannon' }>): Promise<CannonResult>;
  run(task: Extract<LoadTask, { kind: 'openloop' }>): Promise<LatencyResult>;
  run(task: Extract<LoadTask, { kind: 'mix' }>): Promise<MixResult>;
  run(task: Extract<LoadTask, { kind: 'upload' | 'disk' }>): Promise<TransferResult>;
  run(task: Extract<LoadTask, { kind: 'sql' }>): Promise<SqlResult>;
  run(task: LoadTask): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, task });
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}
