// BENCH_TRACING=1: the throwaway system traces every request (docs/tracing.md) to this collector, which takes OTLP/HTTP
// exports and discards them, so the run shows what tracing costs; counted, so a run that exported nothing says so.
import http from 'node:http';

export async function startTraceSink() {
  const sink = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    req.on('data', (chunk) => (sink.bytes += chunk.length));
    req.on('end', () => {
      sink.requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    sink,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${server.address().port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
