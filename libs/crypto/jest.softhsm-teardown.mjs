export default function teardown() {
  globalThis.__cofferSoftHsm?.remove();
}
