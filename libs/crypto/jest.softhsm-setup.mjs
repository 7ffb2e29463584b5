// A throwaway SoftHSM2 token for the PKCS#11 provider's tests. SoftHSM reads SOFTHSM2_CONF from the C environment
// when it initializes, and jest gives each test file a copy of process.env: so the variable is set here, in jest's
// own process, before any test file runs.
// eslint-disable-next-line @nx/enforce-module-boundaries -- the dev tooling that installs SoftHSM2, not a library
import { createSoftHsmToken } from '../../tools/dev/softhsm.mjs';

export default function setup() {
  const token = createSoftHsmToken({ label: 'spec', pin: '1234', keyLabel: 'kek-spec' });
  process.env.SOFTHSM2_CONF = token.conf;
  process.env.COFFER_SPEC_SOFTHSM = JSON.stringify({ root: token.root, tokenDir: token.tokenDir, module: token.module });
  globalThis.__cofferSoftHsm = token;
}
