import fs from 'node:fs';
import path from 'node:path';

/** The folder of the gateway's bundle: where the image puts the built front ends, or dist/apps under `npm start`. */
export const gatewayBundleDir = (): string => path.dirname(path.resolve(process.argv[1] ?? '.'));

/**
 * Where a front end built beside the gateway (the console, Elements) is: `configured` (its `*_DIR` variable), else
 * `name` next to the gateway's bundle (the image) or beside it in dist/apps (npm start). The folder must hold `marker`,
 * a file every build of it has.
 */
export function builtFilesDir(name: string, marker: string, configured: string | undefined, bundleDir: string): string | undefined {
  const candidates = [configured, path.join(bundleDir, name), path.join(bundleDir, '..', name)];
  return candidates.find((d): d is string => !!d && fs.existsSync(path.join(d, marker)));
}
