import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config';
import { COFFER_VERSION, loadBuildCommit } from './build-info';
import { metricsRegistry } from './metrics';

describe('coffer_build_info', () => {
  const saved = process.env['COFFER_COMMIT'];
  afterEach(() => {
    if (saved === undefined) delete process.env['COFFER_COMMIT'];
    else process.env['COFFER_COMMIT'] = saved;
  });

  it('is 1, labelled with the root package.json version, COFFER_COMMIT and the Node.js version', async () => {
    process.env['COFFER_COMMIT'] = '0b0660d';
    const rootVersion = (JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;
    expect(COFFER_VERSION).toBe(rootVersion);
    const text = await metricsRegistry.metrics();
    expect(text).toContain(`coffer_build_info{version="${rootVersion}",commit="0b0660d",node="${process.version}"} 1`);
  });

  it('reads COFFER_COMMIT, "unknown" when unset, and refuses what is no commit or tag', () => {
    delete process.env['COFFER_COMMIT'];
    expect(loadBuildCommit()).toBe('unknown');
    process.env['COFFER_COMMIT'] = 'v0.9.0-3-g158bfcb';
    expect(loadBuildCommit()).toBe('v0.9.0-3-g158bfcb');
    for (const bad of ['a"b', 'x'.repeat(65), 'two words']) {
      process.env['COFFER_COMMIT'] = bad;
      expect(() => loadBuildCommit()).toThrow(ConfigError);
      expect(() => loadBuildCommit()).toThrow(/^COFFER_COMMIT must be/);
    }
  });
});
