#!/usr/bin/env node
// The service host: Coffer's services as worker threads of one process (`npm start`'s default, SERVICES_AS=threads).
// Each service keeps its own V8 isolate, module instances, environment, NATS user, database pool and health port, as it
// would in a process of its own; what the threads share is one copy of Node itself (about 50 MB of resident binary
// and runtime per process) and one allocator. Kubernetes runs one process per service (deploy/); so does
// SERVICES_AS=processes.
//
// Reads one JSON object on stdin — {"services": [{"name", "main", "env"}]} — so the services' secrets never appear in
// this process's arguments or environment. Each service's stdout and stderr lines come out on this process's stdout
// and stderr prefixed `[name] `; its logger writes JSON lines straight to the process's stdout, naming their service.
// SIGTERM or SIGINT asks every service to stop (a message: threads see no signals) and exits once all have; a service
// that ends on its own ends the others, and this process exits with its code, as a launcher expects of a process.
import { Worker } from 'node:worker_threads';
import readline from 'node:readline';

const STOP_GRACE_MS = Number(process.env.SERVICE_HOST_STOP_GRACE_MS ?? 30_000);

/** The whole of stdin, parsed: the services to run. */
async function readSpec() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const spec = JSON.parse(text);
  if (!Array.isArray(spec.services) || spec.services.length === 0) throw new Error('no services given');
  for (const s of spec.services) {
    if (typeof s.name !== 'string' || typeof s.main !== 'string' || typeof s.env !== 'object') throw new Error('each service needs name, main and env');
  }
  return spec;
}

function prefixLines(stream, name, out) {
  readline.createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
}

async function main() {
  const { services } = await readSpec();
  const running = new Map();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (signal) => {
    if (stopping) return;
    stopping = true;
    for (const worker of running.values()) worker.postMessage({ type: 'stop', signal });
    // a service that does not finish within its own shutdown timeout is ended here
    setTimeout(() => {
      for (const worker of running.values()) void worker.terminate();
    }, STOP_GRACE_MS).unref();
  };

  for (const { name, main: entry, env } of services) {
    const worker = new Worker(entry, { env, stdout: true, stderr: true, name });
    prefixLines(worker.stdout, name, process.stdout);
    prefixLines(worker.stderr, name, process.stderr);
    // an uncaught exception ends the thread as it would a process; its stack goes where a process's would
    worker.on('error', (err) => process.stderr.write(`${String(err?.stack ?? err).replace(/^/gm, `[${name}] `)}\n`));
    worker.on('exit', (code) => {
      running.delete(name);
      // the first service to fail gives the host its exit code, also one that failed to stop cleanly
      if (code !== 0 && exitCode === 0) exitCode = code;
      if (!stopping) {
        process.stderr.write(`[service-host] ${name} exited (${code}); stopping the others\n`);
        if (exitCode === 0) exitCode = 1;
        stopAll('SIGTERM');
      }
      // no process.exit: the host ends by itself once the threads have, and only after what they wrote has left
      // through its stdout (a pipe that a slow reader lets fill; process.exit would drop what is still queued)
      process.exitCode = exitCode;
    });
    running.set(name, worker);
  }
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`[service-host] ${err.message}\n`);
  process.exit(2);
});
