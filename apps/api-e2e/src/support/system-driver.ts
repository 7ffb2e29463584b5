import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(__dirname, '../../../..');

export interface DrivenSystem {
  url: string;
  ports: Record<string, number>;
  env: Record<string, string>;
  /** the driver's processes: each service's, or the one service host's ('service-host') */
  pids: Record<string, number>;
}

/**
 * A throwaway Coffer of a test file's own, next to the suite's (tools/dev/system-driver.mjs, which starts it and
 * takes requests one JSON line at a time): for settings the suite's system must not have (an HSM, tracing).
 */
export class SystemDriver {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 1;
  exited = false;
  readonly ready: Promise<DrivenSystem>;

  constructor(options: object) {
    this.child = spawn(process.execPath, [path.join(root, 'tools/dev/system-driver.mjs'), JSON.stringify(options)], { cwd: root, env: process.env });
    // its own log lines (and why it failed, if it did) go with the test's output
    this.child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const lines = readline.createInterface({ input: this.child.stdout });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('exit', (code) => {
        this.exited = true;
        reject(new Error(`system driver exited (${code})`));
        for (const w of this.waiting.values()) w.reject(new Error(`system driver exited (${code})`));
      });
      lines.on('line', (line) => {
        const msg = JSON.parse(line);
        if (msg.ready) return resolve(msg.ready);
        const w = this.waiting.get(msg.id);
        this.waiting.delete(msg.id);
        if (msg.error) w?.reject(new Error(msg.error));
        else w?.resolve(msg.result);
      });
    });
  }

  call<T = unknown>(op: string, args: object = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: (v) => resolve(v as T), reject });
      this.child.stdin.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }
}
